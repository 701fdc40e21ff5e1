package check

import (
	"context"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// NewCmd is `archlab check [EXERCISE]`: its flags fill Options,
// which checks and reports.
func NewCmd(g *cli.Env) *cobra.Command {
	o := &Options{G: g}
	cmd := &cobra.Command{
		Use:       "check [EXERCISE]",
		Short:     g.T("help.check.short"),
		Long:      g.T("help.check.long"),
		Example:   g.T("help.check.example"),
		ValidArgs: check.Names(),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &status.Usage{Msg: g.T("check.err.args", len(args)), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			if len(args) == 1 {
				if _, err := check.Lookup(args[0]); err != nil {
					return UnknownExercise(g, args[0])
				}
				o.Only = args[0]
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return o.Run(ctx)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, g.T("help.flag.json"))
	cmd.Flags().BoolVar(&o.Show, "show", false, g.T("check.flag.show"))
	cmd.Flags().BoolVar(&o.Hint, "hint", false, g.T("check.flag.hint"))
	cmd.Flags().StringVar(&o.Format, "format", "text", g.T("check.flag.format"))
	cmd.Flags().StringVar(&o.OutputDir, "output-dir", "", g.T("check.flag.output-dir", DefaultOutputDir))
	cmd.Flags().StringVar(&o.Timeout, "timeout", "", g.T("check.flag.timeout", g.Duration(check.DefaultTimeout)))
	cmd.Flags().BoolVar(&o.Watch, "watch", false, g.T("check.flag.watch"))
	cmd.Flags().BoolVar(&o.Child, "child", false, "")
	cmd.Flags().MarkHidden("child")
	return cmd
}
