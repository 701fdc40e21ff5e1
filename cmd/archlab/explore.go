package main

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

	"archlab/ui/cli"
	"archlab/ui/numflag"
	"archlab/ui/term"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/ui/status"
)

// exploreOptions are the flags of `archlab explore` and its three
// subcommands.
type exploreOptions struct {
	g        *cli.Env
	json     bool
	show     bool
	emit     bool
	strategy string // the STRATEGY argument: --show and --emit print only its counterexample
	random   int
	seed     uint64
	workers  int
	engine   string
}

// Bounds of explore's own flags.
const (
	maxExploreSamples = 1_000_000_000
	maxExploreWorkers = 1024
)

// exploreMechanisms names the subcommands in book order, for errors.
const exploreMechanisms = "inbox, ordering, shardjob"

func newExploreCmd(g *cli.Env) *cobra.Command {
	o := &exploreOptions{g: g}
	cmd := &cobra.Command{
		Use:     "explore {inbox | ordering | shardjob}",
		Short:   g.T("explore.help.short"),
		Long:    g.T("explore.help.long"),
		Example: g.T("explore.help.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				e := &usageError{Msg: g.T("explore.err.unknown", args[0], exploreMechanisms)}
				if near := drills.Nearest(args[0], strings.Split(exploreMechanisms, ", "), 1); len(near) > 0 {
					e.Hint = g.T("err.hint.did-you-mean", near[0])
				}
				return e
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &usageError{Msg: g.T("explore.err.nothing", exploreMechanisms), Hint: g.T("err.hint.help", cmd.CommandPath())}
		},
	}
	f := cmd.PersistentFlags()
	f.BoolVar(&o.json, "json", false, g.T("help.flag.json"))
	f.BoolVar(&o.show, "show", false, g.T("explore.flag.show"))
	f.BoolVar(&o.emit, "emit", false, g.T("explore.flag.emit"))
	numflag.IntVar(f, &o.random, "random", 0, g.T("explore.flag.random"))
	numflag.Uint64Var(f, &o.seed, "seed", 1, g.T("explore.flag.seed"))
	numflag.IntVar(f, &o.workers, "workers", 0, g.T("explore.flag.workers"))
	f.StringVar(&o.engine, "engine", string(explore.EngineStates), g.T("explore.flag.engine"))

	inbox := explore.DefaultInbox
	inboxCmd := o.subcommand("inbox", func(ctx context.Context, opts explore.Options) (*explore.Report, error) {
		return explore.Inbox(ctx, inbox, opts)
	})
	numflag.IntVar(inboxCmd.Flags(), &inbox.Messages, "messages", inbox.Messages, g.T("explore.flag.messages"))
	numflag.IntVar(inboxCmd.Flags(), &inbox.Faults, "faults", inbox.Faults, g.T("explore.flag.faults"))

	ord := explore.DefaultOrdering
	orderingCmd := o.subcommand("ordering", func(ctx context.Context, opts explore.Options) (*explore.Report, error) {
		return explore.Ordering(ctx, ord, opts)
	})
	numflag.IntVar(orderingCmd.Flags(), &ord.Duplicates, "duplicates", ord.Duplicates, g.T("explore.flag.duplicates"))
	orderingCmd.Flags().BoolVar(&ord.Poison, "poison", ord.Poison, g.T("explore.flag.poison"))
	numflag.IntVar(orderingCmd.Flags(), &ord.MaxAttempts, "max-attempts", ord.MaxAttempts, g.T("explore.flag.max-attempts"))

	shard := explore.DefaultShardjob
	shardCmd := o.subcommand("shardjob", func(ctx context.Context, opts explore.Options) (*explore.Report, error) {
		return explore.Shardjob(ctx, shard, opts)
	})
	numflag.IntVar(shardCmd.Flags(), &shard.Keys, "keys", shard.Keys, g.T("explore.flag.keys"))

	cmd.AddCommand(inboxCmd, orderingCmd, shardCmd)
	return cmd
}

// subcommand builds `archlab explore NAME [STRATEGY]`; run explores the
// scope its flags have filled in. STRATEGY, one of the mechanism's
// strategies, picks the counterexample --show and --emit print.
func (o *exploreOptions) subcommand(name string, run func(context.Context, explore.Options) (*explore.Report, error)) *cobra.Command {
	g := o.g
	strategies := explore.Strategies(name)
	long := g.T("explore.help." + name + ".long")
	if name == "inbox" {
		long = g.T("explore.help.inbox.long", faultTable(g))
	}
	return &cobra.Command{
		Use:       name + " [STRATEGY] [flags]",
		Short:     g.T("explore.help." + name + ".short"),
		Long:      long + "\n\n" + g.T("explore.help.strategy"),
		Example:   g.T("explore.help." + name + ".example"),
		ValidArgs: strategies,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &usageError{Msg: g.T("explore.err.args", name, strings.Join(args, " ")), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			if len(args) == 1 && !slices.Contains(strategies, args[0]) {
				e := &usageError{Msg: g.T("explore.err.strategy", name, args[0], strings.Join(strategies, ", "))}
				if near := drills.Nearest(args[0], strategies, 2); len(near) > 0 {
					e.Hint = g.T("err.hint.did-you-mean", near[0])
				}
				return e
			}
			o.strategy = ""
			if len(args) == 1 {
				o.strategy = args[0]
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := o.options(cmd)
			if err != nil {
				return err
			}
			return o.run(cmd.Context(), name, opts, run)
		},
	}
}

// options checks explore's own flags and turns them into engine options.
// Without --seed a sample gets a seed from the clock, which the output
// prints so the run can be repeated.
func (o *exploreOptions) options(cmd *cobra.Command) (explore.Options, error) {
	g := o.g
	if o.json && o.show {
		return explore.Options{}, &usageError{Msg: g.T("explore.err.formats")}
	}
	if o.json && o.emit {
		return explore.Options{}, &usageError{Msg: g.T("explore.err.emit-json")}
	}
	if o.strategy != "" && !o.show && !o.emit {
		return explore.Options{}, &usageError{Msg: g.T("explore.err.strategy-alone"), Hint: g.T("err.hint.help", cmd.CommandPath())}
	}
	if o.random < 0 || o.random > maxExploreSamples {
		return explore.Options{}, &usageError{Msg: g.T("err.param.range", "random", 0, maxExploreSamples, o.random)}
	}
	if o.workers < 0 || o.workers > maxExploreWorkers {
		return explore.Options{}, &usageError{Msg: g.T("err.param.range", "workers", 0, maxExploreWorkers, o.workers)}
	}
	if !slices.Contains(explore.Engines, explore.Engine(o.engine)) {
		return explore.Options{}, &usageError{Msg: g.T("explore.err.engine", o.engine)}
	}
	if o.random > 0 && cmd.Flags().Changed("engine") && explore.Engine(o.engine) == explore.EngineStates {
		return explore.Options{}, &usageError{Msg: g.T("explore.err.engine-random")}
	}
	seedSet := cmd.Flags().Changed("seed")
	if seedSet && o.random == 0 {
		return explore.Options{}, &usageError{Msg: g.T("explore.err.seed-without-random"), Hint: g.T("explore.err.hint.random")}
	}
	// The seed has a fixed default, so the same command prints the same
	// bytes; another sample is one --seed away.
	// Left unset, the engine is each mechanism's default.
	var engine explore.Engine
	if cmd.Flags().Changed("engine") {
		engine = explore.Engine(o.engine)
	}
	return explore.Options{Workers: o.workers, Samples: uint64(o.random), Seed: o.seed, Engine: engine}, nil
}

// run explores, reports the rate on stderr and renders the report on
// stdout. stdout depends only on the flags (and the seed): no timing.
func (o *exploreOptions) run(ctx context.Context, name string, opts explore.Options,
	fn func(context.Context, explore.Options) (*explore.Report, error)) error {
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
	rep, err := o.withProgress(name, &opts, func() (*explore.Report, error) {
		r, err := fn(ctx, opts)
		return r, err
	})
	elapsed := time.Since(start)
	if status.StoppedBySignal(ctx) {
		return &interruptedError{Msg: o.g.T("explore.err.interrupted"), Code: status.SignalStatus(ctx)}
	}
	if err != nil {
		return o.scopeError(name, err)
	}
	o.rate(rep, elapsed, workers)
	switch {
	case o.json:
		if err := term.WriteJSON(o.g.IO.Out, term.ExploreJSON(o.g.Lang, rep)); err != nil {
			return err
		}
	case o.emit:
		if err := o.emitFiles(rep); err != nil {
			return err
		}
	default:
		r := o.g.Renderer()
		if err := r.Explore(rep); err != nil {
			return err
		}
		if o.show {
			if _, err := o.picked(rep); err != nil {
				return err
			}
			if err := r.ExploreTraces(rep, o.strategy); err != nil {
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
func (o *exploreOptions) withProgress(name string, opts *explore.Options, fn func() (*explore.Report, error)) (*explore.Report, error) {
	var done, total atomic.Uint64
	opts.Progress = func(n int, all uint64) {
		total.Store(all)
		done.Add(uint64(n))
	}
	// The state engine counts states, and cannot know how many there are
	// until it has seen them all: a spinner with the count.
	unit, size := "schedules", func() int64 { return int64(total.Load()) }
	if explore.EngineFor(name, *opts) == explore.EngineStates {
		unit, size = "states", func() int64 { return -1 }
	}
	m := term.Meter{Desc: o.g.T("explore.progress", name), Unit: o.g.T("explore.progress.unit." + unit), Total: size, Done: done.Load,
		// If the count of schedules is known, an estimate of the time
		// says how long the rest will take.
		Shown: func(elapsed time.Duration) {
			if d, all := done.Load(), total.Load(); unit == "schedules" && d > 0 && all > d {
				rest := time.Duration(float64(elapsed) * float64(all-d) / float64(d))
				fmt.Fprintln(o.g.IO.Err, o.g.T("explore.estimate", name, term.GroupDigits(all), o.g.Duration(rest.Round(time.Second))))
			}
		}}
	var rep *explore.Report
	var err error
	term.WithProgress(o.g.IO.Err, m, func() { rep, err = fn() })
	return rep, err
}

// rate prints the throughput on stderr: the only line with timing in it.
func (o *exploreOptions) rate(rep *explore.Report, elapsed time.Duration, workers int) {
	perSec := "—"
	if s := elapsed.Seconds(); s > 0 {
		perSec = term.GroupDigits(uint64(float64(rep.Schedules) / s))
	}
	if rep.Engine == explore.EngineStates {
		fmt.Fprintln(o.g.IO.Err, o.g.T("explore.rate.states", rep.Mechanism, term.GroupDigits(rep.Schedules), len(rep.Strategies),
			term.GroupDigits(rep.States), o.g.Duration(elapsed), workers))
		return
	}
	fmt.Fprintln(o.g.IO.Err, o.g.T("explore.rate", rep.Mechanism, term.GroupDigits(rep.Schedules), len(rep.Strategies),
		o.g.Duration(elapsed), workers, perSec))
}

// scopeError turns the engine's refusal into one usage line.
func (o *exploreOptions) scopeError(name string, err error) error {
	g := o.g
	var se *explore.ScopeError
	if errors.As(err, &se) && errors.Is(err, explore.ErrRange) {
		return &usageError{Msg: g.T("err.param.range", se.Flag, se.Min, se.Max, se.Value)}
	}
	if errors.As(err, &se) && errors.Is(err, explore.ErrTooManyStates) {
		return &usageError{Msg: g.T("explore.err.too-many-states", name, term.GroupDigits(se.Limit)), Hint: g.T("explore.err.hint.random")}
	}
	if errors.Is(err, explore.ErrNoStateGraph) {
		return &usageError{Msg: g.T("explore.err.no-states", name)}
	}
	if errors.Is(err, explore.ErrOverflow) {
		return &usageError{Msg: g.T("explore.err.overflow", name), Hint: g.T("explore.err.hint.random")}
	}
	if errors.As(err, &se) && errors.Is(err, explore.ErrTooLarge) {
		return &usageError{Msg: g.T("explore.err.too-large", name, term.GroupDigits(se.Schedules), term.GroupDigits(se.Limit)), Hint: g.T("explore.err.hint.random")}
	}
	var de *explore.DriftError
	if errors.As(err, &de) {
		return &mismatchError{Msg: g.T("explore.err.drift", name, de.Strategy, de.Err)}
	}
	return err
}

// verdicts is the exit-1 error naming each strategy whose verdict is not
// the book's.
func (o *exploreOptions) verdicts(rep *explore.Report) error {
	var wrong []string
	for _, s := range rep.Strategies {
		if s.Verdict != explore.AsTheBook {
			wrong = append(wrong, s.Name)
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	return &mismatchError{Msg: o.g.T("explore.err.mismatch", len(wrong), rep.Mechanism, strings.Join(wrong, ", "))}
}

// faultTable lists §8.2's faults, a line each, from the harness's table.
func faultTable(g *cli.Env) string {
	width := 0
	for _, f := range harness.InboxFaults {
		width = max(width, len(f.Name))
	}
	var b strings.Builder
	for _, f := range harness.InboxFaults {
		if f.Fault() {
			fmt.Fprintf(&b, "  %-*s  %s\n", width, f.Name, g.T(f.DocKey()))
		}
	}
	return b.String()
}

// picked is the counterexamples --show and --emit print: every unsafe
// strategy's, or the STRATEGY argument's. A STRATEGY with no counterexample
// in the scope is an error naming the ones that have one.
func (o *exploreOptions) picked(rep *explore.Report) ([]*explore.Counterexample, error) {
	var out []*explore.Counterexample
	var unsafe []string
	for _, s := range rep.Strategies {
		if s.Shortest == nil {
			continue
		}
		unsafe = append(unsafe, s.Name)
		if o.strategy == "" || s.Name == o.strategy {
			out = append(out, s.Shortest)
		}
	}
	if o.strategy != "" && len(out) == 0 {
		e := &usageError{Msg: o.g.T("explore.err.no-counterexample", o.strategy)}
		if len(unsafe) > 0 {
			e.Hint = o.g.T("explore.err.hint.unsafe", strings.Join(unsafe, ", "))
		}
		return nil, e
	}
	return out, nil
}

// emitFiles prints the picked counterexamples as drill files, and nothing
// else, so that `archlab explore inbox naive --emit > naive.txtar` saves a
// file `archlab drill --file` replays. Several files are separated by a
// blank line.
func (o *exploreOptions) emitFiles(rep *explore.Report) error {
	ces, err := o.picked(rep)
	if err != nil {
		return err
	}
	for i, ce := range ces {
		text, err := ce.Emit(o.g.Lang)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(o.g.IO.Out)
		}
		fmt.Fprint(o.g.IO.Out, text)
	}
	return nil
}
