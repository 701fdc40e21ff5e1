package explore

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/numflag"
	"archlab/ui/status"
)

// NewCmd is `archlab explore {inbox | ordering | shardjob}`: a
// subcommand per section with a row in exploreScopes and in the
// explorer's table, whose flags fill a scope and Options, which explores
// it and reports. A section that lacks either row has no subcommand
// (TestEverySectionHasEveryRow names it).
func NewCmd(g *cli.Env) *cobra.Command {
	o := &Options{G: g}
	var names []string
	var subs []*cobra.Command
	for _, sec := range harness.Sections {
		if scope, ok := exploreScopes[sec]; ok && explore.Mechanisms[sec] != nil {
			names = append(names, sec.Harness)
			subs = append(subs, subcommand(o, sec, scope))
		}
	}
	listed := strings.Join(names, ", ") // for errors
	cmd := &cobra.Command{
		Use:     "explore {" + strings.Join(names, " | ") + "}",
		Short:   g.T("explore.help.short"),
		Long:    g.T("explore.help.long"),
		Example: g.T("explore.help.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				e := &status.Usage{Msg: g.T("explore.err.unknown", args[0], listed)}
				if near := drills.Nearest(args[0], names, 1); len(near) > 0 {
					e.Hint = g.T("err.hint.did-you-mean", near[0])
				}
				return e
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &status.Usage{Msg: g.T("explore.err.nothing", listed), Hint: g.T("err.hint.help", cmd.CommandPath())}
		},
	}
	f := cmd.PersistentFlags()
	f.BoolVar(&o.JSON, "json", false, g.T("help.flag.json"))
	f.BoolVar(&o.Show, "show", false, g.T("explore.flag.show"))
	f.BoolVar(&o.Emit, "emit", false, g.T("explore.flag.emit"))
	numflag.IntVar(f, &o.Random, "random", 0, g.T("explore.flag.random"))
	numflag.Uint64Var(f, &o.Seed, "seed", 1, g.T("explore.flag.seed"))
	numflag.IntVar(f, &o.Workers, "workers", 0, g.T("explore.flag.workers"))
	f.StringVar(&o.Engine, "engine", string(explore.EngineStates), g.T("explore.flag.engine"))
	cmd.AddCommand(subs...)
	return cmd
}

// exploreRun explores the scope a subcommand's flags have filled in.
type exploreRun func(context.Context, explore.Options) (*explore.Report, error)

// scopeFlags adds the flags of a section's scope to f, and returns the walk
// they fill in and the arguments of the subcommand's long help.
type scopeFlags func(g *cli.Env, f *pflag.FlagSet) (run exploreRun, long []any)

// exploreScopes has a row for each section `archlab explore` walks.
var exploreScopes = map[*harness.Section]scopeFlags{
	&harness.InboxSection: func(g *cli.Env, f *pflag.FlagSet) (exploreRun, []any) {
		sc := explore.DefaultInbox
		numflag.IntVar(f, &sc.Messages, "messages", sc.Messages, g.T("explore.flag.messages"))
		numflag.IntVar(f, &sc.Faults, "faults", sc.Faults, g.T("explore.flag.faults"))
		f.BoolVar(&sc.Notify, "notify", false, g.T("explore.flag.notify"))
		return func(ctx context.Context, o explore.Options) (*explore.Report, error) {
			return explore.Inbox(ctx, sc, o)
		}, []any{FaultTable(g)}
	},
	&harness.OrderingSection: func(g *cli.Env, f *pflag.FlagSet) (exploreRun, []any) {
		sc := explore.DefaultOrdering
		numflag.IntVar(f, &sc.Duplicates, "duplicates", sc.Duplicates, g.T("explore.flag.duplicates"))
		f.BoolVar(&sc.Poison, "poison", sc.Poison, g.T("explore.flag.poison"))
		numflag.IntVar(f, &sc.MaxAttempts, "max-attempts", sc.MaxAttempts, g.T("explore.flag.max-attempts"))
		return func(ctx context.Context, o explore.Options) (*explore.Report, error) {
			return explore.Ordering(ctx, sc, o)
		}, nil
	},
	&harness.ShardjobSection: func(g *cli.Env, f *pflag.FlagSet) (exploreRun, []any) {
		sc := explore.DefaultShardjob
		numflag.IntVar(f, &sc.Keys, "keys", sc.Keys, g.T("explore.flag.keys"))
		return func(ctx context.Context, o explore.Options) (*explore.Report, error) {
			return explore.Shardjob(ctx, sc, o)
		}, nil
	},
}

// subcommand builds `archlab explore NAME [STRATEGY]` for sec, its flags
// from scope. STRATEGY, one of the section's strategies, picks the
// counterexample --show and --emit print.
func subcommand(o *Options, sec *harness.Section, scope scopeFlags) *cobra.Command {
	g := o.G
	name := sec.Harness
	strategies := explore.Mechanisms[sec].Strategies
	var run exploreRun
	cmd := &cobra.Command{
		Use:       name + " [STRATEGY] [flags]",
		Short:     g.T("explore.help." + name + ".short"),
		Example:   g.T("explore.help." + name + ".example"),
		ValidArgs: strategies,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &status.Usage{Msg: g.T("explore.err.args", name, strings.Join(args, " ")), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			if len(args) == 1 && !slices.Contains(strategies, args[0]) {
				e := &status.Usage{Msg: g.T("explore.err.strategy", name, args[0], strings.Join(strategies, ", "))}
				if near := drills.Nearest(args[0], strategies, 2); len(near) > 0 {
					e.Hint = g.T("err.hint.did-you-mean", near[0])
				}
				return e
			}
			o.Strategy = ""
			if len(args) == 1 {
				o.Strategy = args[0]
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := o.Check(cmd)
			if err != nil {
				return err
			}
			return o.Run(cmd.Context(), sec, opts, run)
		},
	}
	run, long := scope(g, cmd.Flags())
	cmd.Long = g.T("explore.help."+name+".long", long...) + "\n\n" + g.T("explore.help.strategy")
	return cmd
}
