package drills

import (
	"fmt"

	"archlab/internal/ordering"
)

// This drill demonstrates per-key ordering. Orders order-1 … order-N are
// routed to partitions by FNV-1a of the order ID. Then the consumer group
// restarts and every order is routed again: each lands on the same partition
// as before, so all events of one order are read by one consumer, in order.
// Lesson: the mapping is a pure function of the key, stable across restarts,
// and spreads the orders over the partitions.
var partitionAffinity = Drill{
	Name:    "partition-affinity",
	Section: "8.3",
	Params: []Param{
		{Name: "orders", Default: 8, Min: 1, Max: 1000},
		{Name: "partitions", Default: 4, Min: 1, Max: 1000},
	},
	Book: book("orders", "8", "partitions", "4", "used", "4", "stable", "yes"),
	run:  runPartitionAffinity,
}

func runPartitionAffinity(v Values, r *Recorder) error {
	n, parts := v["orders"], v["partitions"]
	first := make([]int, n)
	used := map[int]bool{}
	r.Phase(Setup)
	for i := range n {
		id := fmt.Sprintf("order-%d", i+1)
		first[i] = ordering.Partition(id, parts)
		used[first[i]] = true
		r.Step("router", "partitions", M("step.route", id), M("res.partition", first[i]), Neutral)
	}
	// The fault: the consumer group restarts and routes every order again.
	r.Phase(Fault)
	r.Step("group", "router", M("step.restart"), M("res.restarted"), Bad)
	r.Phase(Recovery)
	stable := true
	moved := 0
	for i := range n {
		id := fmt.Sprintf("order-%d", i+1)
		again := ordering.Partition(id, parts)
		if again != first[i] {
			stable = false
			moved++
			r.Step("router", "partitions", M("step.route", id), M("res.partition-moved", first[i], again), Bad)
		}
	}
	r.Step("router", "partitions", M("step.reroute-all", n), M("res.moved", moved), toneIf(stable, Good, Bad))
	r.Phase(Verdict)
	r.Step("reader", "partitions", M("step.count-partitions"), M("res.used", len(used), parts), Neutral)
	r.Count("orders", n)
	r.Count("partitions", parts)
	r.Count("used", len(used))
	r.Count("stable", yesNo(stable))
	r.Check("check.partition-affinity.stable", stable)
	r.Check("check.partition-affinity.within-range", len(used) >= 1 && len(used) <= min(n, parts))
	return nil
}

// yesNo prints a boolean the way the book prints stable=yes.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
