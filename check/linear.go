package check

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/anishathalye/porcupine"

	"archlab/harness"
)

// Atomicity. The ledger's doc comment says "ONE local transaction (here:
// under one lock)"; the projection and the checkpoint are called from
// several goroutines in a real consumer too. A type can answer every
// sequence as the book's does and still break when two calls overlap: a
// ledger that checks the key under one lock and writes it under another
// lets two deliveries of one message both find it new.
//
// So the student's type is run from two goroutines at once, a few calls
// each, started together (a spin on an atomic, so both run on the
// machine's two cores at the same moment), and every history is checked
// for linearizability against the book's sequential model with porcupine,
// the checker MIT 6.5840 (6.824) grades its labs with: is there one order
// of the calls, each taking effect between its call and its return, in
// which the book's type answers what the student's answered? If not, the
// history is cut down, call by call, to the calls that still cannot be
// ordered (two, as a rule) and those are reported, overlapping.
//
// A Go map written from two goroutines may also crash the process
// outright ("fatal error: concurrent map writes"), which no recover
// catches; the Watch tells the parent which race was running first
// (Watch.Racing), so the report can still name the two calls.

// race is one set of calls run at once: one list per goroutine.
type race [][]op

// String is the race as the report shows it: each goroutine's calls, ‖
// between goroutines; a long list of calls by its first and last.
func (r race) String() string {
	var gs []string
	for _, calls := range r {
		var cs []string
		for _, c := range calls {
			cs = append(cs, c.String())
		}
		if len(cs) > 3 {
			cs = []string{cs[0], "…", cs[len(cs)-1]}
		}
		gs = append(gs, strings.Join(cs, "; "))
	}
	return strings.Join(gs, " ‖ ")
}

// raceRounds is how many times each race runs: enough that a check-then-
// write split across two locks shows on this lab's 2-core machine (it
// shows within a few hundred rounds; see TestRaceCaught), few enough to
// stay a fraction of the check's time.
const raceRounds = 2000

// RaceRun is calls made at once that no order explains: the calls that
// overlap, each with what the student's type answered, and what the
// book's type answers to the same calls one after the other.
type RaceRun struct {
	Race  string   `json:"race"`            // the race that ran: each goroutine's calls, ‖ between
	Calls []string `json:"calls,omitempty"` // the calls that cannot be ordered, each "call → answer"
	Book  []string `json:"the_book,omitempty"`
	// Fatal, when set, is how the process died during the race (a Go map
	// written from two goroutines): Calls are then empty.
	Fatal string `json:"fatal,omitempty"`
}

// raceCalls is how many calls the races make in all, for the clause count
// of a pass.
func (m *machine) raceCalls() uint64 {
	var n uint64
	for _, rc := range m.races {
		for _, calls := range rc {
			n += uint64(len(calls))
		}
	}
	return n * raceRounds
}

// linearizable runs m's races on the student's code; nil when every
// history is linearizable.
func (m *machine) linearizable(s *harness.Students) (*RaceRun, error) {
	model := m.porcupineModel()
	for _, rc := range m.races {
		s.Watch.Racing(rc.String())
		for range raceRounds {
			h, err := m.runRace(s, rc)
			if err != nil {
				return nil, err
			}
			if porcupine.CheckOperations(model, h) {
				continue
			}
			h = m.cut(model, h)
			res := &RaceRun{Race: rc.String()}
			for _, o := range h {
				res.Calls = append(res.Calls, o.Input.(op).String()+" → "+o.Output.(string))
			}
			var ops []op
			for _, o := range h {
				ops = append(ops, o.Input.(op))
			}
			for i, a := range m.bookAnswers(ops) {
				res.Book = append(res.Book, ops[i].String()+" → "+a)
			}
			return res, nil
		}
	}
	s.Watch.Racing("")
	return nil, nil
}

// runRace runs rc once on a fresh value of the student's: each goroutine
// waits at the start line, then makes its calls, each stamped from one
// counter at its call and at its return.
func (m *machine) runRace(s *harness.Students, rc race) ([]porcupine.Operation, error) {
	do, err := m.solo(s)
	if err != nil {
		return nil, err
	}
	var (
		clock   atomic.Int64
		start   atomic.Bool
		waiting atomic.Int32
		wg      sync.WaitGroup
		mu      sync.Mutex
		history []porcupine.Operation
		failed  error
	)
	for g, calls := range rc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			waiting.Add(1)
			for !start.Load() {
				runtime.Gosched()
			}
			for _, c := range calls {
				call := clock.Add(1)
				var out string
				err := safely(func() error {
					var err error
					out, err = do(c)
					return err
				})
				ret := clock.Add(1)
				mu.Lock()
				if err != nil && failed == nil {
					failed = err
				}
				history = append(history, porcupine.Operation{ClientId: g, Input: c, Call: call, Output: out, Return: ret})
				mu.Unlock()
			}
		}()
	}
	for waiting.Load() < int32(len(rc)) {
		runtime.Gosched()
	}
	start.Store(true)
	wg.Wait()
	return history, failed
}

// porcupineModel is the book's type as porcupine's sequential model: a
// state is the calls taken so far, and a step replays them on a fresh
// value of the book's, then the new call, and compares its answer.
func (m *machine) porcupineModel() porcupine.Model {
	type state struct {
		ops []op
		sig string // what the book's value reads after them, for Equal
	}
	return porcupine.Model{
		Init: func() any { return state{} },
		Step: func(st, in, out any) (bool, any) {
			ops := append(append([]op{}, st.(state).ops...), in.(op))
			answers := m.bookAnswers(ops)
			if answers[len(answers)-1] != out.(string) {
				return false, st
			}
			return true, state{ops: ops, sig: m.bookSig(ops)}
		},
		Equal: func(a, b any) bool { return a.(state).sig == b.(state).sig },
	}
}

// bookAnswers are the book's answers to ops made one after the other.
func (m *machine) bookAnswers(ops []op) []string {
	do, err := m.solo(Book())
	if err != nil {
		panic(err) // the book's own constructors do not fail
	}
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i], _ = do(o)
	}
	return out
}

// bookSig is what the book's value reads after ops: every read of the
// machine's, one string.
func (m *machine) bookSig(ops []op) string {
	all := append(append([]op{}, ops...), m.reads...)
	a := m.bookAnswers(all)
	return strings.Join(a[len(ops):], "|")
}

// cut drops reads from a history that is not linearizable, one at a
// time, while what is left still is not: what remains are the calls that
// cannot be ordered, and the reads that show it. A call that writes stays:
// without it, a read would show a state nothing made.
//
// When no read is left, the calls alone cannot be ordered (two
// deliveries of one message both applied), and the other calls are cut
// too, down to the ones that overlap.
func (m *machine) cut(model porcupine.Model, h []porcupine.Operation) []porcupine.Operation {
	drop := func(h []porcupine.Operation, keep func(porcupine.Operation) bool) []porcupine.Operation {
		for i := 0; i < len(h); {
			if keep(h[i]) {
				i++
				continue
			}
			try := append(append([]porcupine.Operation{}, h[:i]...), h[i+1:]...)
			if len(try) > 0 && !porcupine.CheckOperations(model, try) {
				h = try
				continue
			}
			i++
		}
		return h
	}
	isRead := func(o porcupine.Operation) bool { _, read := o.Input.(readOp); return read }
	h = drop(h, func(o porcupine.Operation) bool { return !isRead(o) })
	if !slices.ContainsFunc(h, isRead) {
		h = drop(h, isRead)
	}
	return h
}
