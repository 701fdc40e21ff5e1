package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/ui/cli"
	"archlab/ui/numflag"
	"archlab/ui/status"
	"archlab/ui/term"
	"archlab/ui/view"
)

// drillOptions are the flags of `archlab drill` and of every drill
// subcommand.
type drillOptions struct {
	g       *cli.Env
	all     bool
	chapter string
	json    bool
	trace   bool
	mermaid bool
	step    bool
	file    string        // --file: a drill file, or a directory of them
	rewrite bool          // --rewrite: fill in the files' expected counters
	verbs   string        // --verbs SECTION: the harness's verbs
	source  bool          // --source: print a drill's file
	given   []string      // the drill's parameters the reader gave: "--keys 3"
	stores  storeOptions  // --store, --db, --crash: the §8.2 drills only
	budget  drills.Budget // --max-steps, --max-deliveries, --max-keys, --max-time
	paths   []string      // the file each drill of --file came from
}

func newDrillCmd(g *cli.Env) *cobra.Command {
	o := &drillOptions{g: g}
	cmd := &cobra.Command{
		Use:     "drill {<name> | --all | --chapter <section>}",
		Short:   g.T("help.drill.short"),
		Long:    g.T("help.drill.long"),
		Example: g.T("help.drill.example") + "\n" + g.T("help.drill.example-store"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownDrill(g, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(""); err != nil {
				return err
			}
			if o.verbs != "" {
				return o.printVerbs(o.verbs)
			}
			if o.file != "" {
				list, err := o.loadFiles()
				if err != nil {
					return err
				}
				if o.rewrite {
					return o.rewriteFiles(list)
				}
				if ok, err := o.inChild(list); ok {
					return err // the student's code ran in a child (drillchild.go)
				}
				if len(list) == 1 {
					return o.runOne(list[0], list[0].Defaults())
				}
				return o.runMany(list)
			}
			if o.rewrite {
				return &usageError{Msg: g.T("err.rewrite-needs-file")}
			}
			if !o.all && o.chapter == "" {
				return &usageError{Msg: g.T("err.drill.nothing"), Hint: g.T("err.hint.list")}
			}
			list := drills.All()
			if o.chapter != "" {
				var err error
				if list, err = drills.InSection(o.chapter); err != nil {
					return &usageError{Msg: g.T("err.chapter", o.chapter, sectionIDs())}
				}
			}
			return o.runMany(list)
		},
	}
	f := cmd.PersistentFlags()
	f.BoolVar(&o.all, "all", false, g.T("help.flag.all"))
	f.StringVar(&o.chapter, "chapter", "", g.T("help.flag.chapter", sectionIDs()))
	f.BoolVar(&o.json, "json", false, g.T("help.flag.json"))
	f.BoolVar(&o.trace, "trace", false, g.T("help.flag.trace"))
	f.BoolVar(&o.mermaid, "mermaid", false, g.T("help.flag.mermaid"))
	f.BoolVar(&o.step, "step", false, g.T("help.flag.step"))
	addBudgetFlags(f, g, &o.budget)
	cmd.Flags().StringVar(&o.file, "file", "", g.T("help.flag.file"))
	cmd.Flags().BoolVar(&o.rewrite, "rewrite", false, g.T("help.flag.rewrite"))
	cmd.Flags().StringVar(&o.verbs, "verbs", "", g.T("help.flag.verbs"))
	addStoreFlags(cmd.Flags(), g, &o.stores)
	addBrokerFlags(cmd.Flags(), g, &o.stores.broker, nil)
	for _, d := range drillCommands(g) {
		cmd.AddCommand(newDrillSubcommand(o, d))
	}
	return cmd
}

// drillCommands are the drills that get a subcommand in this run's
// command tree: those the command line names, or all of them when it asks
// for the list (drill --help, help drill, shell completion). Building all
// eighteen, which parses their files and writes their help, was most of
// the start-up of `archlab drill ack-lost` and `archlab version`
// (issue 27). A word is taken for a drill's name wherever it stands: a
// flag's value that happens to be one only builds one command more.
func drillCommands(g *cli.Env) []*drills.Drill {
	at := slices.IndexFunc(g.Args, func(a string) bool { return strings.EqualFold(a, "drill") })
	completing := len(g.Args) > 0 && (strings.HasPrefix(g.Args[0], "__complete") || g.Args[0] == "completion")
	if at < 0 && !completing {
		return nil
	}
	listed := completing || slices.Contains(g.Args, "help")
	var named []*drills.Drill
	for i, a := range g.Args {
		switch {
		case a == "-h" || a == "--help" || strings.HasPrefix(a, "--help="):
			listed = true
		case i > at && !strings.HasPrefix(a, "-"):
			if d, err := drills.Lookup(a); err == nil && !slices.Contains(named, d) {
				named = append(named, d)
			}
		}
	}
	if len(named) == 0 && listed {
		return drills.All()
	}
	return named
}

// newDrillSubcommand builds `archlab drill NAME` from the registry entry:
// its help names the section, the fault, the counters and its flags.
func newDrillSubcommand(o *drillOptions, d *drills.Drill) *cobra.Command {
	g := o.g
	values := drills.Values{}
	cmd := &cobra.Command{
		Use:     d.Name + " [flags]",
		Short:   d.Title(g.Lang),
		Long:    drillLong(g, d),
		Example: drillExample(g, d),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &usageError{Msg: g.T("err.drill.args", d.Name, strings.Join(args, " ")), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(d.Name); err != nil {
				return err
			}
			if o.source {
				src, err := drills.Source(d)
				if err != nil {
					return err
				}
				_, err = g.IO.Out.Write(src)
				return err
			}
			for _, p := range d.Params {
				values[p.Name], _ = cmd.Flags().GetInt(p.Name)
				if cmd.Flags().Changed(p.Name) {
					o.given = append(o.given, fmt.Sprintf("--%s %d", p.Name, values[p.Name]))
				}
			}
			return o.runOne(d, values)
		},
	}
	for _, p := range d.Params {
		numflag.IntFlag(cmd.Flags(), p.Name, p.Default, d.ParamUsage(g.Lang, p))
	}
	cmd.Flags().BoolVar(&o.source, "source", false, g.T("help.flag.source"))
	addBrokerFlags(cmd.Flags(), g, &o.stores.broker, d)
	if d.HasEnv() {
		addStoreFlags(cmd.Flags(), g, &o.stores)
		cmd.Example += storeExample(g, d)
	}
	return cmd
}

// validate rejects flag combinations that have no meaning. name is the
// drill given on the command line, "" for --all/--chapter.
func (o *drillOptions) validate(name string) error {
	g := o.g
	if name != "" && (o.all || o.chapter != "") {
		return &usageError{Msg: g.T("err.drill.name-and-all", name, manyFlag(o))}
	}
	if o.all && o.chapter != "" {
		return &usageError{Msg: g.T("err.drill.all-and-chapter")}
	}
	if o.file != "" && (o.all || o.chapter != "" || o.verbs != "") {
		return &usageError{Msg: g.T("err.drill.file-and-many")}
	}
	if o.json && (o.trace || o.mermaid || o.step) || o.mermaid && (o.trace || o.step) {
		return &usageError{Msg: g.T("err.drill.formats")}
	}
	if t := o.budget.Time; t <= 0 || t > drills.MaxTime {
		return &usageError{Msg: g.T("err.budget.time", t, drills.MaxTime)}
	}
	return nil
}

// addBudgetFlags registers the budget a teacher may raise (drills.Budget):
// a run past one stops with exit 2 and names the flag.
func addBudgetFlags(f *pflag.FlagSet, g *cli.Env, b *drills.Budget) {
	d := drills.DefaultBudget
	numflag.BoundedIntVar(f, &b.Steps, "max-steps", d.Steps, 1, drills.MaxSteps, g.T("help.flag.max-steps"))
	numflag.BoundedIntVar(f, &b.Deliveries, "max-deliveries", d.Deliveries, 1, drills.MaxDeliveries, g.T("help.flag.max-deliveries"))
	numflag.BoundedIntVar(f, &b.Keys, "max-keys", d.Keys, 1, drills.MaxKeys, g.T("help.flag.max-keys"))
	f.DurationVar(&b.Time, "max-time", d.Time, g.T("help.flag.max-time"))
}

// runOne runs a single drill and renders it.
func (o *drillOptions) runOne(d *drills.Drill, v drills.Values) (err error) {
	s, err := o.openStores([]*drills.Drill{d}, false)
	if err != nil {
		return err
	}
	defer s.close(o.g, &err)
	res, err := s.run(d, v)
	if err := s.interrupted(o.g); err != nil {
		return err
	}
	if err != nil {
		return o.paramError(err)
	}
	if s.close(o.g, &err); err != nil {
		return err
	}
	if err := envFailure(o.g, []*drills.Result{res}); err != nil {
		return err
	}
	r := o.renderer(s)
	switch {
	case o.json:
		err = term.WriteJSON(o.g.IO.Out, term.DrillJSON(o.g.Lang, res, s.brokerName()))
	case o.mermaid:
		err = r.Mermaid(res)
	default:
		err = r.Drill(res, o.trace || o.step)
	}
	if err != nil {
		return err
	}
	return mismatch(o.g, []*drills.Result{res})
}

// runMany runs drills with the book's parameters, in book order, and prints
// a summary table (or JSON, or one diagram per drill).
func (o *drillOptions) runMany(list []*drills.Drill) (err error) {
	s, err := o.openStores(list, true)
	if err != nil {
		return err
	}
	defer s.close(o.g, &err)
	results := make([]*drills.Result, 0, len(list))
	for _, d := range list {
		res, err := s.run(d, d.Defaults())
		if err := s.interrupted(o.g); err != nil {
			return err
		}
		if err != nil {
			return o.paramError(err) // a drill file that asks the impossible
		}
		results = append(results, res)
	}
	if s.close(o.g, &err); err != nil {
		return err
	}
	if err := envFailure(o.g, results); err != nil {
		return err
	}
	r := o.renderer(s)
	switch {
	case o.json:
		err = term.WriteJSON(o.g.IO.Out, term.DrillsJSON(o.g.Lang, results, s.brokerName()))
	case o.mermaid:
		err = r.MermaidAll(results)
	default:
		if o.trace || o.step {
			for i, res := range results {
				// --step pauses before each drill too; q skips to
				// the summary.
				if i > 0 && r.Step && !r.Stopped {
					if err := r.Pause(o.g.T("cli.step.next-drill", res.Drill.Name)); err != nil {
						return err
					}
				}
				if r.Stopped {
					break
				}
				if err := r.Drill(res, true); err != nil {
					return err
				}
				fmt.Fprintln(o.g.IO.Out)
			}
		}
		err = r.Summary(results, o.paths)
	}
	if err != nil {
		return err
	}
	return mismatch(o.g, results)
}

// renderer renders for people, on the broker s runs on. --step pauses
// only where a person sits at a terminal on both ends; elsewhere it says
// so on stderr, once, and shows the timeline without pauses rather than
// ignoring the flag in silence.
func (o *drillOptions) renderer(s *stores) *term.Renderer {
	step := o.step && o.g.IO.InIsTerminal && o.g.IO.OutIsTerminal
	if o.step && !step {
		fmt.Fprintln(o.g.IO.Err, o.g.T("cli.step.no-terminal"))
	}
	r := o.g.Renderer()
	r.Step, r.Broker = step, s.brokerLine()
	return r
}

// paramError turns a drill's *ParamError into one translated line.
func (o *drillOptions) paramError(err error) error {
	g := o.g
	var pe *drills.ParamError
	if status.Own(err) {
		return err // a broker that stopped the drill: could not run
	}
	if !errors.As(err, &pe) {
		return &usageError{Msg: drills.ErrorText(g.Lang, err)}
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
		if !slices.ContainsFunc(o.given, func(s string) bool { return strings.HasPrefix(s, "--"+pe.Flag+" ") }) && len(o.given) > 0 {
			msg = g.T("err.param.derived", strings.Join(o.given, " "), pe.WhyText(g.Lang), pe.Flag, pe.Value, pe.Flag, pe.Max)
		}
	}
	return &usageError{Msg: msg}
}

// mismatch returns the exit-1 error naming the first drill and counter that
// disagree with the book, or the first lesson that failed.
func mismatch(g *cli.Env, results []*drills.Result) error {
	var failed []string
	first := ""
	for _, res := range results {
		if res.Pass {
			continue
		}
		failed = append(failed, res.Drill.Name)
		if first == "" {
			first = view.FailureReason(g.Lang, res)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &mismatchError{Msg: g.T("err.mismatch", len(failed), strings.Join(failed, ", "), first)}
}

// unknownDrill names the bad drill and the nearest real ones.
func unknownDrill(g *cli.Env, name string) error {
	e := &usageError{Msg: g.T("err.unknown-drill", name)}
	if near := drills.Nearest(name, drills.Names(), 3); len(near) > 0 {
		e.Hint = g.T("err.hint.did-you-mean", strings.Join(near, ", "))
	} else {
		e.Hint = g.T("err.hint.list")
	}
	return e
}

func sectionIDs() string {
	ids := make([]string, len(drills.Sections))
	for i, s := range drills.Sections {
		ids[i] = s.ID
	}
	return strings.Join(ids, ", ")
}

// drillLong is a drill's --help body: its place in the book, what it
// injects and what its counters show (the explanation's first paragraph is
// the scenario), and whether the counters are the book's or the lab's.
func drillLong(g *cli.Env, d *drills.Drill) string {
	s, _ := drills.SectionByID(d.Section)
	var b strings.Builder
	// Paragraphs of their own: help reflows each paragraph to the width.
	fmt.Fprintf(&b, "%s\n\n%s\n\n", g.T(s.TitleKey()), d.Title(g.Lang))
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

// drillExample is the Example block of a drill subcommand.
func drillExample(g *cli.Env, d *drills.Drill) string {
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
