package drills

import (
	"errors"

	"archlab/internal/shardjob"
)

// This drill demonstrates lease fencing, which the book's code implies but
// its log does not print; its counters are the lab's. A worker holding shard
// 0 under lease epoch 1 stalls (a long GC pause, a network partition) after
// --lease-expires-after items. Its lease expires and a new owner takes the
// shard under epoch 2, resumes from the checkpoint and finishes it. Then the
// zombie wakes up and tries to commit, twice: its own progress, and the end
// of the shard when it carries on. The checkpoint rejects both with
// ErrStaleEpoch. Lesson: a zombie can never move the checkpoint, and the sink
// still applies every key once.
var staleEpoch = Drill{
	Name:    "stale-epoch",
	Section: "11.2",
	Params: []Param{
		{Name: "keys", Default: 100, Min: 1, Max: 1_000_000},
		{Name: "commit-every", Default: 10, Min: 1, Max: 1_000_000},
		{Name: "lease-expires-after", Default: 25, Min: 1},
	},
	LabOnly: true,
	Book: book("zombie_epoch", "1", "owner_epoch", "2", "zombie_commits", "2", "rejected", "2",
		"checkpoint", "100", "applied", "100", "suppressed", "5"),
	Validate: func(v Values) error {
		if v["lease-expires-after"] > v["keys"] {
			return &ParamError{Flag: "lease-expires-after", Value: v["lease-expires-after"], Min: 1, Max: v["keys"], Bounded: true, Why: "why.lease-expires-after"}
		}
		return nil
	},
	run: runStaleEpoch,
}

func runStaleEpoch(v Values, r *Recorder) error {
	const shard = "shard-0"
	items := jobKeys(v["keys"])
	sink, cp := shardjob.NewSink(), shardjob.NewCheckpoint()
	zombie := &shardjob.Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: v["commit-every"]}
	owner := &shardjob.Runner{Sink: sink, CP: cp, Epoch: 2, CommitEvery: v["commit-every"]}

	r.Phase(Setup)
	// Run stops after lease-expires-after items: here not a crash but a
	// stall, after which the worker is still alive.
	stalled, err := zombie.Run(shard, items, v["lease-expires-after"])
	if err != nil && !errors.Is(err, shardjob.ErrInjectedCrash) {
		return err
	}
	r.Step("worker-e1", shard, M("step.run-epoch", zombie.Epoch), M("res.rerun", stalled.Applied, stalled.Suppressed), Neutral)
	r.Phase(Fault)
	r.Step("worker-e1", shard, M("step.stall", stalled.Attempts), M("res.lease-expired", stalled.Checkpoint), Bad)
	// The new owner raises the fence before any work: it commits the offset
	// it resumes from under its own epoch. Left to Run, the epoch would
	// reach the checkpoint only at the owner's first commit, and a zombie
	// commit before that would be accepted (archlab explore shardjob finds
	// that window).
	resume := cp.Load(shard)
	if err := cp.Commit(shard, owner.Epoch, resume); err != nil {
		return err
	}
	r.Step("worker-e2", "checkpoint", M("step.fence", owner.Epoch, resume), M("res.committed"), Good)
	done, err := owner.Run(shard, items, 0)
	if err != nil {
		return err
	}
	r.Step("worker-e2", shard, M("step.take-over", owner.Epoch, resume), M("res.rerun", done.Applied, done.Suppressed), Good)
	r.Step("worker-e2", "checkpoint", M("step.commit", shard, done.Checkpoint), M("res.committed"), Good)

	r.Phase(Recovery)
	zombieCommits, rejected := 0, 0
	movedBack := false
	attempt := func(offset int, action Msg) {
		before := cp.Load(shard)
		zombieCommits++
		err := cp.Commit(shard, zombie.Epoch, offset)
		if errors.Is(err, shardjob.ErrStaleEpoch) {
			rejected++
			r.Step("worker-e1", "checkpoint", action, M("res.err", "ErrStaleEpoch"), Good)
		} else {
			r.Step("worker-e1", "checkpoint", action, M("res.committed"), Bad)
		}
		movedBack = movedBack || cp.Load(shard) < before
	}
	// The zombie wakes and commits the progress it made before stalling...
	attempt(stalled.Attempts, M("step.commit", shard, stalled.Attempts))
	// ...then carries on to the end of the shard and commits that.
	attempt(len(items), M("step.commit", shard, len(items)))

	r.Phase(Verdict)
	applied, suppressed := sink.Counts()
	r.Step("reader", "sink", M("step.count-effects"), M("res.effects", applied, suppressed), Neutral)
	r.Count("zombie_epoch", zombie.Epoch)
	r.Count("owner_epoch", owner.Epoch)
	r.Count("zombie_commits", zombieCommits)
	r.Count("rejected", rejected)
	r.Count("checkpoint", cp.Load(shard))
	r.Count("applied", applied)
	r.Count("suppressed", suppressed)
	r.Check("check.stale-epoch.zombie-fenced", rejected == zombieCommits)
	r.Check("check.stale-epoch.never-back", !movedBack && cp.Load(shard) == len(items))
	r.Check("check.stale-epoch.each-key-once", applied == len(items))
	return nil
}
