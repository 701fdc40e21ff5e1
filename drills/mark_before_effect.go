package drills

import (
	"errors"

	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
	"archlab/internal/inbox/sqlstore"
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
	r.Phase(Setup)
	if c.real() {
		out, err := c.deliver(consumerproc.MarkBeforeEffect, m, 1, sqlstore.BetweenMarkAndEffect)
		if err != nil {
			return err
		}
		r.Step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
		r.Phase(Fault)
		c.recordKill(out, sqlstore.BetweenMarkAndEffect)
	} else {
		r.Step("broker", "consumer", M("step.deliver", m, 1), M("res.received"), Neutral)
		err := ledger.MarkBeforeEffect(m, true)
		if !errors.Is(err, inbox.ErrSimulatedCrash) {
			return err
		}
		r.Step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
		r.Phase(Fault)
		r.Step("consumer", "consumer", M("step.crash-before-effect"), M("res.crashed", "ErrSimulatedCrash"), Bad)
	}
	r.Phase(Recovery)
	redeliveryApplied := false
	for attempt := 2; attempt <= v["deliveries"]; attempt++ {
		before := ledger.Applies()
		if c.real() {
			if _, err := c.deliver(consumerproc.MarkBeforeEffect, m, attempt, ""); err != nil {
				return err
			}
		} else {
			r.Step("broker", "consumer", M("step.deliver", m, attempt), M("res.received"), Neutral)
			if err := ledger.MarkBeforeEffect(m, false); err != nil {
				return err
			}
		}
		applied := ledger.Applies() > before
		redeliveryApplied = redeliveryApplied || applied
		if applied {
			r.Step("consumer", "ledger", M("step.mark-then-apply", m), M("res.applied", ledger.Balance(m.OrderID)), Good)
		} else {
			r.Step("consumer", "ledger", M("step.mark-then-apply", m), M("res.taken-for-duplicate"), Bad)
		}
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
