// Package drill is `archlab drill`: it checks the flags,
// prepares the stores and the broker they chose (SQLite, a consumer
// process, NATS, Kafka), reads and rewrites drill files, runs a drill of
// the student's code in a child, and lays the results out on the terminal
// (ui/term). NewCmd fills Options from the flags; cmd/archlab adds it to
// the root command.
package drill

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/numflag"
	"archlab/ui/status"
	"archlab/ui/term"
	"archlab/ui/view"
)

// Options are the flags of `archlab drill` and of every drill
// subcommand.
type Options struct {
	G       *cli.Env
	All     bool
	Chapter string
	JSON    bool
	Trace   bool
	Mermaid bool
	Step    bool
	File    string        // --file: a drill file, or a directory of them
	Rewrite bool          // --rewrite: fill in the files' expected counters
	Verbs   string        // --verbs SECTION: the harness's verbs
	Source  bool          // --source: print a drill's file
	Given   []string      // the drill's parameters the reader gave: "--keys 3"
	Stores  StoreOptions  // --store, --db, --crash: the §8.2 drills only
	Budget  drills.Budget // --max-steps, --max-deliveries, --max-keys, --max-time
	paths   []string      // the file each drill of --file came from
}

// Validate rejects flag combinations that have no meaning. name is the
// drill given on the command line, "" for --all/--chapter.
func (o *Options) Validate(name string) error {
	g := o.G
	if name != "" && (o.All || o.Chapter != "") {
		return &status.Usage{Msg: g.T("err.drill.name-and-all", name, manyFlag(o))}
	}
	if o.All && o.Chapter != "" {
		return &status.Usage{Msg: g.T("err.drill.all-and-chapter")}
	}
	if o.File != "" && (o.All || o.Chapter != "" || o.Verbs != "") {
		return &status.Usage{Msg: g.T("err.drill.file-and-many")}
	}
	if o.JSON && (o.Trace || o.Mermaid || o.Step) || o.Mermaid && (o.Trace || o.Step) {
		return &status.Usage{Msg: g.T("err.drill.formats")}
	}
	if t := o.Budget.Time; t <= 0 || t > drills.MaxTime {
		return &status.Usage{Msg: g.T("err.budget.time", t, drills.MaxTime)}
	}
	return nil
}

// AddBudgetFlags registers the budget a teacher may raise (drills.Budget):
// a run past one stops with exit 2 and names the flag.
func AddBudgetFlags(f *pflag.FlagSet, g *cli.Env, b *drills.Budget) {
	d := drills.DefaultBudget
	numflag.BoundedIntVar(f, &b.Steps, "max-steps", d.Steps, 1, drills.MaxSteps, g.T("help.flag.max-steps"))
	numflag.BoundedIntVar(f, &b.Deliveries, "max-deliveries", d.Deliveries, 1, drills.MaxDeliveries, g.T("help.flag.max-deliveries"))
	numflag.BoundedIntVar(f, &b.Keys, "max-keys", d.Keys, 1, drills.MaxKeys, g.T("help.flag.max-keys"))
	f.DurationVar(&b.Time, "max-time", d.Time, g.T("help.flag.max-time"))
}

// RunOne runs a single drill and renders it.
func (o *Options) RunOne(d *drills.Drill, v drills.Values) (err error) {
	s, err := o.openStores([]*drills.Drill{d}, false)
	if err != nil {
		return err
	}
	defer s.close(o.G, &err)
	res, err := s.run(d, v)
	if err := s.interrupted(o.G); err != nil {
		return err
	}
	if err != nil {
		return o.paramError(err)
	}
	if s.close(o.G, &err); err != nil {
		return err
	}
	if err := envFailure(o.G, []*drills.Result{res}); err != nil {
		return err
	}
	r := o.renderer(s)
	switch {
	case o.JSON:
		err = term.WriteJSON(o.G.IO.Out, term.DrillJSON(o.G.Lang, res, s.brokerName()))
	case o.Mermaid:
		err = r.Mermaid(res)
	default:
		err = r.Drill(res, o.Trace || o.Step)
	}
	if err != nil || r.Stopped {
		return err // q at a pause: the reader saw no verdict, and judges nothing
	}
	return Mismatch(o.G, []*drills.Result{res})
}

// RunMany runs drills with the book's parameters, in book order, and prints
// a summary table (or JSON, or one diagram per drill).
func (o *Options) RunMany(list []*drills.Drill) (err error) {
	s, err := o.openStores(list, true)
	if err != nil {
		return err
	}
	defer s.close(o.G, &err)
	results := make([]*drills.Result, 0, len(list))
	for _, d := range list {
		res, err := s.run(d, d.Defaults())
		if err := s.interrupted(o.G); err != nil {
			return err
		}
		if err != nil {
			return o.paramError(err) // a drill file that asks the impossible
		}
		results = append(results, res)
	}
	if s.close(o.G, &err); err != nil {
		return err
	}
	if err := envFailure(o.G, results); err != nil {
		return err
	}
	r := o.renderer(s)
	switch {
	case o.JSON:
		err = term.WriteJSON(o.G.IO.Out, term.DrillsJSON(o.G.Lang, results, s.brokerName()))
	case o.Mermaid:
		err = r.MermaidAll(results)
	default:
		if o.Trace || o.Step {
			for i, res := range results {
				// --step pauses before each drill too; q there skips
				// to the summary, q inside a drill stops the run
				// before its verdict.
				if i > 0 && r.Step && !r.Stopped {
					if err := r.Pause(o.G.T("cli.step.next-drill", res.Drill.Name)); err != nil {
						return err
					}
				}
				if r.Stopped {
					break
				}
				if err := r.Drill(res, true); err != nil || r.Stopped {
					return err
				}
				fmt.Fprintln(o.G.IO.Out)
			}
		}
		err = r.Summary(results, o.paths)
	}
	if err != nil {
		return err
	}
	return Mismatch(o.G, results)
}

// renderer renders for people, on the broker s runs on. --step pauses
// only where a person sits at a terminal on both ends; elsewhere it says
// so on stderr, once, and shows the timeline without pauses rather than
// ignoring the flag in silence.
func (o *Options) renderer(s *stores) *term.Renderer {
	step := o.Step && o.G.IO.InIsTerminal && o.G.IO.OutIsTerminal
	if o.Step && !step {
		fmt.Fprintln(o.G.IO.Err, o.G.T("cli.step.no-terminal"))
	}
	r := o.G.Renderer()
	r.Step, r.Broker = step, s.brokerLine()
	return r
}

// paramError turns a drill's *ParamError into one translated line.
func (o *Options) paramError(err error) error {
	g := o.G
	var pe *drills.ParamError
	if status.Own(err) {
		return err // a broker that stopped the drill: could not run
	}
	if !errors.As(err, &pe) {
		return &status.Usage{Msg: drills.ErrorText(g.Lang, err)}
	}
	var msg string
	if pe.Bounded {
		msg = g.T("err.param.range", pe.Flag, pe.Min, pe.Max, pe.Value)
	} else {
		msg = g.T("err.param.min", pe.Flag, pe.Min, pe.Value)
	}
	if pe.Why != "" {
		msg = g.T("err.param.why", msg, pe.WhyText(g.Lang))
		// A bound that moved because of another flag: name the flag the
		// reader gave, not only the one they left at its default.
		if !slices.ContainsFunc(o.Given, func(s string) bool { return strings.HasPrefix(s, "--"+pe.Flag+" ") }) && len(o.Given) > 0 {
			msg = g.T("err.param.derived", strings.Join(o.Given, " "), pe.WhyText(g.Lang), pe.Flag, pe.Value, pe.Flag, pe.Max)
		}
	}
	return &status.Usage{Msg: msg}
}

// Mismatch returns the exit-1 error naming the first drill and counter that
// disagree with the book, or the first lesson that failed.
func Mismatch(g *cli.Env, results []*drills.Result) error {
	var failed []string
	first, against := "", ""
	for _, res := range results {
		if res.Pass {
			continue
		}
		failed = append(failed, res.Drill.Name)
		if first == "" {
			first, against = view.FailureReason(g.Lang, res), view.Against(res.Drill)
		} else if view.Against(res.Drill) != against {
			against = "" // drills of both kinds: the book's word for all
		}
	}
	if len(failed) == 0 {
		return nil
	}
	key := "err.mismatch" + against
	if len(failed) == 1 {
		key += ".one" // "1 drill disagrees", not "1 drill(s) disagree"
	}
	return &status.Mismatch{Msg: g.T(key, len(failed), strings.Join(failed, ", "), first)}
}

// UnknownDrill names the bad drill and the nearest real ones.
func UnknownDrill(g *cli.Env, name string) error {
	e := &status.Usage{Msg: g.T("err.unknown-drill", name)}
	if near := drills.Nearest(name, drills.Names(), 3); len(near) > 0 {
		e.Hint = g.T("err.hint.did-you-mean", strings.Join(near, ", "))
	} else {
		e.Hint = g.T("err.hint.list")
	}
	return e
}

func SectionIDs() string {
	ids := make([]string, len(harness.Sections))
	for i, s := range harness.Sections {
		ids[i] = s.ID
	}
	return strings.Join(ids, ", ")
}

// Long is a drill's --help body: its place in the book, what it
// injects and what its counters show (the explanation's first paragraph is
// the scenario), and whether the counters are the book's or the lab's.
func Long(g *cli.Env, d *drills.Drill) string {
	var b strings.Builder
	// Paragraphs of their own: help reflows each paragraph to the width.
	fmt.Fprintf(&b, "%s\n\n%s\n\n", g.T(d.Sec().TitleKey()), d.Title(g.Lang))
	b.WriteString(d.Explain(g.Lang))
	b.WriteString("\n\n")
	names := make([]string, len(d.Book))
	for i, c := range d.Book {
		names[i] = c.Name + "=" + c.Value
	}
	key := "help.drill.book-counters"
	if d.LabOnly {
		key = "help.drill.lab-counters"
	}
	b.WriteString(g.T(key, strings.Join(names, " ")))
	if len(d.Params) > 0 {
		b.WriteString("\n\n" + g.T("help.drill.params"))
	}
	return b.String()
}

// Example is the Example block of a drill subcommand.
func Example(g *cli.Env, d *drills.Drill) string {
	lines := []string{
		"  # " + g.T("help.example.book"),
		"  $ archlab drill " + d.Name,
		"  # " + g.T("help.example.trace"),
		"  $ archlab drill " + d.Name + " --trace",
		"  # " + g.T("help.example.source"),
		"  $ archlab drill " + d.Name + " --source > my-drill.txtar",
	}
	// The what-ifs that teach: the experiments the explanation's "Try
	// next" suggests, each checked by running the drill.
	for _, l := range strings.Split(d.Explain(g.Lang), "\n") {
		if cmd := strings.TrimSpace(l); strings.HasPrefix(cmd, "archlab drill "+d.Name+" --") {
			lines = append(lines, "  # "+g.T("help.example.what-if"), "  $ "+cmd)
		}
	}
	return strings.Join(lines, "\n")
}

// envFailure is the "could not run" error of the first drill whose store
// failed because of the environment (a read-only or busy database, a full
// disk), or nil. Such a drill did not disagree with the book: it did not
// get to run, and CI must not read exit 1.
func envFailure(g *cli.Env, results []*drills.Result) error {
	for _, res := range results {
		if res.Err != nil && sqlite != nil && sqlite.environmental(res.Err) {
			return &status.CouldNotRun{Msg: g.T("err.env.run", res.Drill.Name, cli.FirstLine(res.Err.Error()))}
		}
	}
	return nil
}
