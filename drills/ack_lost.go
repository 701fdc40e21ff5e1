package drills

import (
	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
)

// This drill demonstrates the effect-then-ack order of 8.2. The consumer
// commits the payment and its dedup key, then the ack to the broker is lost.
// The broker, which only knows the message is unacked, redelivers it; the
// dedup key written in the same transaction as the effect turns the
// redelivery into a no-op. Lesson: the effect lands once however many times
// the message is delivered.
//
// With --crash real the consumer is a process of its own on a SQLite file,
// killed with SIGKILL after its COMMIT and before its ack; the broker
// redelivers to a fresh process on the same file.
var ackLost = Drill{
	Name:    "ack-lost",
	Section: "8.2",
	Params:  []Param{{Name: "deliveries", Default: 2, Min: 1, Max: 1000}},
	Book:    book("deliveries", "2", "effects", "1", "balance", "2599", "acks", "2"),
	runIn:   runAckLost,
}

// payment is the book's 8.2 message: 25.99 paid for order o-1.
var payment = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

func runAckLost(v Values, env Env, r *Recorder) (err error) {
	c, err := openConsumer(env, r)
	if err != nil {
		return err
	}
	defer c.close(&err)
	ledger, acks := c.store, inbox.NewMemoryAck()
	m := payment
	r.Phase(Setup)
	deliveries, err := c.redeliverUntilAcked(consumerproc.ApplyOnce, m, acks, v["deliveries"])
	if err != nil {
		return err
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
	c.checkKilled(deliveries - 1)
	return nil
}
