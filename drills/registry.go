package drills

import "fmt"

// Sections are the book's sections archlab follows, in book order.
var Sections = []Section{
	{ID: "8.2", Chapter: 8, Package: "internal/inbox"},
	{ID: "8.3", Chapter: 8, Package: "internal/ordering"},
	{ID: "11.2", Chapter: 11, Package: "internal/shardjob"},
}

// registry lists every drill in book order. It is a plain slice of values
// built at compile time: no init work, no reflection.
var registry = []*Drill{
	&ackLost, &naiveRedelivery, &dedupScope, &pruneWindow, &markBeforeEffect,
	&partitionAffinity, &outOfOrder, &poison, &retryBudget, &reconcile, &replay, &seekBounds,
	&crashResume, &staleEpoch,
}

func sprint(v any) string { return fmt.Sprint(v) }

// book turns alternating name, value pairs into counters, so a drill's
// expected values read like the book's log line.
func book(pairs ...string) []Counter {
	out := make([]Counter, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Counter{Name: pairs[i], Value: pairs[i+1]})
	}
	return out
}
