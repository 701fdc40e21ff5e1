package drills

import "archlab/internal/ordering"

// dispatch plays the broker of 8.3: it delivers the queued events to the
// consumer one at a time and requeues a retried event at the back with its
// attempt count raised, until the queue is empty. Each delivery is recorded;
// a retry or a dead letter is recorded as the fault. It returns the number of
// deliveries (Handle calls) and the last outcome of each event, by ID.
func dispatch(r *Recorder, c *ordering.Consumer, p *ordering.Projection, events ...ordering.Event) (int, map[string]ordering.Outcome) {
	type delivery struct {
		event   ordering.Event
		attempt int
	}
	queue := make([]delivery, 0, len(events))
	for _, e := range events {
		queue = append(queue, delivery{event: e, attempt: 1})
	}
	last := map[string]ordering.Outcome{}
	attempts := 0
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		attempts++
		r.Step("broker", "consumer", M("step.deliver", d.event, d.attempt), M("res.received"), Neutral)
		out := c.Handle(d.event, d.attempt)
		last[d.event.ID] = out
		state, _ := p.Get(d.event.OrderID)
		switch out {
		case ordering.OutcomeApplied:
			r.Step("consumer", "projection", M("step.project", d.event), M("res.outcome.applied", state), Good)
		case ordering.OutcomeDuplicate:
			r.Step("consumer", "projection", M("step.project", d.event), M("res.outcome.duplicate", state), Good)
		case ordering.OutcomeRetry:
			r.Phase(Fault)
			r.Step("consumer", "projection", M("step.project", d.event), M("res.outcome.retry", state), Bad)
			r.Phase(Recovery)
			queue = append(queue, delivery{event: d.event, attempt: d.attempt + 1})
		case ordering.OutcomeDead:
			r.Phase(Fault)
			r.Step("consumer", "dlq", M("step.dead-letter", d.event), M("res.outcome.dead", d.attempt), Bad)
			r.Phase(Recovery)
		}
	}
	return attempts, last
}

// recordState records the final read of an order's projection row.
func recordState(r *Recorder, p *ordering.Projection, orderID string) ordering.OrderState {
	st, _ := p.Get(orderID)
	r.Step("reader", "projection", M("step.read-state", orderID), M("res.state", st, p.AppliedCount()), Neutral)
	return st
}
