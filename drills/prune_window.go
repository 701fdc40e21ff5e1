package drills

import "archlab/internal/inbox"

// This drill demonstrates that a dedup table only protects inside its
// retention window. A payment with producer sequence 7 is applied, and a
// redelivery inside the window is suppressed. Then the table is pruned up to
// sequence 7 (--prune-through) and the old message is replayed, as after an
// offset rewind: with its key forgotten, it is applied a second time.
// Lesson: a replay older than the window is applied again, so the window must
// outlast the longest possible redelivery.
var pruneWindow = Drill{
	Name:    "prune-window",
	Section: "8.2",
	Params:  []Param{{Name: "prune-through", Default: 7, Min: 0, Max: 1000}},
	Book:    book("pruned", "1", "replay_applied", "true", "balance", "2400"),
	run:     runPruneWindow,
}

func runPruneWindow(v Values, r *Recorder) error {
	ledger := inbox.NewLedger()
	old := inbox.Message{Producer: "pay", ID: "evt-7", Seq: 7, OrderID: "o-3", AmountCents: 1200}
	r.Phase(Setup)
	for attempt := 1; attempt <= 2; attempt++ {
		r.Step("broker", "consumer", M("step.deliver", old, attempt), M("res.received"), Neutral)
		applied, err := ledger.ApplyOnce(old)
		if err != nil {
			return err
		}
		recordApply(r, ledger, old, applied)
	}
	r.Phase(Fault)
	pruned := ledger.Prune(int64(v["prune-through"]))
	r.Step("janitor", "ledger", M("step.prune", v["prune-through"]), M("res.pruned", pruned), toneIf(pruned > 0, Bad, Neutral))
	r.Step("broker", "consumer", M("step.replay", old), M("res.received"), Neutral)
	replayed, err := ledger.ApplyOnce(old)
	if err != nil {
		return err
	}
	if replayed {
		r.Step("consumer", "ledger", M("step.apply-once", old), M("res.applied-again", 1, ledger.Balance(old.OrderID)), Bad)
	} else {
		recordApply(r, ledger, old, replayed)
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
