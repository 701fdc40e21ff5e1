package drills

import (
	"errors"

	"archlab/internal/inbox"
)

// This drill demonstrates the effect-then-ack order of 8.2. The consumer
// commits the payment and its dedup key, then the ack to the broker is lost.
// The broker, which only knows the message is unacked, redelivers it; the
// dedup key written in the same transaction as the effect turns the
// redelivery into a no-op. Lesson: the effect lands once however many times
// the message is delivered.
var ackLost = Drill{
	Name:    "ack-lost",
	Section: "8.2",
	Params:  []Param{{Name: "deliveries", Default: 2, Min: 1, Max: 1000}},
	Book:    book("deliveries", "2", "effects", "1", "balance", "2599", "acks", "2"),
	run:     runAckLost,
}

// payment is the book's 8.2 message: 25.99 paid for order o-1.
var payment = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

func runAckLost(v Values, r *Recorder) error {
	ledger, acks := inbox.NewLedger(), inbox.NewMemoryAck()
	m := payment
	r.Phase(Setup)
	deliveries := 0
	// The broker redelivers until it sees an ack. Every ack but the last of
	// the requested deliveries is lost.
	for !acks.Acked(m) {
		deliveries++
		if deliveries < v["deliveries"] {
			acks.LoseNext()
		}
		r.Step("broker", "consumer", M("step.deliver", m, deliveries), M("res.received"), Neutral)
		applied, err := inbox.Consume(ledger, m, acks)
		recordApply(r, ledger, m, applied)
		switch {
		case errors.Is(err, inbox.ErrAckLost):
			r.Phase(Fault)
			r.Step("consumer", "broker", M("step.ack", m), M("res.ack-lost"), Bad)
			r.Phase(Recovery)
		case err != nil:
			return err
		default:
			r.Step("consumer", "broker", M("step.ack", m), M("res.acked"), Good)
		}
	}
	r.Phase(Verdict)
	recordBalance(r, ledger, m.OrderID)
	r.Count("deliveries", deliveries)
	r.Count("effects", ledger.Applies())
	r.Count("balance", ledger.Balance(m.OrderID))
	r.Count("acks", acks.Acks())
	r.Check("check.ack-lost.effects-once", ledger.Applies() == 1)
	r.Check("check.ack-lost.balance-once", ledger.Balance(m.OrderID) == m.AmountCents)
	r.Check("check.ack-lost.acked-last", acks.Acked(m) && acks.Acks() == deliveries)
	return nil
}

// recordApply records the ledger's answer to one ApplyOnce.
func recordApply(r *Recorder, l *inbox.Ledger, m inbox.Message, applied bool) {
	if applied {
		r.Step("consumer", "ledger", M("step.apply-once", m), M("res.applied", l.Balance(m.OrderID)), Good)
	} else {
		r.Step("consumer", "ledger", M("step.apply-once", m), M("res.duplicate"), Good)
	}
}

// recordBalance records the final read of an order's balance.
func recordBalance(r *Recorder, l *inbox.Ledger, orderID string) {
	r.Step("reader", "ledger", M("step.read-balance", orderID), M("res.balance", l.Balance(orderID), l.Applies()), Neutral)
}
