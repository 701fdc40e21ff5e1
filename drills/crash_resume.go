package drills

import (
	"errors"
	"fmt"

	"archlab/internal/shardjob"
)

// This drill demonstrates an idempotent rerun from a checkpoint. The keys
// order-0 … order-999 are split into 4 shards by FNV-1a. Every shard runs,
// committing its offset every 10 items; shard 0 crashes after its 37th item,
// when its checkpoint says 30. The rerun resumes from 30 and replays items
// 30…36, which the sink recognises by business key and suppresses. Lesson:
// every key is applied exactly once, and the replay costs exactly the items
// between the last checkpoint and the crash.
var crashResume = Drill{
	Name:    "crash-resume",
	Section: "11.2",
	Params: []Param{
		{Name: "keys", Default: 1000, Min: 1, Max: 1_000_000},
		{Name: "shards", Default: 4, Min: 1, Max: 1000},
		{Name: "commit-every", Default: 10, Min: 1, Max: 1_000_000},
		{Name: "crash-after", Default: 37, Min: 0},
	},
	Book: append(book(
		"shard=0 keys", "250", "shard=1 keys", "250", "shard=2 keys", "250", "shard=3 keys", "250"),
		book("shard0", "250", "crash_attempts", "37", "checkpoint", "30", "replay", "7", "applied", "1000", "suppressed", "7")...),
	Validate: validateCrashResume,
	run:      runCrashResume,
}

// jobKeys are the book's business keys: order-0 … order-(n-1).
func jobKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("order-%d", i)
	}
	return keys
}

// validateCrashResume keeps the crash inside shard 0, the shard that
// crashes.
func validateCrashResume(v Values) error {
	shards, err := shardjob.Split(jobKeys(v["keys"]), v["shards"])
	if err != nil {
		return err
	}
	if n := len(shards[0]); v["crash-after"] > n {
		return &ParamError{Flag: "crash-after", Value: v["crash-after"], Min: 0, Max: n, Bounded: true, Why: "why.crash-after"}
	}
	return nil
}

func runCrashResume(v Values, r *Recorder) error {
	keys := jobKeys(v["keys"])
	shards, err := shardjob.Split(keys, v["shards"])
	if err != nil {
		return err
	}
	sink, cp := shardjob.NewSink(), shardjob.NewCheckpoint()
	r.Phase(Setup)
	for i, items := range shards {
		r.Step("splitter", shardName(i), M("step.assign"), M("res.keys", len(items)), Neutral)
	}
	// Shard 0 runs first and crashes after crash-after items.
	var commits []int
	runner := &shardjob.Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: v["commit-every"],
		OnCommit: func(offset int) { commits = append(commits, offset) }}
	first, err := runner.Run(shardName(0), shards[0], v["crash-after"])
	crashed := errors.Is(err, shardjob.ErrInjectedCrash)
	if err != nil && !crashed {
		return err
	}
	recordCommits(r, shardName(0), commits)
	crashAttempts, replayed := 0, 0
	if crashed {
		crashAttempts = first.Attempts
		r.Phase(Fault)
		r.Step("worker", shardName(0), M("step.crash", first.Attempts), M("res.checkpoint-at", first.Checkpoint), Bad)
		r.Phase(Recovery)
		commits = nil
		rerun, err := runner.Run(shardName(0), shards[0], 0)
		if err != nil {
			return err
		}
		replayed = rerun.Suppressed
		r.Step("worker", shardName(0), M("step.resume", first.Checkpoint), M("res.rerun", rerun.Applied, rerun.Suppressed), Good)
		recordCommits(r, shardName(0), commits)
	}
	for i := 1; i < len(shards); i++ {
		res, err := runner.Run(shardName(i), shards[i], 0)
		if err != nil {
			return err
		}
		r.Step("worker", shardName(i), M("step.run"), M("res.rerun", res.Applied, res.Suppressed), Good)
	}
	r.Phase(Verdict)
	applied, suppressed := sink.Counts()
	r.Step("reader", "sink", M("step.count-effects"), M("res.effects", applied, suppressed), Neutral)
	for i, items := range shards {
		r.Count(fmt.Sprintf("shard=%d keys", i), len(items))
	}
	r.Count("shard0", len(shards[0]))
	r.Count("crash_attempts", crashAttempts)
	r.Count("checkpoint", first.Checkpoint)
	r.Count("replay", replayed)
	r.Count("applied", applied)
	r.Count("suppressed", suppressed)
	r.Check("check.crash-resume.each-key-once", applied == len(keys))
	r.Check("check.crash-resume.suppressed-is-replay", suppressed == replayed)
	r.Check("check.crash-resume.replay-since-checkpoint", !crashed || replayed == crashAttempts-first.Checkpoint)
	return nil
}

func shardName(i int) string { return fmt.Sprintf("shard-%d", i) }

// recordCommits records the checkpoints of one run: each one when there are
// few, else the first and the last, so the timeline stays one screen.
func recordCommits(r *Recorder, shard string, offsets []int) {
	if len(offsets) <= 3 {
		for _, o := range offsets {
			r.Step("worker", "checkpoint", M("step.commit", shard, o), M("res.committed"), Good)
		}
		return
	}
	r.Step("worker", "checkpoint", M("step.commits", shard, offsets[0], offsets[len(offsets)-1]), M("res.commits", len(offsets)), Good)
}
