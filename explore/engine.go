package explore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"

	"archlab/harness"
	"archlab/i18n"
)

// Options say how to walk a scope. The zero value walks every schedule on
// every core, through the state graph where the section has one.
type Options struct {
	// Engine walks the scope state by state (EngineStates, the default) or
	// schedule by schedule (EngineEnumerate). A sample is always drawn
	// schedule by schedule.
	Engine Engine
	// Workers running schedules; 0 means one per core (GOMAXPROCS). The
	// report does not depend on it.
	Workers int
	// Samples, when above 0, draws that many schedules at random instead of
	// enumerating the scope; sample i depends only on Seed and i.
	Samples uint64
	Seed    uint64
	// Progress, when set, is told how many schedules a worker has just
	// finished, and how many the walk runs in all; the state engine tells
	// it how many states it has just visited, with 0 for the total, which
	// it does not know in advance. It is called from the workers,
	// concurrently.
	Progress func(done int, total uint64)
}

// Verdict compares a strategy's violations with what the book teaches.
type Verdict string

// The verdicts. NotFound only happens when sampling: an unsafe strategy
// whose failing schedules the sample missed is not shown safe, only not
// shown unsafe.
const (
	AsTheBook   Verdict = "as-the-book-teaches"
	Contradicts Verdict = "contradicts-the-book"
	NotFound    Verdict = "not-found-in-sample"
)

// Param is one dimension of a scope, as a flag sets it.
type Param struct {
	Name  string // the flag, "messages"
	Value int
}

// Count is one invariant's number of violating schedules.
type Count struct {
	Name string // the invariant, "lost"
	N    uint64
}

// Counterexample is the shortest schedule that broke a strategy: fewest
// steps, then first in the canonical order (or lowest sample number).
type Counterexample struct {
	Index  uint64 // the schedule's number in the enumeration or the sample
	Length int    // its steps: deliveries, events, or crash point plus zombie step
	// Schedule is the schedule's canonical text form: identifiers only
	// (m1, crash-mid, evt-2(o-1 pay v2), commit-every=3), the same in every
	// language.
	Schedule string
	// Outcome says what the schedule broke, as catalogue keys
	// ("explore.outcome.*") with their arguments.
	Outcome []harness.Msg
	Broken  []string // the invariants it breaks, in the invariants' order
	replay  func(*harness.Recorder, *tape) error
	file    drillFile
}

// Line is the counterexample in one line, in lang: the schedule, then what
// it broke. "m1 ok, m2 ok, m3 crash-mid, m3 ok ⇒ m3 lost".
func (c *Counterexample) Line(lang i18n.Lang) string {
	parts := make([]string, len(c.Outcome))
	for i, m := range c.Outcome {
		parts[i] = i18n.T(lang, m.Key, m.Args...)
	}
	return i18n.T(lang, "explore.line", c.Schedule, strings.Join(parts, i18n.T(lang, "explore.line.sep")))
}

// Trace runs the counterexample again through the section's harness and
// returns every step it recorded, so the command prints it with the drills'
// trace renderer.
func (c *Counterexample) Trace() ([]harness.Step, error) {
	rec := &harness.Recorder{}
	if err := c.replay(rec, nil); err != nil {
		return nil, err
	}
	return rec.Steps, nil
}

// Strategy is one design's result over the whole scope.
type Strategy struct {
	Name       string
	Safe       bool // what the book teaches: no schedule breaks it
	Schedules  uint64
	Violations []Count // one per invariant, in the section's order
	Broken     uint64  // schedules that broke at least one invariant
	Verdict    Verdict
	Shortest   *Counterexample // nil when no schedule broke it
	// Faults, when the scope was walked schedule by schedule on a
	// student's code, is how many of the schedules that code ran hit each
	// fault class of the section, in the section's order: a pass on a
	// scope where some fault never struck proves nothing about it.
	Faults []Count
	// Outside, in a scope whose m1 asks for a call outside the local store
	// (InboxScope.Notify), is what became of that call under the
	// strategy: no transaction covers it, so it is made on every delivery
	// that gets that far, and repeats where the payment does not.
	Outside *OutsideCalls
}

// OutsideCalls counts the schedules where m1's call outside the store was
// made more than once (Repeated) and never (Never).
type OutsideCalls struct {
	Repeated, Never uint64
}

// count adds one schedule whose run made the call n times.
func (c *OutsideCalls) count(n int) {
	switch {
	case n == 0:
		c.Never++
	case n > 1:
		c.Repeated++
	}
}

// Report is one exploration.
type Report struct {
	// Sec is the section explored; Mechanism and Section name it as the
	// command and the book do, in the text and JSON reports.
	Sec       *harness.Section `json:"-"`
	Mechanism string           // its section's Harness, as the command names it: inbox
	Section   string           // its section's ID: 8.2
	Scope     []Param          // the scope's flags, in their order
	Sampled   bool             // Samples > 0: a random sample, not the whole scope
	Engine    Engine           // how the scope was walked
	States    uint64           // distinct states visited, over every strategy (state engine)
	Seed      uint64
	Space     uint64 // schedules in the whole scope (saturates at MaxUint64)
	Schedules uint64 // schedules run (per strategy)
	// Legend names the scope's actors for the one-line counterexamples
	// ("m1" is checkout:evt-1); empty when the lines need none.
	Legend     []string
	Strategies []Strategy
	Budgets    []Budget      // ordering only: the retry-budget table
	Replay     []ReplayPoint // shardjob only: replay cost against commit interval
}

// Pass reports whether every verdict is as the book teaches.
func (r *Report) Pass() bool {
	for _, s := range r.Strategies {
		if s.Verdict != AsTheBook {
			return false
		}
	}
	return true
}

// ErrTooLarge is wrapped by a ScopeError whose scope has too many schedules
// to enumerate; ErrRange by one whose flag is outside its bounds.
var (
	ErrTooLarge = errors.New("scope too large to enumerate")
	ErrRange    = errors.New("flag out of range")
)

// ScopeError is a scope that cannot be explored as asked: a flag outside its
// range (ErrRange, with Flag, Value, Min and Max) or too many schedules to
// enumerate (ErrTooLarge, with Schedules and Limit).
//
// The state engine refuses a scope with more distinct states than it keeps
// (ErrTooManyStates, with States and Limit) or more than 2^64 schedules
// (ErrOverflow).
type ScopeError struct {
	Flag            string
	Value, Min, Max int
	Schedules       uint64
	States          uint64
	Limit           uint64
	Err             error
}

func (e *ScopeError) Error() string {
	switch {
	case errors.Is(e.Err, ErrTooLarge):
		return fmt.Sprintf("%d schedules, more than the %d explore enumerates: %v", e.Schedules, e.Limit, e.Err)
	case errors.Is(e.Err, ErrTooManyStates):
		return fmt.Sprintf("more than %d states, the most the state engine keeps: %v", e.Limit, e.Err)
	case errors.Is(e.Err, ErrOverflow):
		return e.Err.Error()
	}
	return fmt.Sprintf("--%s must be between %d and %d, got %d", e.Flag, e.Min, e.Max, e.Value)
}

func (e *ScopeError) Unwrap() error { return e.Err }

// DriftError is a strategy's run doing what the book's code never does:
// an ack the schedule does not imply, a dedup key the ledger says is new
// though it holds it, a count of schedules that disagrees with the scope's,
// an error from the book's loop where the book's loop gives none. The
// explorer's rules assume the book's code; when it drifts they do not hold,
// and the report would be wrong, so there is none: the command reads it as
// a disagreement with the book (exit 1).
type DriftError struct {
	Strategy string
	Err      error
}

func (e *DriftError) Error() string {
	return fmt.Sprintf("%s does not behave as the book's code: %v", e.Strategy, e.Err)
}

func (e *DriftError) Unwrap() error { return e.Err }

// drift wraps err, when there is one, as strategy's drift.
func drift(strategy string, err error) error {
	var d *DriftError
	if err == nil || errors.As(err, &d) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &DriftError{Strategy: strategy, Err: err}
}

// checkParam is a ScopeError when v is outside [lo, hi].
func checkParam(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return &ScopeError{Flag: flag, Value: v, Min: lo, Max: hi, Err: ErrRange}
	}
	return nil
}

// workers is how many goroutines o runs on.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// engine is the engine o asks for: a sample is drawn schedule by
// schedule; otherwise the state graph unless o says enumerate.
func (o Options) engine() Engine {
	if o.Samples > 0 || o.Engine == EngineEnumerate {
		return EngineEnumerate
	}
	return EngineStates
}

// checkSize refuses to enumerate more than limit schedules.
func checkSize(o Options, size, limit uint64) error {
	if o.Samples == 0 && size > limit {
		return &ScopeError{Schedules: size, Limit: limit, Err: ErrTooLarge}
	}
	return nil
}

// space is a finite set of schedules in one canonical order.
type space[S any] interface {
	// each yields every schedule in the canonical order until yield
	// returns false. It reuses nothing: yield may keep s.
	each(yield func(s S) bool)
	// sample draws one schedule, every schedule equally likely.
	sample(r *rand.Rand) S
}

// tally accumulates what one worker has run; merge adds another worker's.
// Everything a tally holds is a sum or a minimum, so the merged result does
// not depend on which worker ran which schedule.
type tally[S any, T any] interface {
	add(index uint64, s *S) error
	merge(T)
}

// batchSize trades channel traffic against load balance: small enough that
// every worker gets work in a tiny scope, large enough that a batch costs
// far more to run than to hand over.
const batchSize = 256

type batch[S any] struct {
	first uint64
	n     int
	items []S // filled by the producer when enumerating, by the worker when sampling
}

// walk runs every schedule of sp (or o.Samples of them) on o.Workers
// workers, each with its own tally, and merges the tallies. Schedules travel
// in recycled batches over a bounded channel, so memory stays flat however
// large the scope is. It returns the merged tally and the schedules run.
func walk[S any, T tally[S, T]](ctx context.Context, sp space[S], size uint64, o Options, newTally func() T) (T, uint64, error) {
	total := size
	if o.Samples > 0 {
		total = o.Samples
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan *batch[S], 2*workers)
	free := make(chan *batch[S], 4*workers)
	newBatch := func() *batch[S] {
		select {
		case b := <-free:
			return b
		default:
			return &batch[S]{items: make([]S, 0, batchSize)}
		}
	}
	var produced uint64
	go func() {
		defer close(work)
		send := func(b *batch[S]) bool {
			select {
			case work <- b:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if o.Samples > 0 {
			for first := uint64(0); first < o.Samples; first += batchSize {
				b := newBatch()
				b.first, b.n, b.items = first, int(min(batchSize, o.Samples-first)), b.items[:0]
				if !send(b) {
					return
				}
			}
			produced = o.Samples
			return
		}
		b := newBatch()
		b.first, b.items = 0, b.items[:0]
		var next uint64
		ok := true
		sp.each(func(s S) bool {
			b.items = append(b.items, s)
			next++
			if len(b.items) == batchSize {
				b.n = len(b.items)
				if ok = send(b); !ok {
					return false
				}
				b = newBatch()
				b.first, b.items = next, b.items[:0]
			}
			return true
		})
		if ok && len(b.items) > 0 {
			b.n = len(b.items)
			ok = send(b)
		}
		if ok {
			produced = next
		}
	}()

	tallies := make([]T, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tallies[w] = newTally()
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := tallies[w]
			// One generator per worker, reseeded per sample: sample i
			// is drawn from PCG(seed, i) whoever draws it.
			pcg := rand.NewPCG(0, 0)
			rng := rand.New(pcg)
			for b := range work {
				if o.Samples > 0 {
					b.items = b.items[:0]
					for i := range b.n {
						pcg.Seed(o.Seed, b.first+uint64(i))
						b.items = append(b.items, sp.sample(rng))
					}
				}
				for i := range b.items {
					if ctx.Err() != nil {
						break
					}
					if err := t.add(b.first+uint64(i), &b.items[i]); err != nil && errs[w] == nil {
						errs[w] = err
						cancel()
					}
				}
				if o.Progress != nil {
					o.Progress(b.n, total)
				}
				select {
				case free <- b:
				default:
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			var zero T
			return zero, 0, err
		}
	}
	if err := parent.Err(); err != nil {
		var zero T
		return zero, 0, err
	}
	merged := tallies[0]
	for _, t := range tallies[1:] {
		merged.merge(t)
	}
	if produced != total {
		var zero T
		return zero, 0, fmt.Errorf("explore: ran %d schedules, the scope has %d", produced, total)
	}
	return merged, produced, nil
}

// best is the running shortest counterexample of one strategy: the schedule
// with the fewest steps, ties broken by the lower number. A minimum under a
// total order, so it does not depend on who found it first.
type best[S any] struct {
	found  bool
	length int
	index  uint64
	sched  S
	broken uint8 // bit i: invariant i
}

func (b *best[S]) offer(length int, index uint64, s *S, broken uint8) {
	if !b.found || length < b.length || (length == b.length && index < b.index) {
		*b = best[S]{found: true, length: length, index: index, sched: *s, broken: broken}
	}
}

func (b *best[S]) merge(o best[S]) {
	if o.found {
		b.offer(o.length, o.index, &o.sched, o.broken)
	}
}

// strategyTally counts one strategy's violations per invariant and keeps its
// shortest counterexample.
type strategyTally[S any] struct {
	violations [8]uint64
	broken     uint64
	shortest   best[S]
	faults     []uint64 // per fault class, when counted (fired)
}

// fired counts one schedule's fault classes, a bit per class of classes.
func (t *strategyTally[S]) fired(mask uint32, classes int) {
	if t.faults == nil {
		t.faults = make([]uint64, classes)
	}
	for i := range t.faults {
		if mask&(1<<i) != 0 {
			t.faults[i]++
		}
	}
}

func (t *strategyTally[S]) record(length int, index uint64, s *S, broken uint8) {
	if broken == 0 {
		return
	}
	t.broken++
	for i := range t.violations {
		if broken&(1<<i) != 0 {
			t.violations[i]++
		}
	}
	t.shortest.offer(length, index, s, broken)
}

func (t *strategyTally[S]) merge(o *strategyTally[S]) {
	for i := range t.violations {
		t.violations[i] += o.violations[i]
	}
	t.broken += o.broken
	t.shortest.merge(o.shortest)
}

// section is what a mechanism tells the engine about its strategies'
// shortest counterexamples: how to name them and emit them.
type section[S any] struct {
	invariants []string
	// faults names the fault classes a tally's fired counted, bit by bit.
	faults   []string
	schedule func(*S) string
	file     drillFile
}

// strategyRun is one strategy's walk: its tally, and how to tell and
// replay its shortest counterexample.
type strategyRun[S any] struct {
	name    string
	safe    bool // what the book teaches
	tally   *strategyTally[S]
	outcome func(*S) ([]harness.Msg, error)
	replay  func(*S, *harness.Recorder, *tape) error
}

// numbered are the runs of the book's strategies, one tally each, where
// strategy k is told by outcome(k, s) and replayed by run(k, s, …).
func numbered[S, R any](strategies []bookStrategy, tallies []strategyTally[S],
	outcome func(int, *S) ([]harness.Msg, error), run func(int, *S, *harness.Recorder, *tape) (R, error)) []strategyRun[S] {
	runs := make([]strategyRun[S], len(strategies))
	for k, b := range strategies {
		runs[k] = strategyRun[S]{name: b.name, safe: b.safe, tally: &tallies[k],
			outcome: func(s *S) ([]harness.Msg, error) { return outcome(k, s) },
			replay: func(s *S, rec *harness.Recorder, tp *tape) error {
				_, err := run(k, s, rec, tp)
				return err
			}}
	}
	return runs
}

// walked is what a walk of a section's scope found, before it is a
// report.
type walked[S any] struct {
	scope  []Param
	o      Options // a sample's Samples and Seed
	engine Engine
	states uint64 // distinct states, on the state engine
	space  uint64 // schedules in the scope
	n      uint64 // schedules run, per strategy
	how    section[S]
	runs   []strategyRun[S]
}

// assemble is the report of what w found in sec's scope: one Strategy per
// run, in the runs' order, each with its verdict. The caller adds what is
// its own (a legend, the budgets, the replay cost).
func assemble[S any](sec *harness.Section, w walked[S]) (*Report, error) {
	rep := &Report{Sec: sec, Mechanism: sec.Harness, Section: sec.ID, Scope: w.scope, Sampled: w.o.Samples > 0, Seed: w.o.Seed,
		Engine: w.engine, States: w.states, Space: w.space, Schedules: w.n}
	w.how.file.sec, w.how.file.scope = sec, scopeLine(w.scope)
	for _, r := range w.runs {
		st, err := strategyResult(r, &w.how, w.n, rep.Sampled)
		if err != nil {
			return nil, err
		}
		rep.Strategies = append(rep.Strategies, st)
	}
	return rep, nil
}

// strategyResult turns a strategy's tally into a Strategy with its verdict.
func strategyResult[S any](r strategyRun[S], how *section[S], schedules uint64, sampled bool) (Strategy, error) {
	t := r.tally
	st := Strategy{Name: r.name, Safe: r.safe, Schedules: schedules, Broken: t.broken}
	for i, inv := range how.invariants {
		st.Violations = append(st.Violations, Count{Name: inv, N: t.violations[i]})
	}
	if t.faults != nil {
		for i, f := range how.faults {
			st.Faults = append(st.Faults, Count{Name: f, N: t.faults[i]})
		}
	}
	if b := t.shortest; b.found {
		s := b.sched
		outcome, err := r.outcome(&s)
		if err != nil {
			return st, err
		}
		ce := &Counterexample{Index: b.index, Length: b.length, Schedule: how.schedule(&s), Outcome: outcome, file: how.file}
		for i, inv := range how.invariants {
			if b.broken&(1<<i) != 0 {
				ce.Broken = append(ce.Broken, inv)
			}
		}
		ce.replay = func(rec *harness.Recorder, tp *tape) error { return r.replay(&s, rec, tp) }
		ce.file.strategy = r.name
		ce.file.demonstrates = !r.safe
		st.Shortest = ce
	}
	switch {
	case r.safe == (st.Shortest == nil):
		st.Verdict = AsTheBook
	case !r.safe && sampled:
		st.Verdict = NotFound
	default:
		st.Verdict = Contradicts
	}
	return st, nil
}

// Saturating arithmetic for scope sizes: a size past MaxUint64 is simply
// "too large", never a wrapped small number.
func addSat(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return math.MaxUint64
	}
	return s
}

func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// pick returns i with probability weights[i]/sum(weights): how a sampler
// walks down a tree of choices so that every leaf is equally likely. The
// weights are float64 because they only steer a random choice; exactness
// lives in the enumeration.
func pick(r *rand.Rand, weights []float64) int {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	x := r.Float64() * sum
	last := 0
	for i, w := range weights {
		if w <= 0 {
			continue
		}
		last = i
		if x < w {
			return i
		}
		x -= w
	}
	return last // rounding: x landed on the sum
}
