package harness

import (
	"fmt"
	"sync"
	"time"

	"archlab/internal/inbox"
	"archlab/internal/ordering"
	"archlab/internal/shardjob"
)

// Watch follows a student's run from outside: what the checker is running
// (a drill, a schedule) and the last verb the student's code called. Go
// cannot stop a goroutine, so a student's loop that never returns is ended
// by killing its process (archlab check runs each exercise in a child);
// before it dies, the child reads its Watch to say where the code hung.
// A nil *Watch records nothing, so runs that need none pay nothing.
type Watch struct {
	mu    sync.Mutex
	where fmt.Stringer
	verb  string
	// Tell, when set, hears Racing at once. Two calls made at once may
	// crash the process before any result is sent (a Go map written from
	// two goroutines is a fatal error no recover catches); the child sends
	// what Tell hears to the parent first, so the report can still name
	// the two calls.
	Tell func(race string)
	// A race's rounds, while one runs: when its current round began and
	// how long its longest round took (Round).
	racing    bool
	roundFrom time.Time
	longest   time.Duration
}

// Round records that a race finished a round and begins the next.
func (w *Watch) Round() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.longest = max(w.longest, time.Since(w.roundFrom))
	w.roundFrom = time.Now()
}

// RaceRound is the race running now, if any: how long its current round
// has taken so far and its longest round.
func (w *Watch) RaceRound() (racing bool, current, longest time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.racing, time.Since(w.roundFrom), w.longest
}

// Racing records the calls about to run at once ("" when they are done),
// and tells Tell.
func (w *Watch) Racing(race string) {
	if w == nil {
		return
	}
	w.At(Name(race))
	w.mu.Lock()
	w.racing, w.roundFrom, w.longest = race != "", time.Now(), 0
	w.mu.Unlock()
	if w.Tell != nil {
		w.Tell(race)
	}
}

// At records what runs now: a drill's name or a schedule. A schedule is
// kept as a Stringer, not a string, and read only if the run hangs.
func (w *Watch) At(where fmt.Stringer) {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.where, w.verb = where, ""
	w.mu.Unlock()
}

// Call records a verb the student's code calls, as the code writes it
// ("w.Apply").
func (w *Watch) Call(verb string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.verb = verb
	w.mu.Unlock()
}

// Last is what ran and the last verb called ("" when none yet).
func (w *Watch) Last() (where, verb string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.where != nil {
		where = w.where.String()
	}
	return where, w.verb
}

// Name is a fixed place, such as a drill, as a Stringer for At.
type Name string

func (n Name) String() string { return string(n) }

// watch is the Students' Watch, nil-safe on nil Students.
func (s *Students) watch() *Watch {
	if s == nil {
		return nil
	}
	return s.Watch
}

// The mechanism exercises' types are called by the book's functions and
// the harness, not through verbs: these wrappers tell the Watch of each
// call. They wrap only where a Watch is set (a checked child), so that
// every other run meets the student's type as it is.

type watchedProjection struct {
	StudentProjection
	w *Watch
}

func (p watchedProjection) Apply(e ordering.Event) (bool, error) {
	p.w.Call("p.Apply")
	return p.StudentProjection.Apply(e)
}

func (p watchedProjection) Get(orderID string) (ordering.OrderState, bool) {
	p.w.Call("p.Get")
	return p.StudentProjection.Get(orderID)
}

func (p watchedProjection) Repair(orderID string, st ordering.OrderState) {
	p.w.Call("p.Repair")
	p.StudentProjection.Repair(orderID, st)
}

func (p watchedProjection) AppliedCount() int {
	p.w.Call("p.AppliedCount")
	return p.StudentProjection.AppliedCount()
}

type watchedConsumer struct {
	StudentConsumer
	w *Watch
}

func (c watchedConsumer) Handle(e ordering.Event, attempt int) ordering.Outcome {
	c.w.Call("c.Handle")
	return c.StudentConsumer.Handle(e, attempt)
}

type watchedCheckpoint struct {
	Checkpoint
	w *Watch
}

func (c watchedCheckpoint) Load(shard string) int {
	c.w.Call("cp.Load")
	return c.Checkpoint.Load(shard)
}

func (c watchedCheckpoint) Commit(shard string, epoch uint64, offset int) error {
	c.w.Call("cp.Commit")
	return c.Checkpoint.Commit(shard, epoch, offset)
}

func (c watchedCheckpoint) Epoch(shard string) uint64 {
	c.w.Call("cp.Epoch")
	return c.Checkpoint.Epoch(shard)
}

type watchedLedger struct {
	Ledger
	w *Watch
}

func (l watchedLedger) ApplyOnce(m inbox.Message) (bool, error) {
	l.w.Call("l.ApplyOnce")
	return l.Ledger.ApplyOnce(m)
}

func (l watchedLedger) Prune(maxSeq int64) int {
	l.w.Call("l.Prune")
	return l.Ledger.Prune(maxSeq)
}

func (l watchedLedger) Balance(orderID string) int64 {
	l.w.Call("l.Balance")
	return l.Ledger.Balance(orderID)
}

func (l watchedLedger) Applies() int {
	l.w.Call("l.Applies")
	return l.Ledger.Applies()
}

type watchedRunner struct {
	ShardRunner
	w *Watch
}

func (r watchedRunner) Run(shard string, items []string, crashAfter int) (shardjob.Result, error) {
	r.w.Call("r.Run")
	return r.ShardRunner.Run(shard, items, crashAfter)
}

// Watched is s with its mechanisms' values wrapped so that each call
// tells the Watch: the checker calls them directly (the book's unit
// tests, the model), not through the harness's verbs, and a hang there
// should name its last call too. Without a Watch it is s.
func (s *Students) Watched() *Students {
	if s == nil || s.Watch == nil {
		return s
	}
	out, w := *s, s.Watch
	if f := s.Ledger; f != nil {
		out.Ledger = func() Ledger {
			if l := f(); l != nil {
				return watchedLedger{l, w}
			}
			return nil
		}
	}
	if m := s.Projection; m != nil {
		out.Projection = &ProjectionMechanism{
			NewProjection: func() StudentProjection {
				if p := m.NewProjection(); p != nil {
					return watchedProjection{p, w}
				}
				return nil
			},
			NewConsumer: func(p StudentProjection, n int) StudentConsumer {
				if wp, ok := p.(watchedProjection); ok {
					p = wp.StudentProjection // the student's NewConsumer takes its own type
				}
				if c := m.NewConsumer(p, n); c != nil {
					return watchedConsumer{c, w}
				}
				return nil
			},
		}
	}
	if m := s.Runner; m != nil {
		out.Runner = &ShardMechanism{
			NewCheckpoint: func() Checkpoint {
				if c := m.NewCheckpoint(); c != nil {
					return watchedCheckpoint{c, w}
				}
				return nil
			},
			NewRunner: func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, every int) ShardRunner {
				if r := m.NewRunner(sink, cp, epoch, every); r != nil {
					return watchedRunner{r, w}
				}
				return nil
			},
		}
	}
	return &out
}
