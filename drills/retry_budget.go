package drills

import "archlab/internal/ordering"

// This drill demonstrates a retry budget running out. The pay event (v2) of
// order o-1 arrives, but its reserve event never does. Each delivery is a
// conflict and is requeued, until the delivery count reaches --max-attempts;
// then the consumer gives up and dead-letters it. Lesson: a conflict is
// retried exactly max-attempts times, then parked in the DLQ for
// reconciliation, not retried forever.
var retryBudget = Drill{
	Name:    "retry-budget",
	Section: "8.3",
	Params:  []Param{{Name: "max-attempts", Default: 3, Min: 1, Max: 100}},
	Book:    book("max", "3", "attempts", "3", "outcome", "dead", "applied", "0"),
	run:     runRetryBudget,
}

func runRetryBudget(v Values, r *Recorder) error {
	proj := ordering.NewProjection()
	c := ordering.NewConsumer(proj, v["max-attempts"])
	r.Phase(Setup)
	attempts, outcomes := dispatch(r, c, proj, payO1)
	r.Phase(Verdict)
	recordState(r, proj, payO1.OrderID)
	r.Count("max", c.MaxAttempts)
	r.Count("attempts", attempts)
	r.Count("outcome", string(outcomes[payO1.ID]))
	r.Count("applied", proj.AppliedCount())
	r.Check("check.retry-budget.spent-exactly", attempts == c.MaxAttempts)
	r.Check("check.retry-budget.dead-not-applied", outcomes[payO1.ID] == ordering.OutcomeDead && proj.AppliedCount() == 0)
	return nil
}
