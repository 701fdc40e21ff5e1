package drills

import (
	"archlab/internal/ordering"
)

// This drill demonstrates a conflict that resolves itself. The pay event (v2)
// of order o-1 overtakes its reserve event (v1). The projection refuses to
// skip a version: pay is a conflict, and the broker requeues it. reserve
// arrives, then pay again, and the order converges to v2/PAID with nothing
// dead-lettered. Lesson: with a retry budget of at least two deliveries, a
// reordered event waits for its predecessor instead of corrupting the row.
var outOfOrder = Drill{
	Name:    "out-of-order",
	Section: "8.3",
	Params:  []Param{{Name: "max-attempts", Default: 3, Min: 1, Max: 100}},
	Book:    book("attempts", "3", "applied", "2", "final", "v2/PAID", "dlq", "0"),
	run:     runOutOfOrder,
}

var (
	reserveO1 = ordering.Event{ID: "evt-1", OrderID: "o-1", Version: 1, Type: "reserve"}
	payO1     = ordering.Event{ID: "evt-2", OrderID: "o-1", Version: 2, Type: "pay"}
)

func runOutOfOrder(v Values, r *Recorder) error {
	proj := ordering.NewProjection()
	c := ordering.NewConsumer(proj, v["max-attempts"])
	r.Phase(Setup)
	attempts, _ := dispatch(r, c, proj, payO1, reserveO1)
	r.Phase(Verdict)
	final := recordState(r, proj, "o-1")
	dlq := len(c.DLQ())
	r.Count("attempts", attempts)
	r.Count("applied", proj.AppliedCount())
	r.Count("final", final)
	r.Count("dlq", dlq)
	// Every event either applied or dead-lettered, never lost or doubled;
	// with room for one retry, the order converges by itself.
	r.Check("check.out-of-order.applied-or-dead", proj.AppliedCount()+dlq == 2)
	r.Check("check.out-of-order.converges-with-budget", v["max-attempts"] < 2 || (final.Status == ordering.StatusPaid && dlq == 0))
	return nil
}
