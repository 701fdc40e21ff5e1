package main

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"archlab/drills"
	"archlab/explore"
	"archlab/explore/front"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/numflag"
	"archlab/ui/status"
)

// newExploreCmd is `archlab explore {inbox | ordering | shardjob}`: each
// subcommand's flags fill a scope and explore/front's Options, which
// explores it and reports.
func newExploreCmd(g *cli.Env) *cobra.Command {
	o := &front.Options{G: g}
	cmd := &cobra.Command{
		Use:     "explore {inbox | ordering | shardjob}",
		Short:   g.T("explore.help.short"),
		Long:    g.T("explore.help.long"),
		Example: g.T("explore.help.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				e := &status.Usage{Msg: g.T("explore.err.unknown", args[0], front.Mechanisms)}
				if near := drills.Nearest(args[0], strings.Split(front.Mechanisms, ", "), 1); len(near) > 0 {
					e.Hint = g.T("err.hint.did-you-mean", near[0])
				}
				return e
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &status.Usage{Msg: g.T("explore.err.nothing", front.Mechanisms), Hint: g.T("err.hint.help", cmd.CommandPath())}
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

	inbox := explore.DefaultInbox
	inboxCmd := subcommand(o, "inbox", func(ctx context.Context, opts explore.Options) (*explore.Report, error) {
		return explore.Inbox(ctx, inbox, opts)
	})
	numflag.IntVar(inboxCmd.Flags(), &inbox.Messages, "messages", inbox.Messages, g.T("explore.flag.messages"))
	numflag.IntVar(inboxCmd.Flags(), &inbox.Faults, "faults", inbox.Faults, g.T("explore.flag.faults"))
	inboxCmd.Flags().BoolVar(&inbox.Notify, "notify", false, g.T("explore.flag.notify"))

	ord := explore.DefaultOrdering
	orderingCmd := subcommand(o, "ordering", func(ctx context.Context, opts explore.Options) (*explore.Report, error) {
		return explore.Ordering(ctx, ord, opts)
	})
	numflag.IntVar(orderingCmd.Flags(), &ord.Duplicates, "duplicates", ord.Duplicates, g.T("explore.flag.duplicates"))
	orderingCmd.Flags().BoolVar(&ord.Poison, "poison", ord.Poison, g.T("explore.flag.poison"))
	numflag.IntVar(orderingCmd.Flags(), &ord.MaxAttempts, "max-attempts", ord.MaxAttempts, g.T("explore.flag.max-attempts"))

	shard := explore.DefaultShardjob
	shardCmd := subcommand(o, "shardjob", func(ctx context.Context, opts explore.Options) (*explore.Report, error) {
		return explore.Shardjob(ctx, shard, opts)
	})
	numflag.IntVar(shardCmd.Flags(), &shard.Keys, "keys", shard.Keys, g.T("explore.flag.keys"))

	cmd.AddCommand(inboxCmd, orderingCmd, shardCmd)
	return cmd
}

// subcommand builds `archlab explore NAME [STRATEGY]`; run explores the
// scope its flags have filled in. STRATEGY, one of the mechanism's
// strategies, picks the counterexample --show and --emit print.
func subcommand(o *front.Options, name string, run func(context.Context, explore.Options) (*explore.Report, error)) *cobra.Command {
	g := o.G
	sec, _ := harness.SectionByName(name)
	strategies := explore.Mechanisms[sec].Strategies
	long := g.T("explore.help." + name + ".long")
	if name == "inbox" {
		long = g.T("explore.help.inbox.long", front.FaultTable(g))
	}
	return &cobra.Command{
		Use:       name + " [STRATEGY] [flags]",
		Short:     g.T("explore.help." + name + ".short"),
		Long:      long + "\n\n" + g.T("explore.help.strategy"),
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
}
