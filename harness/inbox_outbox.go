package harness

import "errors"

// An outbox: the consumer writes the effect, its dedup key and a row in
// an outbox table of its own for the call outside the store, in one local
// transaction (the book's ApplyOnce; the row commits exactly when the
// effect does), acks, and relays the outbox after: each row's call is
// made, then the row is marked relayed. A consumer that dies between the
// commit and the relay leaves the row there, and its recovery step relays
// it when the process restarts (inbox_durable.go). The call is tied to the
// committed effect, not to the delivery: a redelivery finds the key and
// writes no second row, so a lost ack no longer calls twice, as it does
// when the handler calls the service itself (exactly-once-boundary).
//
// A relay is at least once: a process that dies after a row's call and
// before its mark calls again at its restart, and the service called
// deduplicates by the message's key. The lab's crash points fall at the
// handler's calls; the mark is not one of them.

// Outbox is the strategy a drill file names for the lab's outbox: the
// effect with its outbox row, the ack, the relay; the recovery relays
// what a crash left.
const Outbox Strategy = "outbox"

// outboxStudents is the outbox, written with the student's verbs.
var outboxStudents = &Students{Inbox: outboxHandler, Recover: outboxRecover, lab: true}

func outboxHandler(d *Delivery) error {
	if _, err := d.ApplyOnceWithOutbox(); err != nil {
		return err
	}
	// A lost ack leaves the row committed: relay it all the same.
	ackErr := d.Ack()
	if errors.Is(ackErr, ErrCrashed) {
		return ackErr
	}
	if err := d.Relay(); err != nil {
		return err
	}
	return ackErr
}

func outboxRecover(r *Restart) error { return r.Relay() }

// ApplyOnceWithOutbox is ApplyOnce, with a row in the consumer's outbox
// table for a message that asks for a call outside the store (declared
// notify), in the same local transaction: the row commits exactly when
// the effect does. A duplicate writes neither.
func (d *Delivery) ApplyOnceWithOutbox() (bool, error) {
	d.watch.Call("d.ApplyOnceWithOutbox")
	return d.h.applyWithOutbox(d.env, d.i)
}

// Relay makes the call of every outbox row not relayed yet, in the order
// the messages were declared, and marks each row relayed after its call.
func (d *Delivery) Relay() error { d.watch.Call("d.Relay"); return d.h.relay(d.env) }

// Relay is Delivery.Relay, at the restart.
func (r *Restart) Relay() error { r.h.students.watch().Call("r.Relay"); return r.h.relay(r.env) }

// applyWithOutbox is ApplyOnceWithOutbox for message i: the environment's
// ApplyOnce, whose crash points and faults are the book's Consume's; its
// commit writes the row.
func (h *Inbox) applyWithOutbox(d *deliveryEnv, i int) (bool, error) {
	h.durable = true
	fresh, err := d.ApplyOnce(h.msgs[i])
	if err == nil && fresh && h.outside.notify[i] {
		h.outbox[i] = true
		h.step("consumer", "ledger", M("outbox.step.row", h.msgs[i]), M("outbox.res.row"), Neutral)
	}
	return fresh, err
}

// relay is Relay: each row's call through the environment (a crash there
// leaves the row for the restart), then its mark.
func (h *Inbox) relay(d *deliveryEnv) error {
	h.durable = true
	for i, m := range h.msgs {
		if !h.outbox[i] || h.relayed[i] {
			continue
		}
		if h.onRecovery != nil {
			h.onRecovery()
		}
		if err := d.Notify(m); err != nil {
			return err
		}
		h.relayed[i] = true
	}
	return nil
}

// Unrelayed counts the outbox rows committed and not relayed.
func (h *Inbox) Unrelayed() int {
	n := 0
	for i := range h.msgs {
		if h.outbox[i] && !h.relayed[i] {
			n++
		}
	}
	return n
}
