package drills

import "archlab/internal/ordering"

// This drill demonstrates the reconciliation loop. The consumer has no retry
// budget to spare (one delivery per event): pay (v2) overtakes reserve (v1)
// and is dead-lettered at once; reserve then applies, and the projection is
// stuck at v1 while the order service, the source of truth, says v2/PAID.
// Replaying the log cannot help: the event is in the DLQ. Reconcile compares
// the projection with the source and repairs the row. Lesson: what the DLQ
// holds is repaired from the source of truth, one fix per diverged order.
var reconcile = Drill{
	Name:    "reconcile",
	Section: "8.3",
	Book:    book("before", "v1/INVENTORY_RESERVED", "after", "v2/PAID", "fixes", "1", "dlq", "1"),
	run:     runReconcile,
}

func runReconcile(_ Values, r *Recorder) error {
	proj := ordering.NewProjection()
	c := ordering.NewConsumer(proj, 1)
	truth := ordering.MapSource{"o-1": {Version: 2, Status: ordering.StatusPaid}}
	r.Phase(Setup)
	dispatch(r, c, proj, payO1, reserveO1)
	r.Phase(Recovery)
	before := recordState(r, proj, "o-1")
	fixes := ordering.Reconcile(proj, truth, []string{"o-1"})
	for _, f := range fixes {
		r.Step("reconciler", "projection", M("step.repair", f.OrderID), M("res.repaired", f.From, f.To), Good)
	}
	r.Phase(Verdict)
	after := recordState(r, proj, "o-1")
	r.Count("before", before)
	r.Count("after", after)
	r.Count("fixes", len(fixes))
	r.Count("dlq", len(c.DLQ()))
	want, _ := truth.Status("o-1")
	r.Check("check.reconcile.matches-source", after == want)
	r.Check("check.reconcile.one-fix-per-dead-order", len(fixes) == len(c.DLQ()))
	return nil
}
