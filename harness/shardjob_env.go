package harness

import (
	"errors"
	"strconv"

	"archlab/internal/shardjob"
)

// workerEnv is the world one §11.2 worker's run sees: the shard's
// checkpoint and the idempotent sink, with the scenario's faults around
// them. The worker's loop is the book's Runner.Run, handed this as its CP
// and its Sink, or the student's loop through Worker's verbs; for both:
//
//   - a crash or a stall strikes right after the worker's Nth Apply, before
//     anything else it would do (the book's Run stops itself there with its
//     own crashAfter; the student's loop is stopped here: every call after
//     that Apply fails);
//   - the previous epoch's zombie commits the offset it reached at the
//     moment the scenario names (zombie-at): 0, right after the worker's
//     first call to the checkpoint, before it has written anything; j,
//     right after its jth commit that moved the checkpoint.
type workerEnv struct {
	s     *Shardjob
	r     Run
	actor string

	stop    int // die after this many applies; 0: the loop stops itself (the book's)
	applies int
	dead    bool

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
	if r.ZombieAt >= 0 {
		e.zombie = func() {
			e.open()
			s.flush(actor, r.Shard, &e.commits)
			// The zombie's answer is its own: the owner runs on.
			moved := s.zombieMoved
			err := s.Commit(r.Shard, r.Epoch-1, s.reached[r.Epoch-1])
			e.zombieErr, e.zombieMoved = rejectedName(err), s.zombieMoved > moved
		}
	}
	return e
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

// Apply is the sink's: the effect for one business key, once.
func (e *workerEnv) Apply(key string) bool {
	if e.dead {
		return false
	}
	e.applies++
	applied := e.s.sink.Apply(key)
	if e.stop > 0 && e.applies == e.stop {
		e.dead = true // right after the Nth item, before its commit
	}
	return applied
}

// Load is the checkpoint's: the committed offset, 0 when none.
func (e *workerEnv) Load(shard string) int {
	if e.dead {
		return 0
	}
	v := e.s.cp.Load(shard)
	e.noteRead(v)
	e.called()
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
		return err
	}
	_, moved, err := e.s.commit(shard, epoch, offset)
	switch name := rejectedName(err); {
	case name != "":
		e.open()
		e.s.flush(e.actor, shard, &e.commits)
		e.s.step("worker-e"+strconv.FormatUint(epoch, 10), "checkpoint", M("step.commit", shard, offset), M("res.err", name), Bad)
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
	return err
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
	return at, err
}

// stopped reports whether a student's loop ended because its worker died.
func (e *workerEnv) stopped(err error) bool {
	return e.dead || errors.Is(err, ErrCrashed)
}
