package drills

import "archlab/internal/inbox"

// This drill demonstrates what at-least-once delivery does without a dedup
// table. The consumer applies the payment, its ack is lost, and the broker
// redelivers; NaiveApply has nothing to recognise the message by, so it
// charges the order again. Lesson: without a dedup key every delivery is an
// effect.
var naiveRedelivery = Drill{
	Name:    "naive-redelivery",
	Section: "8.2",
	Params:  []Param{{Name: "deliveries", Default: 2, Min: 1, Max: 1000}},
	Book:    book("deliveries", "2", "effects", "2", "balance", "5198"),
	run:     runNaiveRedelivery,
}

func runNaiveRedelivery(v Values, r *Recorder) error {
	ledger, acks := inbox.NewLedger(), inbox.NewMemoryAck()
	m := payment
	r.Phase(Setup)
	deliveries := 0
	for !acks.Acked(m) {
		deliveries++
		if deliveries < v["deliveries"] {
			acks.LoseNext()
		}
		r.Step("broker", "consumer", M("step.deliver", m, deliveries), M("res.received"), Neutral)
		before := ledger.Applies()
		ledger.NaiveApply(m)
		tone := Neutral
		if deliveries > 1 {
			tone = Bad // a second charge for the same message
		}
		r.Step("consumer", "ledger", M("step.naive-apply", m), M("res.applied-again", ledger.Applies()-before, ledger.Balance(m.OrderID)), tone)
		if err := acks.Ack(m); err != nil {
			r.Phase(Fault)
			r.Step("consumer", "broker", M("step.ack", m), M("res.ack-lost"), Bad)
			r.Phase(Recovery)
		} else {
			r.Step("consumer", "broker", M("step.ack", m), M("res.acked"), Good)
		}
	}
	r.Phase(Verdict)
	recordBalance(r, ledger, m.OrderID)
	r.Count("deliveries", deliveries)
	r.Count("effects", ledger.Applies())
	r.Count("balance", ledger.Balance(m.OrderID))
	r.Check("check.naive-redelivery.every-delivery-applies", ledger.Applies() == deliveries)
	r.Check("check.naive-redelivery.balance-multiplied", ledger.Balance(m.OrderID) == int64(deliveries)*m.AmountCents)
	return nil
}
