package check

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
// each, started together (arrive: a spin on an atomic, then a futex, so
// both run on the machine's two cores at the same moment), and every history is checked
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

// race is one set of calls run at once: one list per goroutine. A race
// over many keys (each key's calls independent of the others': deliveries
// of many messages, events of many orders, commits to many shards) names
// each call's key, so porcupine checks each key apart (its Partition) and
// a long race stays cheap to check. Long lists are what make two
// goroutines overlap on a loaded machine, where a short one may finish
// before the other goroutine gets a CPU.
type race struct {
	threads [][]op
	key     func(op) string // nil: the calls are checked together
	rounds  int             // how many times it runs at least
	// overlaps is how many pairs of calls (on one key, from two
	// goroutines) must have overlapped in time before the race counts as
	// run: on a busy machine it runs more rounds, up to maxRounds times
	// its rounds, since two goroutines only race when both have a CPU.
	overlaps int
	// inFlight: overlaps counts only calls that met in full flight
	// (overlapping), so that a busy machine runs more rounds. A long race
	// meets hundreds a round on a quiet machine; a short race of two
	// calls a goroutine, a few in a hundred rounds, and its rounds are
	// many already.
	inFlight bool
}

// maxRounds bounds the rounds a race may take to reach its overlaps.
const maxRounds = 100

// String is the race as the report shows it: each goroutine's calls, ‖
// between goroutines; a long list of calls by its first and last.
func (r race) String() string {
	var gs []string
	for _, calls := range r.threads {
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

// The rounds of a race: a short one with reads runs often; a long one
// over many keys fewer times, and until 2,000 pairs of its calls met in
// full flight: about what its 20 rounds give on a quiet machine, so that
// a busy one runs more rounds for the same chance (beside four busy loops
// on two cores, the two-lock ledger and the unlocked dead-letter append
// are still caught 20 runs in 20).
const (
	shortRounds, shortOverlaps = 500, 20
	longRounds, longOverlaps   = 20, 2000
	longKeys                   = 500
)

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

// raceCalls is the clause count of a pass: the pairs of calls that
// overlapped, as many as the races ask for (a race runs until it has them,
// so the count is the same on every machine).
func (m *machine) raceCalls() uint64 {
	var n uint64
	for _, rc := range m.races {
		n += uint64(rc.overlaps)
	}
	return n
}

// ErrTooBusy is a race that never got its overlaps: the machine never ran
// the two goroutines at once often enough to judge. It is no verdict:
// `archlab check` says so and exits 3.
var ErrTooBusy = errors.New("the calls made at once hardly ever overlapped: this machine was too busy to run two goroutines at the same time, so the check could not judge atomicity; check again when it is quieter")

// overlapping counts the pairs of calls from two goroutines, on one key,
// whose call and return intervals overlap; with spans (the calls' times
// by the monotonic clock), only those that ran in full flight: at the
// same moment, neither taking longer than tightSpan. A
// call that took longer was as a rule put aside by the kernel for another
// process's turn, and the other goroutine's call then ran while it stood
// still, which only shows a race that happens to fall where it stood. So
// on a busy machine a race runs more rounds, until as many calls met in
// full flight as on a quiet one: the same chance to find a race.
func overlapping(h []porcupine.Operation, spans []span, key func(op) string) int {
	n := 0
	for i := range h {
		for j := i + 1; j < len(h); j++ {
			a, b := h[i], h[j]
			if a.ClientId == b.ClientId || a.Call > b.Return || b.Call > a.Return {
				continue
			}
			if spans != nil && !inFlight(spans[i], spans[j]) {
				continue
			}
			if key == nil || key(a.Input.(op)) == key(b.Input.(op)) {
				n++
			}
		}
	}
	return n
}

// span is when a call ran, in nanoseconds by the monotonic clock.
type span struct{ from, to int64 }

// tightSpan is the longest a call may take and still count as run in
// full flight: far more than any of the book's calls takes, far less than
// the time slice the kernel gives a process.
const tightSpan = 50 * time.Microsecond

// inFlight says whether two calls ran at the same moment, both in full
// flight.
func inFlight(a, b span) bool {
	tight := func(s span) bool { return time.Duration(s.to-s.from) <= tightSpan }
	return tight(a) && tight(b) && a.from <= b.to && b.from <= a.to
}

// linearizable runs m's races on the student's code; nil when every
// history is linearizable.
func (m *machine) linearizable(s *harness.Students) (*RaceRun, error) {
	// Two goroutines at once need two threads, even on one CPU.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	whole := m.porcupineModel(nil)
	for _, rc := range m.races {
		model := m.porcupineModel(rc.key)
		s.Watch.Racing(rc.String())
		overlaps := 0
		for round := 0; round < rc.rounds || overlaps < rc.overlaps; round++ {
			if round == rc.rounds*maxRounds {
				return nil, ErrTooBusy
			}
			h, spans, err := m.runRace(s, rc)
			if err != nil {
				return nil, err
			}
			s.Watch.Round()
			if porcupine.CheckOperations(model, h) {
				if !rc.inFlight {
					spans = nil
				}
				overlaps += overlapping(h, spans, rc.key)
				continue
			}
			if rc.key != nil {
				h = failing(whole, model.Partition(h))
			}
			h = m.cut(whole, h)
			res := &RaceRun{Race: rc.String()}
			var ops []op
			for _, o := range h {
				res.Calls = append(res.Calls, o.Input.(op).String()+" → "+o.Output.(string))
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

// failing is the first part of a partitioned history that no order
// explains.
func failing(model porcupine.Model, parts [][]porcupine.Operation) []porcupine.Operation {
	for _, p := range parts {
		if !porcupine.CheckOperations(model, p) {
			return p
		}
	}
	return parts[0]
}

// runRace runs rc once on a fresh value of the student's: the goroutines
// make their calls in step, each waiting at every call for the others to
// reach theirs (arrive, outside the calls), so that the n-th
// calls of all goroutines start together; each call is stamped from one
// counter at its call and at its return (the history's order), and timed
// (spans, in the history's order too).
func (m *machine) runRace(s *harness.Students, rc race) ([]porcupine.Operation, []span, error) {
	do, err := m.solo(s)
	if err != nil {
		return nil, nil, err
	}
	steps := 0
	for _, calls := range rc.threads {
		steps = max(steps, len(calls))
	}
	var (
		clock   atomic.Int64
		at      = make([]atomic.Int32, steps) // how many goroutines reached each step
		wg      sync.WaitGroup
		mu      sync.Mutex
		history = make([]porcupine.Operation, 0, steps*len(rc.threads))
		spans   = make([]span, 0, steps*len(rc.threads))
		start   = time.Now()
		failed  error
	)
	n := int32(len(rc.threads))
	for g, calls := range rc.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, c := range calls {
				arrive(&at[i], n)
				from := time.Since(start)
				call := clock.Add(1)
				var out string
				err := safely(func() error {
					var err error
					out, err = do(c)
					return err
				})
				ret := clock.Add(1)
				to := time.Since(start)
				mu.Lock()
				if err != nil && failed == nil {
					failed = err
				}
				history = append(history, porcupine.Operation{ClientId: g, Input: c, Call: call, Output: out, Return: ret})
				spans = append(spans, span{int64(from), int64(to)})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return history, spans, failed
}

// porcupineModel is the book's type as porcupine's sequential model: a
// state is the calls taken so far, and a step replays them on a fresh
// value of the book's, then the new call, and compares its answer. With
// key, each key's calls are a history of their own (Partition).
func (m *machine) porcupineModel(key func(op) string) porcupine.Model {
	type state struct {
		ops []op
		sig string // what the book's value reads after them, for Equal
	}
	var partition func([]porcupine.Operation) [][]porcupine.Operation
	if key != nil {
		partition = func(h []porcupine.Operation) [][]porcupine.Operation {
			at := map[string]int{}
			var parts [][]porcupine.Operation
			for _, o := range h {
				k := key(o.Input.(op))
				i, ok := at[k]
				if !ok {
					i = len(parts)
					at[k] = i
					parts = append(parts, nil)
				}
				parts[i] = append(parts[i], o)
			}
			return parts
		}
	}
	return porcupine.Model{
		Partition: partition,
		Init:      func() any { return state{} },
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
