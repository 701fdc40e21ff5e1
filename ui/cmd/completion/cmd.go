// Package completion is `archlab completion SHELL`: the shell's
// completion script.
package completion

import (
	"github.com/spf13/cobra"

	"archlab/ui/cli"
	"archlab/ui/status"
)

// NewCmd is `archlab completion SHELL`: cobra's own scripts,
// with help in the reader's language (cobra's default command speaks
// English only).
func NewCmd(g *cli.Env, root *cobra.Command) *cobra.Command {
	var noDesc bool
	cmd := &cobra.Command{
		Use:   "completion {bash | zsh | fish | powershell}",
		Short: g.T("help.completion.short"),
		Long:  g.T("help.completion.long"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cli.UnknownCommand(g, cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &status.Usage{Msg: g.T("err.completion.shell"), Hint: g.T("err.hint.help", cmd.CommandPath())}
		},
	}
	shells := []struct {
		name string
		gen  func() error
	}{
		{"bash", func() error { return root.GenBashCompletionV2(g.IO.Out, !noDesc) }},
		{"zsh", func() error {
			if noDesc {
				return root.GenZshCompletionNoDesc(g.IO.Out)
			}
			return root.GenZshCompletion(g.IO.Out)
		}},
		{"fish", func() error { return root.GenFishCompletion(g.IO.Out, !noDesc) }},
		{"powershell", func() error {
			if noDesc {
				return root.GenPowerShellCompletion(g.IO.Out)
			}
			return root.GenPowerShellCompletionWithDesc(g.IO.Out)
		}},
	}
	for _, sh := range shells {
		sub := &cobra.Command{
			Use:                   sh.name,
			Short:                 g.T("help.completion.shell.short", sh.name),
			Long:                  g.T("help.completion." + sh.name + ".long"),
			Args:                  cli.NoArgs(g),
			DisableFlagsInUseLine: true,
			ValidArgsFunction:     cobra.NoFileCompletions,
			RunE:                  func(*cobra.Command, []string) error { return sh.gen() },
		}
		sub.Flags().BoolVar(&noDesc, "no-descriptions", false, g.T("help.flag.no-descriptions"))
		cmd.AddCommand(sub)
	}
	return cmd
}
