package drill

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"archlab/drills"
	"archlab/ui/cli"
	"archlab/ui/numflag"
	"archlab/ui/status"
)

// NewCmd is `archlab drill`: its flags fill Options,
// which runs the drills on the stores and brokers they chose; each drill
// the command line names gets a subcommand of its own.
func NewCmd(g *cli.Env) *cobra.Command {
	o := &Options{G: g}
	cmd := &cobra.Command{
		Use:     "drill {<name> | --all | --chapter <section>}",
		Short:   g.T("help.drill.short"),
		Long:    g.T("help.drill.long"),
		Example: g.T("help.drill.example") + "\n" + g.T("help.drill.example-store"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return UnknownDrill(g, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Validate(""); err != nil {
				return err
			}
			if o.Verbs != "" {
				return o.PrintVerbs(o.Verbs)
			}
			if o.File != "" {
				list, err := o.LoadFiles()
				if err != nil {
					return err
				}
				if o.Rewrite {
					return o.RewriteFiles(list)
				}
				if ok, err := o.InChild(list); ok {
					return err // the student's code ran in a child (ui/cmd/drill/child.go)
				}
				if len(list) == 1 {
					return o.RunOne(list[0], list[0].Defaults())
				}
				return o.RunMany(list)
			}
			if o.Rewrite {
				return &status.Usage{Msg: g.T("err.rewrite-needs-file")}
			}
			if !o.All && o.Chapter == "" {
				return &status.Usage{Msg: g.T("err.drill.nothing"), Hint: g.T("err.hint.list")}
			}
			list := drills.All()
			if o.Chapter != "" {
				var err error
				if list, err = drills.InSection(o.Chapter); err != nil {
					return &status.Usage{Msg: g.T("err.chapter", o.Chapter, SectionIDs())}
				}
			}
			return o.RunMany(list)
		},
	}
	f := cmd.PersistentFlags()
	f.BoolVar(&o.All, "all", false, g.T("help.flag.all"))
	f.StringVar(&o.Chapter, "chapter", "", g.T("help.flag.chapter", SectionIDs()))
	f.BoolVar(&o.JSON, "json", false, g.T("help.flag.json"))
	f.BoolVar(&o.Trace, "trace", false, g.T("help.flag.trace"))
	f.BoolVar(&o.Mermaid, "mermaid", false, g.T("help.flag.mermaid"))
	f.BoolVar(&o.Step, "step", false, g.T("help.flag.step"))
	AddBudgetFlags(f, g, &o.Budget)
	cmd.Flags().StringVar(&o.File, "file", "", g.T("help.flag.file"))
	cmd.Flags().BoolVar(&o.Rewrite, "rewrite", false, g.T("help.flag.rewrite"))
	cmd.Flags().StringVar(&o.Verbs, "verbs", "", g.T("help.flag.verbs"))
	AddStoreFlags(cmd.Flags(), g, &o.Stores)
	AddBrokerFlags(cmd.Flags(), g, &o.Stores, nil)
	for _, d := range drillCommands(g) {
		cmd.AddCommand(newDrillSubcommand(o, d))
	}
	return cmd
}

// drillCommands are the drills that get a subcommand in this run's
// command tree: those the command line names, or all of them when it asks
// for the list (drill --help, help drill, shell completion). Building all
// 29, which parses their files and writes their help, was most of
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
func newDrillSubcommand(o *Options, d *drills.Drill) *cobra.Command {
	g := o.G
	values := drills.Values{}
	cmd := &cobra.Command{
		Use:     d.Name + " [flags]",
		Short:   d.Title(g.Lang),
		Long:    Long(g, d),
		Example: Example(g, d),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &status.Usage{Msg: g.T("err.drill.args", d.Name, strings.Join(args, " ")), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Validate(d.Name); err != nil {
				return err
			}
			if o.Source {
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
					o.Given = append(o.Given, fmt.Sprintf("--%s %d", p.Name, values[p.Name]))
				}
			}
			return o.RunOne(d, values)
		},
	}
	for _, p := range d.Params {
		numflag.IntFlag(cmd.Flags(), p.Name, p.Default, d.ParamUsage(g.Lang, p))
	}
	cmd.Flags().BoolVar(&o.Source, "source", false, g.T("help.flag.source"))
	AddBrokerFlags(cmd.Flags(), g, &o.Stores, d)
	if d.Sec().RealStore {
		AddStoreFlags(cmd.Flags(), g, &o.Stores)
		cmd.Example += StoreExample(g, d)
	}
	return cmd
}
