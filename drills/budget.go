package drills

import (
	"context"
	"errors"
	"time"
)

// A drill file is data a reader may paste into a web page, so every run of
// one is bounded: a file cannot hang the process, fill its memory or print
// a result that silently stopped short. Each bound is a budget with a
// default a class never reaches (every built-in drill stays far inside
// them at any parameter its file allows); a teacher who means to run more
// raises it on the command line. A run that passes a budget stops, names
// the budget and the line it was at, and the command exits 2: the file
// asked for more than a drill is, it did not find the book wrong.
//
// Sizes known when the file is parsed (a literal repeat count, a split of
// a literal number of keys) are checked then; the others when the step
// runs, before the verb allocates anything.

// Budget bounds one run of a drill file.
type Budget struct {
	// Steps is how many steps of the steps part one run executes, each
	// repeat counted (--max-steps). A repeat count above it is refused.
	Steps int
	// Deliveries is how many deliveries the §8.3 broker makes in one run,
	// redeliveries included (--max-deliveries): what stops a consumer whose
	// retry budget is endless and whose event never resolves.
	Deliveries int
	// Keys is the largest size a step may ask for: the keys of a split and
	// of split_size, its shards, the orders of a route (--max-keys).
	Keys int
	// Time is the wall-clock time of one run (--max-time): a backstop for
	// what the budgets above leave long. It is generous because a run on
	// SQLite with --crash real starts a process per delivery, on a machine
	// that may be busy; archlab serve gives its runs less (ServeTime).
	Time time.Duration
	// Counters is how many counters one run prints, loops included.
	Counters int
	// Trace is how many steps the run's trace records (one per delivery,
	// per routed order, per commit…): what bounds the memory of a run,
	// with Keys.
	Trace int
}

// DefaultBudget is every run's budget unless the command line raises one.
var DefaultBudget = Budget{
	Steps:      10_000,
	Deliveries: 50_000,
	Keys:       1_000_000,
	Time:       time.Minute,
	Counters:   10_000,
	Trace:      100_000,
}

// ServeTime is the time budget of a run from the web page: its runs are
// in memory, and a page that takes longer has lost its class.
const ServeTime = 10 * time.Second

// Limits a budget cannot be raised past, whatever the command line says:
// past them a run's numbers could overflow (a balance sums at most
// MaxDeliveries payments of harness.MaxAmount) or its memory pass what a
// laptop has.
const (
	MaxSteps      = 1_000_000
	MaxDeliveries = 1_000_000
	MaxKeys       = 10_000_000
	MaxTime       = time.Hour
)

// Limits fixed for every file: its size and how deeply an expression
// nests, both checked while parsing.
const (
	MaxFileBytes = 256 << 10
	MaxDepth     = 64
)

// withDefaults fills the budgets b leaves at zero from DefaultBudget.
func (b Budget) withDefaults() Budget {
	d := DefaultBudget
	if b.Steps > 0 {
		d.Steps = b.Steps
	}
	if b.Deliveries > 0 {
		d.Deliveries = b.Deliveries
	}
	if b.Keys > 0 {
		d.Keys = b.Keys
	}
	if b.Time > 0 {
		d.Time = b.Time
	}
	if b.Counters > 0 {
		d.Counters = b.Counters
	}
	if b.Trace > 0 {
		d.Trace = b.Trace
	}
	return d
}

// errTimeBudget is the cause of a run's context when its Time ran out, as
// opposed to the caller cancelling it (Ctrl-C, a closed web request).
var errTimeBudget = errors.New("time budget spent")

// stopped is the error of a run whose context is done: the time budget,
// said at the line it was at, or the caller's cancellation, passed on as
// it is (the command exits 130 for Ctrl-C).
func (f *file) stopped(ctx context.Context, line int, b Budget) error {
	if errors.Is(context.Cause(ctx), errTimeBudget) {
		return f.fail(line, bad("file.err.budget.time", b.Time))
	}
	return ctx.Err()
}
