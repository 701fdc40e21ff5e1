package explore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"archlab/drills"
	"archlab/internal/shardjob"
)

// This scope asks §11.2's question of every crash: one shard of Keys items
// (order-0 …) is worked by a Runner under lease epoch 1 that commits its
// checkpoint every C items and crashes after K items (K = 0: no crash). A
// new owner takes the lease under epoch 2 and reruns the shard from the
// checkpoint. The crashed worker is not dead but a zombie: it wakes and
// commits the progress it made, K, at one step of the new owner's run
// (before its first commit, or after its j-th). Every K in 0..Keys, every C
// in 1..Keys and every zombie step is a schedule. Invariants: the sink
// applies every key exactly once; the rerun replays exactly K minus the
// checkpoint; the checkpoint never moves back; every zombie commit is
// rejected with ErrStaleEpoch.
//
// Two ways to take over run each schedule on internal/shardjob:
// fence-at-takeover commits the new epoch at the resume offset before
// working (Checkpoint.Commit allows a higher epoch any offset for exactly
// this), fence-at-first-commit just calls Runner.Run, so the checkpoint only
// learns the new epoch at the owner's first commit. The zombie step before
// that commit is the window the enumeration finds.

// ShardjobScope bounds the §11.2 exploration.
type ShardjobScope struct {
	Keys int // items in the shard
}

// DefaultShardjob is the scope `archlab explore shardjob` explores by
// default.
var DefaultShardjob = ShardjobScope{Keys: 30}

// Bounds of the shardjob scope: keys up to MaxShardjobKeys when sampling;
// enumeration stops at ShardjobEnumerateLimit schedules (about 220 keys),
// because each schedule runs the whole shard.
const (
	MaxShardjobKeys               = 10_000
	ShardjobEnumerateLimit uint64 = 250_000
)

var shardjobInvariants = []string{"not-exactly-once", "replay-mismatch", "moved-back", "zombie-accepted"}

const (
	brokeNotOnce uint8 = 1 << iota
	brokeReplay
	brokeCheckpointBack
	brokeZombie
)

const (
	fenceAtTakeover = iota
	fenceAtFirstCommit
)

var shardjobStrategies = []struct {
	name string
	safe bool
}{
	{"fence-at-takeover", true},
	{"fence-at-first-commit", false},
}

const shardName = "shard-0"

// shardSchedule is one commit interval, crash point and zombie step.
type shardSchedule struct {
	c, k, z int32
}

// String is the schedule's canonical one-line form.
func (s *shardSchedule) String() string {
	if s.k == 0 {
		return fmt.Sprintf("commit-every=%d no-crash", s.c)
	}
	return fmt.Sprintf("commit-every=%d crash-after=%d zombie-after-commit=%d", s.c, s.k, s.z)
}

// resumeAt is where a rerun after a crash at k resumes and how many commits
// it makes: Run dies after the k-th item, before that item's commit, so the
// checkpoint is the last multiple of c below k.
func resumeAt(n, c, k int) (checkpoint, commits int) {
	checkpoint = (k - 1) / c * c
	return checkpoint, (n - checkpoint + c - 1) / c
}

type shardSpace struct {
	n     int
	items []string
	perC  []uint64  // schedules per commit interval, index c
	wC    []float64 // the same, for sample
}

func newShardSpace(sc ShardjobScope) *shardSpace {
	sp := &shardSpace{n: sc.Keys, items: make([]string, sc.Keys), perC: make([]uint64, sc.Keys+1), wC: make([]float64, sc.Keys+1)}
	for i := range sp.items {
		sp.items[i] = fmt.Sprintf("order-%d", i)
	}
	for c := 1; c <= sp.n; c++ {
		total := uint64(1) // no crash
		// Crash points share a checkpoint in blocks of c.
		for cp := 0; cp < sp.n; cp += c {
			_, j := resumeAt(sp.n, c, cp+1)
			total += uint64(min(c, sp.n-cp)) * uint64(j+1)
		}
		sp.perC[c], sp.wC[c] = total, float64(total)
	}
	return sp
}

func (sp *shardSpace) size() uint64 {
	var total uint64
	for _, n := range sp.perC {
		total = addSat(total, n)
	}
	return total
}

// each enumerates by commit interval, then crash point, then zombie step.
func (sp *shardSpace) each(yield func(shardSchedule) bool) {
	for c := 1; c <= sp.n; c++ {
		if !yield(shardSchedule{c: int32(c)}) {
			return
		}
		for k := 1; k <= sp.n; k++ {
			_, j := resumeAt(sp.n, c, k)
			for z := 0; z <= j; z++ {
				if !yield(shardSchedule{c: int32(c), k: int32(k), z: int32(z)}) {
					return
				}
			}
		}
	}
}

// sample draws c weighted by its schedules, then one of them uniformly.
func (sp *shardSpace) sample(r *rand.Rand) shardSchedule {
	c := pick(r, sp.wC)
	u := r.Uint64N(sp.perC[c])
	if u == 0 {
		return shardSchedule{c: int32(c)}
	}
	u--
	for cp := 0; ; cp += c {
		_, j := resumeAt(sp.n, c, cp+1)
		block := uint64(min(c, sp.n-cp)) * uint64(j+1)
		if u < block {
			return shardSchedule{c: int32(c), k: int32(cp + 1 + int(u)/(j+1)), z: int32(int(u) % (j + 1))}
		}
		u -= block
	}
}

// ReplayPoint is one commit interval's cost, measured on fence-at-takeover:
// the commits of a run without a crash, and the items a rerun replays after
// a crash at each K (for the zombie's first step only, so each crash counts
// once).
type ReplayPoint struct {
	CommitEvery int
	Commits     int    // commits of a clean run; -1 when a sample missed it
	Crashes     uint64 // crash points measured
	ReplaySum   uint64
	ReplayMax   int
}

// ExploreShardjob runs every (commit interval, crash point, zombie step) of
// the scope, or a sample, against both ways to take over a shard.
func ExploreShardjob(ctx context.Context, sc ShardjobScope, o Options) (*Report, error) {
	if err := checkParam("keys", sc.Keys, 1, MaxShardjobKeys); err != nil {
		return nil, err
	}
	sp := newShardSpace(sc)
	if err := checkSize(o, sp.size(), ShardjobEnumerateLimit); err != nil {
		return nil, err
	}
	t, n, err := walk(ctx, sp, sp.size(), o, func() *shardTally { return newShardTally(sp) })
	if err != nil {
		return nil, err
	}
	rep := &Report{Mechanism: "shardjob", Section: "11.2", Sampled: o.Samples > 0, Seed: o.Seed,
		Scope: []Param{{"keys", sc.Keys}}, Space: sp.size(), Schedules: n, Replay: t.replay[1:]}
	for k, st := range shardjobStrategies {
		rep.Strategies = append(rep.Strategies, strategyResult(st.name, st.safe, shardjobInvariants, n, rep.Sampled, &t.st[k],
			func(s *shardSchedule) string { return s.String() + " ⇒ " + sp.outcome(k, s) },
			func(s *shardSchedule, r *drills.Recorder) error { _, err := sp.run(k, s, r); return err }))
	}
	return rep, nil
}

type shardTally struct {
	sp     *shardSpace
	st     [2]strategyTally[shardSchedule]
	replay []ReplayPoint // index c
}

func newShardTally(sp *shardSpace) *shardTally {
	t := &shardTally{sp: sp, replay: make([]ReplayPoint, sp.n+1)}
	for c := range t.replay {
		t.replay[c] = ReplayPoint{CommitEvery: c, Commits: -1}
	}
	return t
}

func (t *shardTally) add(index uint64, s *shardSchedule) error {
	for k := range t.st {
		res, err := t.sp.run(k, s, nil)
		if err != nil {
			return err
		}
		t.st[k].record(int(s.k+s.z), index, s, res.broken)
		if k != fenceAtTakeover {
			continue
		}
		p := &t.replay[s.c]
		switch {
		case s.k == 0:
			p.Commits = res.commits
		case s.z == 0:
			p.Crashes++
			p.ReplaySum += uint64(res.replay)
			p.ReplayMax = max(p.ReplayMax, res.replay)
		}
	}
	return nil
}

func (t *shardTally) merge(o *shardTally) {
	for k := range t.st {
		t.st[k].merge(&o.st[k])
	}
	for c := range t.replay {
		p, op := &t.replay[c], o.replay[c]
		p.Commits = max(p.Commits, op.Commits)
		p.Crashes += op.Crashes
		p.ReplaySum += op.ReplaySum
		p.ReplayMax = max(p.ReplayMax, op.ReplayMax)
	}
}

// shardResult is what one run observed.
type shardResult struct {
	broken     uint8
	replay     int // items the rerun found already applied
	checkpoint int // the checkpoint when the worker crashed
	commits    int // the first worker's commits
	zombie     error
	applied    int
}

// outcome is the end of a counterexample in one line.
func (sp *shardSpace) outcome(strategy int, s *shardSchedule) string {
	res, err := sp.run(strategy, s, nil)
	if err != nil {
		return err.Error()
	}
	var parts []string
	if res.broken&brokeZombie != 0 {
		verdict := "accepted"
		if res.zombie != nil {
			verdict = res.zombie.Error()
		}
		parts = append(parts, fmt.Sprintf("zombie commit %d %s", s.k, verdict))
	}
	if res.broken&brokeReplay != 0 {
		parts = append(parts, fmt.Sprintf("replayed %d, not %d−%d", res.replay, s.k, res.checkpoint))
	}
	if res.broken&brokeCheckpointBack != 0 {
		parts = append(parts, "checkpoint moved back")
	}
	if res.broken&brokeNotOnce != 0 {
		parts = append(parts, fmt.Sprintf("applied %d of %d keys", res.applied, sp.n))
	}
	if len(parts) == 0 {
		return "ok"
	}
	return strings.Join(parts, ", ")
}

// run plays one schedule on a fresh sink and checkpoint store, checking the
// checkpoint after every commit and every zombie attempt.
func (sp *shardSpace) run(strategy int, s *shardSchedule, rec *drills.Recorder) (shardResult, error) {
	var res shardResult
	c, k, z := int(s.c), int(s.k), int(s.z)
	sink, cp := shardjob.NewSink(), shardjob.NewCheckpoint()
	last := 0
	observe := func() {
		off := cp.Load(shardName)
		if off < last {
			res.broken |= brokeCheckpointBack
		}
		last = off
	}
	// Commits are recorded in runs: each one when there are few, else the
	// first and the last, as the crash-resume drill does.
	var commits []int
	flush := func(actor string) {
		if rec == nil || len(commits) == 0 {
			return
		}
		if len(commits) <= 3 {
			for _, o := range commits {
				rec.Step(actor, "checkpoint", drills.M("step.commit", shardName, o), drills.M("res.committed"), drills.Good)
			}
		} else {
			rec.Step(actor, "checkpoint", drills.M("step.commits", shardName, commits[0], commits[len(commits)-1]),
				drills.M("res.commits", len(commits)), drills.Good)
		}
		commits = commits[:0]
	}

	worker := &shardjob.Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: c, OnCommit: func(offset int) {
		res.commits++
		observe()
		if rec != nil {
			commits = append(commits, offset)
		}
	}}
	if rec != nil {
		rec.Phase(drills.Setup)
	}
	first, err := worker.Run(shardName, sp.items, k)
	crashed := errors.Is(err, shardjob.ErrInjectedCrash)
	if err != nil && !crashed || crashed != (k > 0) {
		return res, fmt.Errorf("explore: %s: first run: %v", s, err)
	}
	res.checkpoint = first.Checkpoint
	if rec != nil {
		rec.Step("worker-e1", shardName, drills.M("step.run-epoch", worker.Epoch), drills.M("res.rerun", first.Applied, first.Suppressed), drills.Neutral)
		flush("worker-e1")
	}
	if crashed {
		if rec != nil {
			rec.Phase(drills.Fault)
			rec.Step("worker-e1", shardName, drills.M("step.crash", first.Attempts), drills.M("res.checkpoint-at", first.Checkpoint), drills.Bad)
			rec.Phase(drills.Recovery)
		}
		owner := &shardjob.Runner{Sink: sink, CP: cp, Epoch: 2, CommitEvery: c}
		if strategy == fenceAtTakeover {
			// The new owner raises the fence before it works: the
			// checkpoint learns epoch 2 now, at the offset it resumes
			// from.
			at := cp.Load(shardName)
			if err := cp.Commit(shardName, owner.Epoch, at); err != nil {
				return res, fmt.Errorf("explore: %s: take-over commit: %w", s, err)
			}
			observe()
			if rec != nil {
				rec.Step("worker-e2", "checkpoint", drills.M("explore.step.fence", shardName, at, owner.Epoch), drills.M("res.committed"), drills.Good)
			}
		}
		zombieDone := false
		zombie := func() {
			zombieDone = true
			flush("worker-e2")
			err := cp.Commit(shardName, worker.Epoch, k)
			observe()
			if !errors.Is(err, shardjob.ErrStaleEpoch) {
				res.broken |= brokeZombie
				res.zombie = err
			}
			if rec != nil {
				if errors.Is(err, shardjob.ErrStaleEpoch) {
					rec.Step("worker-e1", "checkpoint", drills.M("step.commit", shardName, k), drills.M("res.err", "ErrStaleEpoch"), drills.Good)
				} else {
					result := drills.M("res.committed")
					if err != nil {
						result = drills.M("res.err", err)
					}
					rec.Step("worker-e1", "checkpoint", drills.M("step.commit", shardName, k), result, drills.Bad)
				}
			}
		}
		ownerCommits := 0
		owner.OnCommit = func(offset int) {
			ownerCommits++
			observe()
			if rec != nil {
				commits = append(commits, offset)
			}
			if ownerCommits == z {
				zombie()
			}
		}
		if rec != nil {
			rec.Step("worker-e2", shardName, drills.M("step.take-over", owner.Epoch, cp.Load(shardName)), drills.M("explore.res.lease-taken"), drills.Neutral)
		}
		if z == 0 {
			zombie()
		}
		rerun, err := owner.Run(shardName, sp.items, 0)
		if err != nil {
			return res, fmt.Errorf("explore: %s: rerun: %w", s, err)
		}
		if !zombieDone {
			return res, fmt.Errorf("explore: %s: the owner made %d commits, the zombie waited for commit %d", s, ownerCommits, z)
		}
		flush("worker-e2")
		res.replay = rerun.Suppressed
		if rec != nil {
			rec.Step("worker-e2", shardName, drills.M("explore.step.finish"), drills.M("res.rerun", rerun.Applied, rerun.Suppressed), drills.Good)
		}
	}
	if res.replay != k-res.checkpoint && crashed {
		res.broken |= brokeReplay
	}
	observe()
	applied, suppressed := sink.Counts()
	res.applied = applied
	if applied != sp.n {
		res.broken |= brokeNotOnce
	}
	if rec != nil {
		rec.Phase(drills.Verdict)
		tone := drills.Good
		if applied != sp.n {
			tone = drills.Bad
		}
		rec.Step("reader", "sink", drills.M("step.count-effects"), drills.M("res.effects", applied, suppressed), tone)
		if crashed {
			tone = drills.Good
			if res.broken&brokeReplay != 0 {
				tone = drills.Bad
			}
			rec.Step("reader", "sink", drills.M("explore.step.replay-check", k, res.checkpoint), drills.M("explore.res.replayed", res.replay), tone)
		}
		rec.Step("reader", "checkpoint", drills.M("explore.step.read-checkpoint", shardName),
			drills.M("explore.res.checkpoint", cp.Load(shardName), cp.Epoch(shardName)), drills.Neutral)
	}
	return res, nil
}
