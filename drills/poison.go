package drills

import (
	"strconv"
	"strings"

	"archlab/internal/ordering"
)

// This drill demonstrates that poison is not a conflict. Two events can never
// be applied as written: one has a type the order state machine does not
// know, the other claims a version its type never has. Retrying cannot fix
// either, so the consumer dead-letters both on their first delivery, without
// spending the retry budget. Lesson: poison goes straight to the DLQ,
// whatever --max-attempts is.
var poison = Drill{
	Name:    "poison",
	Section: "8.3",
	Params:  []Param{{Name: "max-attempts", Default: 3, Min: 1, Max: 100}},
	Book:    book("events", "2", "dead", "2", "attempts", "1/1", "applied", "0"),
	run:     runPoison,
}

func runPoison(v Values, r *Recorder) error {
	proj := ordering.NewProjection()
	c := ordering.NewConsumer(proj, v["max-attempts"])
	events := []ordering.Event{
		{ID: "evt-9", OrderID: "o-1", Version: 1, Type: "refund"}, // unknown type
		{ID: "evt-10", OrderID: "o-1", Version: 5, Type: "pay"},   // pay is always v2
	}
	r.Phase(Setup)
	dispatch(r, c, proj, events...)
	r.Phase(Verdict)
	recordState(r, proj, "o-1")
	dlq := c.DLQ()
	var attempts []string
	firstTry := true
	for _, d := range dlq {
		attempts = append(attempts, strconv.Itoa(d.Attempts))
		firstTry = firstTry && d.Attempts == 1
	}
	r.Count("events", len(events))
	r.Count("dead", len(dlq))
	r.Count("attempts", strings.Join(attempts, "/"))
	r.Count("applied", proj.AppliedCount())
	r.Check("check.poison.all-dead", len(dlq) == len(events) && proj.AppliedCount() == 0)
	r.Check("check.poison.first-attempt", firstTry)
	return nil
}
