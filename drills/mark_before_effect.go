package drills

import (
	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
)

// This drill demonstrates the wrong order: mark the dedup key first, apply
// the effect second, as two separate writes. The handler crashes between
// them. The key already says "done", so every redelivery is dropped as a
// duplicate and the payment is never applied. Lesson: mark-before-effect
// loses the message, however often the broker redelivers.
//
// With --crash real the consumer process commits the key's transaction and
// is killed with SIGKILL before the effect's transaction begins; fresh
// processes get the redeliveries, find the key in the file and apply
// nothing.
var markBeforeEffect = Drill{
	Name:    "mark-before-effect",
	Section: "8.2",
	Params:  []Param{{Name: "deliveries", Default: 2, Min: 2, Max: 1000}},
	Book:    book("balance", "0", "effects", "0", "redelivery_applied", "false"),
	runIn:   runMarkBeforeEffect,
}

func runMarkBeforeEffect(v Values, env Env, r *Recorder) (err error) {
	c, err := openConsumer(env, r)
	if err != nil {
		return err
	}
	defer c.close(&err)
	ledger := c.store
	m := payment
	acks := inbox.NewMemoryAck()
	r.Phase(Setup)
	// The first delivery marks the key and crashes before the effect.
	if _, err := c.handle(delivery{handler: consumerproc.MarkBeforeEffect, msg: m, attempt: 1, fault: true}, acks); err != nil {
		return err
	}
	redeliveryApplied := false
	for attempt := 2; attempt <= v["deliveries"]; attempt++ {
		applied, err := c.handle(delivery{handler: consumerproc.MarkBeforeEffect, msg: m, attempt: attempt}, acks)
		if err != nil {
			return err
		}
		redeliveryApplied = redeliveryApplied || applied
	}
	r.Phase(Verdict)
	recordBalance(r, ledger, m.OrderID)
	r.Count("balance", ledger.Balance(m.OrderID))
	r.Count("effects", ledger.Applies())
	r.Count("redelivery_applied", redeliveryApplied)
	r.Check("check.mark-before-effect.message-lost", ledger.Applies() == 0 && ledger.Balance(m.OrderID) == 0)
	c.checkKilled(1)
	return nil
}
