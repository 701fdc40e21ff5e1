package harness

import (
	"errors"
	"slices"
	"strconv"

	"archlab/internal/shardjob"
)

// workerEnv is the world one §11.2 worker's run sees: the shard's
// checkpoint and the idempotent sink, with the run's rows of §11.2's fault
// table (ShardFaults) around them. The worker's loop is the book's
// Runner.Run, handed this as its CP and its Sink, or the student's loop
// through Worker's verbs; for both:
//
//   - a stop strikes right after the worker's Nth call of its row's kind,
//     before anything else it would do: after an Apply, the book's Run
//     stops itself with its own crashAfter (the student's loop is stopped
//     here); after a Load or a Commit (a Fence is one), the environment
//     stops either loop; from then on every call fails;
//   - the previous epoch's zombie commits the offset its row names at the
//     moment the scenario names (zombie-at and its kin): 0, right after the
//     worker's first call to the checkpoint, before it has written
//     anything; j, right after its jth commit that moved the checkpoint.
type workerEnv struct {
	s     *Shardjob
	r     Run
	actor string

	stopApply  int       // die after this many applies; 0: the loop stops itself (the book's)
	failApply  int       // the sink fails this apply; 0: none
	failed     int       // applies the sink failed
	failedKey  string    // ...the first, until a commit covers it
	gaveUp     bool      // the student's loop stopped at the sink's failure
	stopAfter  ShardCall // the environment's stop after another call: "" none
	applies    int
	applied    int // ...that the sink applied, and that it suppressed
	suppressed int
	loads      int
	writes     int // commits and fences
	dead       bool

	calls   int  // the worker's calls to the checkpoint
	moves   int  // its commits that moved the checkpoint
	from    int  // what its first read of the checkpoint returned
	read    bool // it has read the checkpoint
	zombie  func()
	commits []int // moving commits not yet recorded
	opened  bool  // the run's own step is in the trace
	stepAt  int   // ...at this index

	firstCommit int // the offset of the worker's first accepted commit

	zombieErr   string // what the checkpoint said to the zombie's commit
	zombieMoved bool   // ...and whether it moved the checkpoint
}

// open records the run's own step, once, before anything the run makes
// the trace show; recordRun fills in what it came to.
func (e *workerEnv) open() {
	if e.opened || e.s.rec == nil {
		return
	}
	e.opened, e.stepAt = true, len(e.s.rec.Steps)
	e.s.step(e.actor, e.r.Shard, e.s.runAction(e.r, e.from), M("res.rerun", 0, 0), Neutral)
}

var (
	_ shardjob.Effects  = (*workerEnv)(nil)
	_ shardjob.Progress = (*workerEnv)(nil)
)

// newWorker sets up r's run: its zombie, when r has one.
func (s *Shardjob) newWorker(r Run, actor string) *workerEnv {
	e := &workerEnv{s: s, r: r, actor: actor, from: s.cp.Load(r.Shard)}
	if row := ShardFaults[r.Stop]; row.Stop != NoStop && row.After != CallApply {
		e.stopAfter = row.After
	}
	if ShardFaults[r.Fail].Fails {
		e.failApply = r.FailAt
	}
	if row := ShardFaults[r.Zombie]; row.Zombie != NoZombie && r.ZombieAt >= 0 {
		e.zombie = func() {
			e.open()
			s.flush(actor, r.Shard, &e.commits)
			// The zombie's answer is its own: the owner runs on. A zombie
			// in the current epoch commits under the owner's epoch, as
			// the worker that held the one before.
			moved := s.zombieMoved
			was := r.Epoch - 1
			epoch := was
			if row.Current {
				epoch = r.Epoch
			}
			err := s.commitAs(r.Shard, epoch, s.zombieOffset(row.Zombie, r), true, "worker-e"+strconv.FormatUint(was, 10))
			e.zombieErr, e.zombieMoved = rejectedName(err), s.zombieMoved > moved
		}
	}
	return e
}

// zombieOffset is what the previous epoch's zombie commits during r: the
// offset it reached, one past it (an item it handed out and never
// finished; no further than the shard's end), or the one its run started
// from.
func (s *Shardjob) zombieOffset(z ZombieOffset, r Run) int {
	was := r.Epoch - 1
	switch z {
	case ZombieAhead:
		items, _ := s.items(r.Shard)
		return min(s.reached[was]+1, len(items))
	case ZombieStale:
		return s.started[was]
	}
	return s.reached[was]
}

// struck is the worker having returned from a call of kind, its nth: a
// stop of the environment's strikes now.
func (e *workerEnv) struck(kind ShardCall, n int) {
	if e.stopAfter == kind && n == e.r.StopAt {
		e.dead = true
	}
}

func (e *workerEnv) fireZombie() {
	if z := e.zombie; z != nil {
		e.zombie = nil
		z()
	}
}

// called is the worker having made a call to the checkpoint: the moment a
// zombie may wake.
func (e *workerEnv) called() {
	e.calls++
	if (e.r.ZombieAt == 0 && e.calls == 1) || (e.r.ZombieAt > 0 && e.moves == e.r.ZombieAt) {
		e.fireZombie()
	}
}

// Apply is the sink's: the effect for one business key, once. The book's
// Effects has no error: an item the sink fails is false, as a suppressed
// one is.
func (e *workerEnv) Apply(key string) bool {
	applied, _ := e.apply(key)
	return applied
}

// apply is Apply with the sink's failure said: ErrSinkFailed for the item
// the scenario's sink fails, with nothing applied.
func (e *workerEnv) apply(key string) (bool, error) {
	if e.dead {
		return false, ErrCrashed
	}
	e.applies++
	if e.applies == e.failApply {
		e.failed++
		e.failedKey = key
		e.open()
		e.s.flush(e.actor, e.r.Shard, &e.commits)
		e.s.fault(e.actor, "sink", M(ShardFaults[e.r.Fail].StepKey(), e.applies, key), M("res.sink-failed"))
		e.stopAfterApply()
		return false, ErrSinkFailed
	}
	applied := e.s.sink.Apply(key)
	if applied {
		e.applied++
	} else {
		e.suppressed++
	}
	e.stopAfterApply()
	return applied, nil
}

func (e *workerEnv) stopAfterApply() {
	if e.stopApply > 0 && e.applies == e.stopApply {
		e.dead = true // right after the Nth item, before its commit
	}
}

// Load is the checkpoint's: the committed offset, 0 when none.
func (e *workerEnv) Load(shard string) int {
	if e.dead {
		return 0
	}
	v := e.s.cp.Load(shard)
	e.noteRead(v)
	e.called()
	e.loads++
	e.struck(CallLoad, e.loads)
	return v
}

func (e *workerEnv) noteRead(v int) {
	if !e.read {
		e.read, e.from = true, v
	}
}

// Commit is the checkpoint's, as the worker's epoch commits it; a commit
// that moves the checkpoint is recorded with the run.
func (e *workerEnv) Commit(shard string, epoch uint64, offset int) error {
	if e.dead {
		return ErrCrashed
	}
	if epoch < e.s.maxEpoch {
		// A zombie's own loop: each of its commits is the zombie's act.
		e.open()
		e.s.flush(e.actor, shard, &e.commits)
		err := e.s.Commit(shard, epoch, offset)
		e.called()
		e.wrote()
		return err
	}
	_, moved, err := e.s.commit(shard, epoch, offset, false)
	switch name := rejectedName(err); {
	case name != "":
		e.open()
		e.s.flush(e.actor, shard, &e.commits)
		e.s.step("worker-e"+strconv.FormatUint(epoch, 10), "checkpoint", M("step.commit", shard, offset), M("res.err", name), Bad)
	case moved && e.covers(offset):
		// The harm of a failed item: the commit that claims it.
		e.moves++
		e.open()
		e.s.flush(e.actor, shard, &e.commits)
		e.s.step(e.actor, "checkpoint", M("step.commit", shard, offset), M("res.covers-failed", e.failedKey), Harm)
		e.failedKey = ""
	case moved:
		e.moves++
		if e.s.rec != nil {
			e.commits = append(e.commits, offset)
		}
	}
	if err == nil && e.firstCommit == 0 {
		e.firstCommit = offset
	}
	e.called()
	e.wrote()
	return err
}

// covers reports whether a commit of offset claims the item the sink
// failed: its place in the shard is below the offset.
func (e *workerEnv) covers(offset int) bool {
	if e.failedKey == "" || e.s.rec == nil {
		return false
	}
	items, _ := e.s.items(e.r.Shard)
	i := slices.Index(items, e.failedKey)
	return i >= 0 && i < offset
}

// wrote is the worker having returned from a write of the checkpoint.
func (e *workerEnv) wrote() {
	e.writes++
	e.struck(CallCommit, e.writes)
}

// Fence is the worker's takeover: the checkpoint's offset committed under
// its own epoch in one step (the lab's conditional commit), returned as
// the offset to resume from.
func (e *workerEnv) Fence(shard string, epoch uint64) (int, error) {
	if e.dead {
		return 0, ErrCrashed
	}
	at, err := e.s.fence(shard, epoch)
	e.open()
	switch name := rejectedName(err); {
	case err == nil:
		e.s.observe(shard)
		e.noteRead(at)
		e.s.step(e.actor, "checkpoint", M("step.fence", epoch, at), M("res.committed"), Good)
	case name != "":
		if epoch < e.s.maxEpoch { // a zombie's fence: refused, as its commits are
			e.s.zombieCommits++
			e.s.rejected++
		}
		e.s.step(e.actor, "checkpoint", M("step.fence", epoch, at), M("res.err", name), Good)
	}
	e.called()
	e.wrote()
	return at, err
}

// stopped reports whether a student's loop ended because its worker died.
func (e *workerEnv) stopped(err error) bool {
	return e.dead || errors.Is(err, ErrCrashed)
}
