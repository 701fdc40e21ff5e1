// Package explore is `archlab explore`: it checks the
// flags, explores the scope they fill in with a progress line on stderr,
// turns the engine's refusals into one line each, and lays the report out
// (ui/term), or prints counterexamples as drill files. NewCmd fills
// Options from the flags; cmd/archlab adds it to the root command.
package explore

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"archlab/explore"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/status"
	"archlab/ui/term"
)

// Options are the flags of `archlab explore` and its three
// subcommands.
type Options struct {
	G        *cli.Env
	JSON     bool
	Show     bool
	Emit     bool
	Strategy string // the STRATEGY argument: --show and --emit print only its counterexample
	Random   int
	Seed     uint64
	Workers  int
	Engine   string
}

// Bounds of explore's own flags.
const (
	MaxSamples = 1_000_000_000
	MaxWorkers = 1024
)

// Check checks explore's own flags and turns them into engine options.
// Without --seed a sample gets a seed from the clock, which the output
// prints so the run can be repeated.
func (o *Options) Check(cmd *cobra.Command) (explore.Options, error) {
	g := o.G
	if o.JSON && o.Show {
		return explore.Options{}, &status.Usage{Msg: g.T("explore.err.formats")}
	}
	if o.JSON && o.Emit {
		return explore.Options{}, &status.Usage{Msg: g.T("explore.err.emit-json")}
	}
	if o.Strategy != "" && !o.Show && !o.Emit {
		return explore.Options{}, &status.Usage{Msg: g.T("explore.err.strategy-alone"), Hint: g.T("err.hint.help", cmd.CommandPath())}
	}
	if o.Random < 0 || o.Random > MaxSamples {
		return explore.Options{}, &status.Usage{Msg: g.T("err.param.range", "random", 0, MaxSamples, o.Random)}
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return explore.Options{}, &status.Usage{Msg: g.T("err.param.range", "workers", 0, MaxWorkers, o.Workers)}
	}
	if !slices.Contains(explore.Engines, explore.Engine(o.Engine)) {
		return explore.Options{}, &status.Usage{Msg: g.T("explore.err.engine", o.Engine)}
	}
	if o.Random > 0 && cmd.Flags().Changed("engine") && explore.Engine(o.Engine) == explore.EngineStates {
		return explore.Options{}, &status.Usage{Msg: g.T("explore.err.engine-random")}
	}
	seedSet := cmd.Flags().Changed("seed")
	if seedSet && o.Random == 0 {
		return explore.Options{}, &status.Usage{Msg: g.T("explore.err.seed-without-random"), Hint: g.T("explore.err.hint.random")}
	}
	// The seed has a fixed default, so the same command prints the same
	// bytes; another sample is one --seed away.
	// Left unset, the engine is each mechanism's default.
	var engine explore.Engine
	if cmd.Flags().Changed("engine") {
		engine = explore.Engine(o.Engine)
	}
	return explore.Options{Workers: o.Workers, Samples: uint64(o.Random), Seed: o.Seed, Engine: engine}, nil
}

// Run explores, reports the rate on stderr and renders the report on
// stdout. stdout depends only on the flags (and the seed): no timing.
func (o *Options) Run(ctx context.Context, sec *harness.Section, opts explore.Options,
	fn func(context.Context, explore.Options) (*explore.Report, error)) error {
	name := sec.Harness
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := status.SignalContext(ctx) // its own handler: see ui/status
	defer stop()
	workers := opts.Workers
	if workers == 0 {
		workers = defaultWorkers()
		opts.Workers = workers
	}
	start := time.Now()
	rep, err := o.withProgress(sec, &opts, func() (*explore.Report, error) {
		r, err := fn(ctx, opts)
		return r, err
	})
	elapsed := time.Since(start)
	if status.StoppedBySignal(ctx) {
		return &status.Interrupted{Msg: o.G.T("explore.err.interrupted"), Code: status.SignalStatus(ctx)}
	}
	if err != nil {
		return o.scopeError(name, err)
	}
	o.rate(rep, elapsed, workers)
	switch {
	case o.JSON:
		if err := term.WriteJSON(o.G.IO.Out, term.ExploreJSON(o.G.Lang, rep)); err != nil {
			return err
		}
	case o.Emit:
		if err := o.emitFiles(rep); err != nil {
			return err
		}
	default:
		r := o.G.Renderer()
		if err := r.Explore(rep); err != nil {
			return err
		}
		if o.Show {
			if _, err := o.picked(rep); err != nil {
				return err
			}
			if err := r.ExploreTraces(rep, o.Strategy); err != nil {
				return err
			}
		}
	}
	return o.verdicts(rep)
}

// defaultWorkers is one worker per core the runtime may use.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// withProgress runs fn with a progress line on stderr (ui/term): a bar
// with an estimate when the count of schedules is known, else a spinner.
func (o *Options) withProgress(sec *harness.Section, opts *explore.Options, fn func() (*explore.Report, error)) (*explore.Report, error) {
	name := sec.Harness
	var done, total atomic.Uint64
	opts.Progress = func(n int, all uint64) {
		total.Store(all)
		done.Add(uint64(n))
	}
	// The state engine counts states, and cannot know how many there are
	// until it has seen them all: a spinner with the count.
	unit, size := "schedules", func() int64 { return int64(total.Load()) }
	if explore.EngineFor(sec, *opts) == explore.EngineStates {
		unit, size = "states", func() int64 { return -1 }
	}
	m := term.Meter{Desc: o.G.T("explore.progress", name), Unit: o.G.T("explore.progress.unit." + unit), Total: size, Done: done.Load,
		// If the count of schedules is known, an estimate of the time
		// says how long the rest will take.
		Shown: func(elapsed time.Duration) {
			if d, all := done.Load(), total.Load(); unit == "schedules" && d > 0 && all > d {
				rest := time.Duration(float64(elapsed) * float64(all-d) / float64(d))
				fmt.Fprintln(o.G.IO.Err, o.G.T("explore.estimate", name, term.GroupDigits(all), o.G.Duration(rest.Round(time.Second))))
			}
		}}
	var rep *explore.Report
	var err error
	term.WithProgress(o.G.IO.Err, m, func() { rep, err = fn() })
	return rep, err
}

// rate prints the throughput on stderr: the only line with timing in it.
func (o *Options) rate(rep *explore.Report, elapsed time.Duration, workers int) {
	perSec := "—"
	if s := elapsed.Seconds(); s > 0 {
		perSec = term.GroupDigits(uint64(float64(rep.Schedules) / s))
	}
	if rep.Engine == explore.EngineStates {
		fmt.Fprintln(o.G.IO.Err, o.G.T("explore.rate.states", rep.Mechanism, term.GroupDigits(rep.Schedules), len(rep.Strategies),
			term.GroupDigits(rep.States), o.G.Duration(elapsed), workers))
		return
	}
	fmt.Fprintln(o.G.IO.Err, o.G.T("explore.rate", rep.Mechanism, term.GroupDigits(rep.Schedules), len(rep.Strategies),
		o.G.Duration(elapsed), workers, perSec))
}

// scopeError turns the engine's refusal into one usage line.
func (o *Options) scopeError(name string, err error) error {
	g := o.G
	var se *explore.ScopeError
	if errors.As(err, &se) && errors.Is(err, explore.ErrRange) {
		return &status.Usage{Msg: g.T("err.param.range", se.Flag, se.Min, se.Max, se.Value)}
	}
	if errors.As(err, &se) && errors.Is(err, explore.ErrTooManyStates) {
		return &status.Usage{Msg: g.T("explore.err.too-many-states", name, term.GroupDigits(se.Limit)), Hint: g.T("explore.err.hint.random")}
	}
	if errors.Is(err, explore.ErrNoStateGraph) {
		return &status.Usage{Msg: g.T("explore.err.no-states", name)}
	}
	if errors.Is(err, explore.ErrOverflow) {
		return &status.Usage{Msg: g.T("explore.err.overflow", name), Hint: g.T("explore.err.hint.random")}
	}
	if errors.As(err, &se) && errors.Is(err, explore.ErrTooLarge) {
		return &status.Usage{Msg: g.T("explore.err.too-large", name, term.GroupDigits(se.Schedules), term.GroupDigits(se.Limit)), Hint: g.T("explore.err.hint.random")}
	}
	var de *explore.DriftError
	if errors.As(err, &de) {
		return &status.Mismatch{Msg: g.T("explore.err.drift", name, de.Strategy, de.Err)}
	}
	return err
}

// verdicts is the exit-1 error naming each strategy whose verdict is not
// the book's.
func (o *Options) verdicts(rep *explore.Report) error {
	var wrong []string
	for _, s := range rep.Strategies {
		if s.Verdict != explore.AsTheBook {
			wrong = append(wrong, s.Name)
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	key := "explore.err.mismatch"
	if len(wrong) == 1 {
		key += ".one"
	}
	return &status.Mismatch{Msg: o.G.T(key, len(wrong), rep.Mechanism, strings.Join(wrong, ", "))}
}

// FaultTable lists §8.2's faults, a line each, from the harness's table.
func FaultTable(g *cli.Env) string {
	width := 0
	for _, f := range harness.InboxFaults {
		if !f.AtCalls() {
			width = max(width, len(f.Name))
		}
	}
	var b strings.Builder
	for _, f := range harness.InboxFaults {
		if f.Fault() && !f.AtCalls() { // check's scope's alone
			fmt.Fprintf(&b, "  %-*s  %s\n", width, f.Name, g.T(f.DocKey()))
		}
	}
	return b.String()
}

// picked is the counterexamples --show and --emit print: every unsafe
// strategy's, or the STRATEGY argument's. A STRATEGY with no counterexample
// in the scope is an error naming the ones that have one.
func (o *Options) picked(rep *explore.Report) ([]*explore.Counterexample, error) {
	var out []*explore.Counterexample
	var unsafe []string
	for _, s := range rep.Strategies {
		if s.Shortest == nil {
			continue
		}
		unsafe = append(unsafe, s.Name)
		if o.Strategy == "" || s.Name == o.Strategy {
			out = append(out, s.Shortest)
		}
	}
	if o.Strategy != "" && len(out) == 0 {
		e := &status.Usage{Msg: o.G.T("explore.err.no-counterexample", o.Strategy)}
		if len(unsafe) > 0 {
			e.Hint = o.G.T("explore.err.hint.unsafe", strings.Join(unsafe, ", "))
		}
		return nil, e
	}
	return out, nil
}

// emitFiles prints the picked counterexamples as drill files, and nothing
// else, so that `archlab explore inbox naive --emit > naive.txtar` saves a
// file `archlab drill --file` replays. Several files are separated by a
// blank line.
func (o *Options) emitFiles(rep *explore.Report) error {
	ces, err := o.picked(rep)
	if err != nil {
		return err
	}
	for i, ce := range ces {
		text, err := ce.Emit(o.G.Lang)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(o.G.IO.Out)
		}
		fmt.Fprint(o.G.IO.Out, text)
	}
	return nil
}
