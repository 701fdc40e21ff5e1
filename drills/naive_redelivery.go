package drills

import (
	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
)

// This drill demonstrates what at-least-once delivery does without a dedup
// table. The consumer applies the payment, its ack is lost, and the broker
// redelivers; NaiveApply has nothing to recognise the message by, so it
// charges the order again. Lesson: without a dedup key every delivery is an
// effect.
//
// With --crash real the consumer process is killed with SIGKILL after its
// effect committed and before its ack; the fresh process that gets the
// redelivery charges the order again.
var naiveRedelivery = Drill{
	Name:    "naive-redelivery",
	Section: "8.2",
	Params:  []Param{{Name: "deliveries", Default: 2, Min: 1, Max: 1000}},
	Book:    book("deliveries", "2", "effects", "2", "balance", "5198"),
	runIn:   runNaiveRedelivery,
}

func runNaiveRedelivery(v Values, env Env, r *Recorder) (err error) {
	c, err := openConsumer(env, r)
	if err != nil {
		return err
	}
	defer c.close(&err)
	ledger, acks := c.store, inbox.NewMemoryAck()
	m := payment
	r.Phase(Setup)
	deliveries, err := c.redeliverUntilAcked(consumerproc.NaiveApply, m, acks, v["deliveries"])
	if err != nil {
		return err
	}
	r.Phase(Verdict)
	recordBalance(r, ledger, m.OrderID)
	r.Count("deliveries", deliveries)
	r.Count("effects", ledger.Applies())
	r.Count("balance", ledger.Balance(m.OrderID))
	r.Check("check.naive-redelivery.every-delivery-applies", ledger.Applies() == deliveries)
	r.Check("check.naive-redelivery.balance-multiplied", ledger.Balance(m.OrderID) == int64(deliveries)*m.AmountCents)
	c.checkKilled(deliveries - 1)
	return nil
}
