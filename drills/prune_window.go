package drills

import (
	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
)

// This drill demonstrates that a dedup table only protects inside its
// retention window. A payment with producer sequence 7 is applied, and a
// redelivery inside the window is suppressed. Then the table is pruned up to
// sequence 7 (--prune-through) and the old message is replayed, as after an
// offset rewind: with its key forgotten, it is applied a second time.
// Lesson: a replay older than the window is applied again, so the window must
// outlast the longest possible redelivery.
//
// With --crash real every delivery goes to a consumer process of its own and
// none is killed: the fault here is the janitor's DELETE (run by the broker's
// process on the same file), not a crash.
var pruneWindow = Drill{
	Name:    "prune-window",
	Section: "8.2",
	Params:  []Param{{Name: "prune-through", Default: 7, Min: 0, Max: 1000}},
	Book:    book("pruned", "1", "replay_applied", "true", "balance", "2400"),
	runIn:   runPruneWindow,
}

func runPruneWindow(v Values, env Env, r *Recorder) (err error) {
	c, err := openConsumer(env, r)
	if err != nil {
		return err
	}
	defer c.close(&err)
	ledger := c.store
	old := inbox.Message{Producer: "pay", ID: "evt-7", Seq: 7, OrderID: "o-3", AmountCents: 1200}
	acks := inbox.NewMemoryAck()
	r.Phase(Setup)
	// Delivered twice inside the window: the second is a duplicate.
	for attempt := 1; attempt <= 2; attempt++ {
		if _, err := c.handle(delivery{handler: consumerproc.ApplyOnce, msg: old, attempt: attempt}, acks); err != nil {
			return err
		}
	}
	r.Phase(Fault)
	c.actor = "janitor" // the DELETE is the janitor's
	pruned := ledger.Prune(int64(v["prune-through"]))
	c.actor = "consumer"
	r.Step("janitor", "ledger", M("step.prune", v["prune-through"]), M("res.pruned", pruned), toneIf(pruned > 0, Bad, Neutral))
	replayed, err := c.handle(delivery{handler: consumerproc.ApplyOnce, msg: old, attempt: 3, replay: true}, acks)
	if err != nil {
		return err
	}
	r.Phase(Verdict)
	recordBalance(r, ledger, old.OrderID)
	r.Count("pruned", pruned)
	r.Count("replay_applied", replayed)
	r.Count("balance", ledger.Balance(old.OrderID))
	inWindow := old.Seq > int64(v["prune-through"])
	r.Check("check.prune-window.replay-iff-pruned", replayed == !inWindow)
	want := old.AmountCents
	if replayed {
		want *= 2
	}
	r.Check("check.prune-window.balance", ledger.Balance(old.OrderID) == want)
	return nil
}

// toneIf returns yes when cond holds, else no.
func toneIf(cond bool, yes, no Tone) Tone {
	if cond {
		return yes
	}
	return no
}
