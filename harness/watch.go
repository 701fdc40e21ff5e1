package harness

import (
	"fmt"
	"sync"

	"archlab/internal/ordering"
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
}

// Racing records the calls about to run at once ("" when they are done),
// and tells Tell.
func (w *Watch) Racing(race string) {
	if w == nil {
		return
	}
	w.At(Name(race))
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
