package harness

import "archlab/internal/ordering"

// When a §8.3 run has settled. The book's invariants are read at a run's
// end, when the broker has nothing left to deliver; a state in the middle
// of a run (a state page of archlab serve, or a drill that stops there) is
// read the same way only once nothing more comes by itself: no delivery
// waits in the broker's queue, every declared event has reached the
// consumer, and, for a design that reconciles, every order the source of
// truth knows was reconciled after the last delivery.

// Waiting counts what is still to come: the deliveries in the broker's
// queue, and the declared events that never reached the consumer.
func (o *Ordering) Waiting() int {
	n := o.queued
	for _, e := range o.events {
		if _, arrived := o.outcomes[e.ID]; !arrived {
			n++
		}
	}
	return n
}

// Queued counts the deliveries waiting in the broker's queue.
func (o *Ordering) Queued() int { return o.queued }

// Unreconciled counts the orders the source of truth knows that were not
// reconciled since the last delivery.
func (o *Ordering) Unreconciled() int {
	n := 0
	for id := range o.truth {
		if !o.sinceReconcile[id] {
			n++
		}
	}
	return n
}

// QueuedDelivery is one delivery waiting in the broker's queue.
type QueuedDelivery struct {
	Event   ordering.Event
	Attempt int
}

// Queue is what the model broker's queue holds, head first; a real
// broker's queue is not read (nil).
func (o *Ordering) Queue() []QueuedDelivery {
	q, ok := o.broker.(*memoryOrdering)
	if !ok {
		return nil
	}
	out := make([]QueuedDelivery, len(q.queue))
	for i, d := range q.queue {
		out[i] = QueuedDelivery{Event: d.event, Attempt: d.attempt}
	}
	return out
}

func (o *Ordering) noteReconciled(orders []string) {
	if o.sinceReconcile == nil {
		o.sinceReconcile = map[string]bool{}
	}
	for _, id := range orders {
		o.sinceReconcile[id] = true
	}
}
