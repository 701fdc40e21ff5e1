package harness

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"archlab/internal/shardjob"
)

// §11.2: keys split into shards; a worker holding a shard's lease under an
// epoch runs it through an idempotent sink, committing its checkpoint every
// few items; it may crash (and a rerun resumes from the checkpoint) or
// stall (and a new owner takes the lease under a higher epoch, while the
// stalled worker lives on as a zombie that may still commit).

// Shardjob is one §11.2 run.
type Shardjob struct {
	rec    *Recorder
	keys   int
	shards [][]string
	sink   *shardjob.Sink
	cp     Checkpoint // the book's *shardjob.Checkpoint, or the student's (exercise runner)
	watch  *Watch     // the student's Watch (exercise runner), nil for none

	maxEpoch uint64         // the highest epoch that ran or fenced: older ones are zombies
	reached  map[uint64]int // the offset each epoch's worker reached, which its zombie commits
	started  map[uint64]int // ...and the offset it started from, which a stale zombie commits
	crashed  map[string]bool
	// The invariants the explorer checks, kept after every commit.
	last           map[string]int
	movedBack      bool
	zombieCommits  int    // commits tried by an epoch older than maxEpoch
	rejected       int    // ...refused by the checkpoint (ErrStaleEpoch, ErrStaleOffset)
	zombieAccepted int    // ...accepted
	zombieMoved    int    // ...accepted and changing the checkpoint
	firstMove      [2]int // the first such commit: the offset before it, and after
	// strategy student: the student's shard loop runs instead of
	// shardjob.Runner, and fences its own takeover (student.go)
	student  bool
	students *Students
	// mechanism: the student's Runner and Checkpoint (exercise runner)
	// sit where the book's do; everything around them is the harness's.
	mechanism *ShardMechanism
}

// NewShardjob starts a §11.2 run. rec may be nil.
func NewShardjob(rec *Recorder) *Shardjob {
	return &Shardjob{rec: rec, sink: shardjob.NewSink(), cp: shardjob.NewCheckpoint(),
		reached: map[uint64]int{}, started: map[uint64]int{}, crashed: map[string]bool{}, last: map[string]int{}}
}

// JobKeys are the book's business keys: order-0 … order-(n-1).
func JobKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "order-" + strconv.Itoa(i)
	}
	return keys
}

// splits remembers each split the explorer's enumeration asked for: it
// splits the same keys once per schedule, and building the keys' names and
// hashing them was a fifth of a §11.2 schedule's time. The shards are
// read, never written (a student's Worker gets a copy). Only a run that
// records nothing (the explorer's) uses it: a recorded run, a drill file's,
// splits once, and a file pasted into archlab serve must leave nothing
// behind. A split of more than 65,536 keys is not kept either.
var splits sync.Map // [2]int{keys, shards} → [][]string

const maxKeptSplit = 1 << 16

func split(keys, shards int, keep bool) ([][]string, error) {
	if out, ok := splits.Load([2]int{keys, shards}); ok {
		return out.([][]string), nil
	}
	out, err := shardjob.Split(JobKeys(keys), shards)
	if err == nil && keep && keys <= maxKeptSplit {
		splits.Store([2]int{keys, shards}, out)
	}
	return out, err
}

// ShardName names the i-th shard.
func ShardName(i int) string { return "shard-" + strconv.Itoa(i) }

// Split splits the keys order-0 … order-(keys-1) into shards by FNV-1a.
func (s *Shardjob) Split(keys, shards int) error {
	out, err := split(keys, shards, s.rec == nil)
	if err != nil {
		return err
	}
	if applied, suppressed := s.sink.Counts(); applied+suppressed == 0 {
		s.sink = shardjob.NewSinkFor(keys) // nothing in it yet: one with room for the keys
	}
	s.keys, s.shards = keys, out
	for i, items := range out {
		s.step("splitter", ShardName(i), M("step.assign"), M(Plural("res.keys", len(items)), len(items)), Neutral)
	}
	return nil
}

// Run is one worker's run of a shard under a lease epoch, committing every
// `every` items (Runner.Run), with at most one stop and one zombie from
// §11.2's fault table (ShardFaults) around it: Stop, a row that kills the
// worker or stalls it alive right after its StopAt-th call of the row's
// kind (an Apply, a Commit, a Load); Zombie, a row whose zombie (the
// previous epoch's worker) commits at ZombieAt: right after this worker's
// first call to the checkpoint (0), before it has written anything, or
// right after its ZombieAt-th commit that moved the checkpoint; Fail, a
// row whose sink fails the worker's FailAt-th item.
type Run struct {
	Shard            string
	Epoch            uint64
	Every            int
	Stop, StopAt     int // 0: no stop
	Zombie, ZombieAt int // 0: no zombie
	Fail, FailAt     int // the sink fails the FailAt-th item; 0: no failure
	Named            bool
}

// Ran is what a run did.
type Ran struct {
	Attempts, Applied, Suppressed, Checkpoint int
	Crashed, Stalled                          bool
	From                                      int    // the checkpoint it resumed from
	Reached                                   int    // the offset its items took it to: From + Attempts, less an item it stopped at because the sink failed it
	Commits                                   int    // commits that moved the checkpoint
	Rejected                                  string // the commit the checkpoint refused, which stopped the run: ErrStaleEpoch, ErrStaleOffset, or ""
	FirstCommit                               int    // the offset of its first accepted commit, 0 when none
	ZombieError                               string // the zombie's commit during the run, refused with this ("" accepted)
	ZombieMoved                               bool   // ...moved the checkpoint
	Failed                                    int    // items the sink failed: tried, nothing applied
}

// Run runs r: the book's Runner.Run, or the student's loop, on the shard's
// checkpoint and sink with r's faults around them (workerEnv).
func (s *Shardjob) Run(r Run) (Ran, error) {
	items, err := s.items(r.Shard)
	if err != nil {
		return Ran{}, err
	}
	if s.student && (s.students == nil || s.students.Shardjob == nil) {
		return Ran{}, ErrNoStudent
	}
	actor := "worker"
	if r.Named {
		actor = "worker-e" + strconv.FormatUint(r.Epoch, 10)
	}
	if r.Epoch > s.maxEpoch {
		s.maxEpoch = r.Epoch
	}
	e := s.newWorker(r, actor)
	// A stop after an Apply is the book's own crashAfter: Runner.Run (and
	// the student's Runner) stops itself there. Any other stop is the
	// environment's: every call after it fails.
	stop := 0
	if row := ShardFaults[r.Stop]; row.Stop != NoStop && row.After == CallApply {
		stop = r.StopAt
	}
	var res shardjob.Result
	switch {
	case s.mechanism != nil:
		// The student's Runner.Run, handed the sink and the checkpoint as
		// the book's is, and stopping itself at crashAfter as the book's
		// does: that is part of what the student writes.
		s.watch.Call("r.Run")
		res, err = s.mechanism.NewRunner(e, e, r.Epoch, r.Every).Run(r.Shard, slices.Clone(items), stop)
		if err != nil && !errors.Is(err, shardjob.ErrInjectedCrash) && !e.dead && rejectedName(err) == "" {
			return Ran{}, fmt.Errorf("the student's Runner.Run: %w", err)
		}
	case s.student:
		e.stopApply = stop // the environment stops the student's loop where Run stops itself
		res, err = s.runStudent(e, items)
	default:
		runner := &shardjob.Runner{Sink: e, CP: e, Epoch: r.Epoch, CommitEvery: r.Every}
		res, err = runner.Run(r.Shard, items, stop)
	}
	stopped := errors.Is(err, shardjob.ErrInjectedCrash) || e.dead
	rejected := rejectedName(err)
	if err != nil && !stopped && rejected == "" {
		return Ran{}, err
	}
	if e.dead {
		// Killed by the environment, the loop ran on against a dead sink
		// and checkpoint until a call failed: what it did is what the
		// environment let through.
		res.Attempts, res.Applied, res.Suppressed = e.applies, e.applied, e.suppressed
	}
	stalled := stopped && ShardFaults[r.Stop].Stop == Stall
	if e.zombie != nil && (s.student || s.mechanism != nil) {
		e.fireZombie() // the student's loop made fewer commits than the zombie waited for
	}
	s.observe(r.Shard)
	reached := e.from + res.Attempts
	if e.gaveUp {
		reached-- // the item it stopped at failed: it never finished it
	}
	ran := Ran{Attempts: res.Attempts, Applied: res.Applied, Suppressed: res.Suppressed, Checkpoint: res.Checkpoint,
		From: e.from, Reached: reached, Commits: e.moves, Rejected: rejected,
		ZombieError: e.zombieErr, ZombieMoved: e.zombieMoved, FirstCommit: e.firstCommit, Failed: e.failed,
		Crashed: stopped && !stalled, Stalled: stalled}
	s.reached[r.Epoch], s.started[r.Epoch] = ran.Reached, ran.From
	if ran.Crashed {
		defer func() { s.crashed[r.Shard] = true }()
	}
	if s.rec != nil {
		s.recordRun(e, ran)
	}
	if e.zombie != nil {
		return ran, fmt.Errorf("run %s epoch %d: made %d commits, the zombie waited for commit %d", r.Shard, r.Epoch, e.moves, r.ZombieAt)
	}
	return ran, nil
}

// rejectedName is the sentinel a commit was refused with, "" for none.
func rejectedName(err error) string {
	switch {
	case errors.Is(err, shardjob.ErrStaleEpoch):
		return "ErrStaleEpoch"
	case errors.Is(err, shardjob.ErrStaleOffset):
		return "ErrStaleOffset"
	}
	return ""
}

// recordRun records a run: the run itself, then its commits, then how it
// ended.
func (s *Shardjob) recordRun(e *workerEnv, ran Ran) {
	e.open()
	step := &s.rec.Steps[e.stepAt]
	step.Result = M("res.rerun", ran.Applied, ran.Suppressed)
	said(step)
	step.Tone = toneIf(ran.From > 0 || s.crashed[e.r.Shard], Good, Neutral)
	s.flush(e.actor, e.r.Shard, &e.commits)
	// The checkpoint the crash leaves is the store's, not the run's last
	// commit: a zombie may have moved it meanwhile.
	at := s.cp.Load(e.r.Shard)
	switch row := ShardFaults[e.r.Stop]; {
	case ran.Crashed && row.After != CallApply:
		s.fault(e.actor, e.r.Shard, M(row.StepKey(), e.r.StopAt, ran.Attempts), M("res.checkpoint-at", at))
	case ran.Crashed && e.gaveUp:
		s.step(e.actor, e.r.Shard, M("step.gave-up", ran.Attempts), M("res.checkpoint-at", at), Good)
	case ran.Crashed:
		s.fault(e.actor, e.r.Shard, M("step.crash", ran.Attempts), M("res.checkpoint-at", at))
	case ran.Stalled:
		s.fault(e.actor, e.r.Shard, M("step.stall", ran.Attempts), M("res.lease-expired", ran.Checkpoint))
	case ran.Rejected != "":
		s.step(e.actor, e.r.Shard, M("step.stopped-at-rejected", ran.Attempts), M("res.returns", ran.Rejected), Good)
	}
}

// runAction is how the trace names a run: a resume, a takeover, a run
// under an epoch, a run.
func (s *Shardjob) runAction(r Run, from int) Msg {
	switch {
	case s.crashed[r.Shard] && !r.Named:
		return M("step.resume", from)
	case r.Named && r.Epoch > 1:
		return M("step.take-over", r.Epoch, from)
	case r.Named:
		return M("step.run-epoch", r.Epoch)
	}
	return M("step.run")
}

// flush records a run's commits: each one when there are few, else the
// first and the last, so the timeline stays one screen.
func (s *Shardjob) flush(actor, shard string, offsets *[]int) {
	o := *offsets
	switch {
	case len(o) == 0:
	case len(o) <= 3:
		for _, off := range o {
			s.step(actor, "checkpoint", M("step.commit", shard, off), M("res.committed"), Good)
		}
	default:
		s.step(actor, "checkpoint", M("step.commits", shard, o[0], o[len(o)-1]), M("res.commits", len(o)), Good)
	}
	*offsets = o[:0]
}

// Fence is a new owner raising the fence as it takes over, before it
// works: it commits the offset it resumes from under its own epoch, so the
// checkpoint knows the new epoch at once. Left to Run, the checkpoint
// learns it only at the owner's first commit, and a zombie's commit before
// that is accepted. The fence reads the checkpoint and writes it back under
// the new epoch with the lab's CompareAndCommit, so that a zombie's commit
// landing between the read and the write is not moved back: the write
// fails, and the fence reads again.
func (s *Shardjob) Fence(shard string, epoch uint64) error {
	if _, err := s.items(shard); err != nil {
		return err
	}
	if epoch > s.maxEpoch {
		s.maxEpoch = epoch
	}
	at, err := s.fence(shard, epoch)
	if err != nil {
		return err
	}
	s.observe(shard)
	s.step(fmt.Sprintf("worker-e%d", epoch), "checkpoint", M("step.fence", epoch, at), M("res.committed"), Good)
	return nil
}

// fence is the takeover's conditional commit; it returns the offset the
// new epoch resumes from. A student's checkpoint (exercise runner) has no
// conditional commit, the lab's addition: there the fence is a read and a
// commit, which nothing can come between, since a run of the harness is
// one goroutine and a zombie commits only where the scenario says.
func (s *Shardjob) fence(shard string, epoch uint64) (int, error) {
	cas, ok := s.cp.(interface {
		CompareAndCommit(shard string, fromEpoch uint64, fromOffset int, epoch uint64, offset int) error
	})
	if !ok {
		at := s.cp.Load(shard)
		return at, s.cp.Commit(shard, epoch, at)
	}
	for {
		at, was := s.cp.Load(shard), s.cp.Epoch(shard)
		err := cas.CompareAndCommit(shard, was, at, epoch, at)
		if !errors.Is(err, shardjob.ErrCheckpointMoved) {
			return at, err
		}
	}
}

// Commit is one commit by epoch's worker: a zombie's when a newer epoch has
// run or fenced. It reports the checkpoint's answer; a rejection is not an
// error of the run. A zombie's commit that the checkpoint accepts and that
// changes it is the harm the fence exists to prevent; one that changes
// nothing (an equal offset, idempotent) is accepted and harmless.
func (s *Shardjob) Commit(shard string, epoch uint64, offset int) error {
	return s.commitAs(shard, epoch, offset, epoch < s.maxEpoch, fmt.Sprintf("worker-e%d", epoch))
}

// commitAs is Commit by actor, a zombie's or not: the environment knows,
// whatever epoch the commit carries. A zombie that holds the current epoch
// commits under it, and the trace says so.
func (s *Shardjob) commitAs(shard string, epoch uint64, offset int, zombie bool, actor string) error {
	before, moved, err := s.commit(shard, epoch, offset, zombie)
	action := M("step.commit", shard, offset)
	current := zombie && epoch >= s.maxEpoch
	if current {
		action = M("step.commit-under", shard, offset, epoch)
	}
	step := s.step
	if zombie {
		step = s.zombieStep // in the zombie phase, wherever it falls
	}
	switch name := rejectedName(err); {
	case name != "":
		step(actor, "checkpoint", action, M("res.err", name), toneIf(zombie || name == "ErrStaleEpoch", Good, Bad))
	case err != nil:
		step(actor, "checkpoint", action, M("res.err", err), Bad)
	case current && moved:
		step(actor, "checkpoint", action, M("res.zombie-current-moved", before, offset, epoch), Harm)
	case zombie && moved:
		step(actor, "checkpoint", action, M("res.zombie-moved", before, offset, s.maxEpoch), Harm)
	case zombie:
		step(actor, "checkpoint", action, M("res.zombie-noop", s.maxEpoch), Neutral)
	default:
		s.step(actor, "checkpoint", action, M("res.committed"), Good)
	}
	return err
}

// commit is one commit on the checkpoint, counted: whether it was a
// zombie's (one of an epoch older than the newest, or one the scenario's
// zombie makes under the current epoch), and what the checkpoint made of
// it. It returns the offset before it and whether it changed the
// checkpoint.
func (s *Shardjob) commit(shard string, epoch uint64, offset int, zombie bool) (before int, moved bool, err error) {
	before, beforeEpoch := s.cp.Load(shard), s.cp.Epoch(shard)
	err = s.cp.Commit(shard, epoch, offset)
	s.observe(shard)
	moved = err == nil && (s.cp.Load(shard) != before || s.cp.Epoch(shard) != beforeEpoch)
	if zombie {
		s.zombieCommits++
		switch {
		case err != nil:
			s.rejected++
		case moved:
			if s.zombieMoved == 0 {
				s.firstMove = [2]int{before, s.cp.Load(shard)}
			}
			s.zombieAccepted++
			s.zombieMoved++
		default:
			s.zombieAccepted++
		}
	}
	return before, moved, err
}

// Count is the reader counting the sink's effects.
func (s *Shardjob) Count() {
	applied, suppressed := s.sink.Counts()
	s.step("reader", "sink", M("step.count-effects"), M("res.effects", applied, suppressed), toneIf(applied == s.keys, Neutral, Bad))
}

// ReadCheckpoint is the reader looking at a shard's checkpoint.
func (s *Shardjob) ReadCheckpoint(shard string) {
	s.step("reader", "checkpoint", M("explore.step.read-checkpoint", shard),
		M("explore.res.checkpoint", s.cp.Load(shard), s.cp.Epoch(shard)), Neutral)
}

// observe notes whether a shard's checkpoint went down.
func (s *Shardjob) observe(shard string) {
	off := s.cp.Load(shard)
	if off < s.last[shard] {
		s.movedBack = true
	}
	s.last[shard] = off
}

func (s *Shardjob) items(shard string) ([]string, error) {
	i, err := strconv.Atoi(strings.TrimPrefix(shard, "shard-"))
	switch {
	case len(s.shards) == 0:
		return nil, scenarioErr("harness.err.not-split", shard)
	case !strings.HasPrefix(shard, "shard-") || err != nil || i < 0 || i >= len(s.shards):
		return nil, scenarioErr("harness.err.no-shard", shard, len(s.shards)-1)
	}
	return s.shards[i], nil
}

func (s *Shardjob) step(actor, target string, action, result Msg, tone Tone) {
	if s.rec != nil {
		s.rec.Step(actor, target, action, result, tone)
	}
}

func (s *Shardjob) zombieStep(actor, target string, action, result Msg, tone Tone) {
	if s.rec != nil {
		s.rec.ZombieStep(actor, target, action, result, tone)
	}
}

func (s *Shardjob) fault(actor, target string, action, result Msg) {
	if s.rec != nil {
		s.rec.Fault(actor, target, action, result)
	}
}

// Applied counts the sink's effects; MovedBack, ZombieAccepted the
// invariants.
func (s *Shardjob) Applied() int        { a, _ := s.sink.Counts(); return a }
func (s *Shardjob) MovedBack() bool     { return s.movedBack }
func (s *Shardjob) ZombieAccepted() int { return s.zombieAccepted }
func (s *Shardjob) ZombieMoved() int    { return s.zombieMoved }

// ZombieMove is the first commit by which a zombie moved the checkpoint:
// from where to where.
func (s *Shardjob) ZombieMove() (from, to int, moved bool) {
	return s.firstMove[0], s.firstMove[1], s.zombieMoved > 0
}

// ShardjobSection is §11.2 as a drill file speaks it.
var ShardjobSection = Section{
	Harms: []RunHarm{{"unapplied", "exactly-once"}, {"moved_back", "never-back"}, {"zombie_moved", "zombie-never-moves"}, {"", "replay-matches"}},
	ID:    "11.2", Chapter: 11, Package: "internal/shardjob", Harness: "shardjob",
	Exercises: []string{RunnerExercise},
	Verbs: []Verb{
		{Name: "split", Args: []Arg{{Name: "keys", Kind: Number, Size: true}, {Name: "shards", Kind: Number, Size: true}}, Binds: []string{"error"}},
		{Name: "run", Args: append([]Arg{{Name: "shard", Kind: Word}, {Name: "epoch", Kind: Number, Optional: true},
			{Name: "every", Kind: Number, Optional: true}}, shardFaultArgs()...),
			Binds: []string{"attempts", "applied", "suppressed", "checkpoint", "crashed", "stalled", "from", "reached", "epoch", "error",
				"first_commit", "commits", "zombie_error", "zombie_moved", "failed"}},
		{Name: "fence", Args: []Arg{{Name: "shard", Kind: Word}, {Name: "epoch", Kind: Number}}},
		{Name: "commit", Args: []Arg{{Name: "shard", Kind: Word}, {Name: "epoch", Kind: Number}, {Name: "offset", Kind: Number}},
			Binds: []string{"accepted", "error", "checkpoint", "moved"}},
		{Name: "count"},
		{Name: "read-checkpoint", Args: []Arg{{Name: "shard", Kind: Word}}},
	},
	Observables: []Observable{
		{"keys", 0}, {"shards", 0}, {"shard_keys", 1}, {"split_size", 3}, {"checkpoint", 1}, {"epoch", 1},
		{"applied", 0}, {"suppressed", 0}, {"zombie_commits", 0}, {"rejected", 0}, {"zombie_accepted", 0}, {"zombie_moved", 0}, {"moved_back", 0},
		{"split_in_order", 0}, {"unapplied", 0},
	},
	New: func(strategy string, env Env, rec *Recorder) (Harness, error) {
		if strategy == Student {
			return NewStudentShardjob(env.Student, rec), nil
		}
		return NewShardjob(rec), nil
	},
}

// Exec runs one step of a drill file.
func (s *Shardjob) Exec(c Call) (Fields, error) {
	switch c.Verb {
	case "split":
		k, n := c.Int("keys", 0), c.Int("shards", 0)
		if k < 0 {
			return nil, errArg(c.Verb, "keys", "harness.err.at-least", 0, k)
		}
		// The book's Split refuses a shard count below 1; that is its
		// answer, bound for a check, not a failure of the run.
		if n < 1 {
			_, err := split(k, n, false)
			s.step("splitter", "shards", M("step.split", k, n), M("res.split-refused", n), Bad)
			return Fields{"error": fmt.Sprint(err)}, nil
		}
		return Fields{"error": ""}, s.Split(k, n)
	case "run":
		epoch := c.Int("epoch", 1)
		if epoch < 1 {
			return nil, errArg(c.Verb, "epoch", "harness.err.at-least", 1, epoch)
		}
		r := Run{Shard: c.Word("shard"), Epoch: uint64(epoch), Every: c.Int("every", 0), Named: c.Has("epoch")}
		if err := armedShardFaults(c, &r); err != nil {
			return nil, err
		}
		ran, err := s.Run(r)
		if err != nil {
			return nil, err
		}
		return Fields{"attempts": ran.Attempts, "applied": ran.Applied, "suppressed": ran.Suppressed, "checkpoint": ran.Checkpoint,
			"crashed": ran.Crashed, "stalled": ran.Stalled, "from": ran.From, "reached": ran.Reached, "epoch": epoch, "error": ran.Rejected,
			"first_commit": ran.FirstCommit, "commits": ran.Commits, "zombie_error": ran.ZombieError, "zombie_moved": ran.ZombieMoved,
			"failed": ran.Failed}, nil
	case "fence":
		epoch := c.Int("epoch", 1)
		if epoch < 1 {
			return nil, errArg(c.Verb, "epoch", "harness.err.at-least", 1, epoch)
		}
		return nil, s.Fence(c.Word("shard"), uint64(epoch))
	case "commit":
		if epoch := c.Int("epoch", 1); epoch < 0 {
			return nil, errArg(c.Verb, "epoch", "harness.err.at-least", 0, epoch)
		}
		if offset := c.Int("offset", 0); offset < 0 {
			return nil, errArg(c.Verb, "offset", "harness.err.at-least", 0, offset)
		}
		if _, err := s.items(c.Word("shard")); err != nil {
			return nil, err
		}
		return s.commitFields(c.Word("shard"), uint64(max(c.Int("epoch", 1), 0)), c.Int("offset", 0)), nil
	case "count":
		s.Count()
		return nil, nil
	case "read-checkpoint":
		s.ReadCheckpoint(c.Word("shard"))
		return nil, nil
	}
	return nil, fmt.Errorf("shardjob has no verb %q", c.Verb)
}

// Observe reports what counters and checks read.
func (s *Shardjob) Observe(name string, args []any) (any, error) {
	switch name {
	case "keys":
		return s.keys, nil
	case "shards":
		return len(s.shards), nil
	case "shard_keys":
		i, err := argInt(name, args, 0)
		if err != nil {
			return nil, err
		}
		if i < 0 || i >= len(s.shards) {
			return 0, nil
		}
		return len(s.shards[i]), nil
	case "split_size":
		// The size of shard i when keys are split into n shards, before
		// any split: what a parameter's bound can depend on.
		keys, err1 := argInt(name, args, 0)
		n, err2 := argInt(name, args, 1)
		i, err3 := argInt(name, args, 2)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, err
		}
		return SplitSize(keys, n, i)
	case "checkpoint", "epoch":
		shard, err := argString(name, args, 0)
		if err != nil {
			return nil, err
		}
		if name == "epoch" {
			return int(s.cp.Epoch(shard)), nil
		}
		return s.cp.Load(shard), nil
	case "applied":
		a, _ := s.sink.Counts()
		return a, nil
	case "suppressed":
		_, sup := s.sink.Counts()
		return sup, nil
	case "zombie_commits":
		return s.zombieCommits, nil
	case "rejected":
		return s.rejected, nil
	case "zombie_accepted":
		return s.zombieAccepted, nil
	case "zombie_moved":
		return s.zombieMoved, nil
	case "unapplied":
		a, _ := s.sink.Counts()
		return max(s.keys-a, 0), nil
	case "moved_back":
		return s.movedBack, nil
	case "split_in_order":
		return s.splitInOrder(), nil
	}
	return nil, fmt.Errorf("shardjob has no observable %q", name)
}

// SplitSize is the number of keys shard i gets when order-0 …
// order-(keys-1) are split into n shards.
func SplitSize(keys, n, i int) (int, error) {
	if keys < 0 || keys > 10_000_000 {
		return 0, scenarioErr("harness.err.range", "split_size", "keys", 0, 10_000_000, keys)
	}
	if n < 1 {
		return 0, errArg("split_size", "shards", "harness.err.at-least", 1, n)
	}
	if i < 0 || i >= n {
		return 0, scenarioErr("harness.err.range", "split_size", "shard", 0, n-1, i)
	}
	// Count the keys Split would put on shard i, without building them
	// all: a parameter's bound asks this before any split.
	size := 0
	for k := range keys {
		if shardjob.ShardOf("order-"+strconv.Itoa(k), n) == i {
			size++
		}
	}
	return size, nil
}

// Finish ends the run; nothing to close.
func (s *Shardjob) Finish() error { return nil }
