// Package list is `archlab list`: the drills by section, laid out by
// ui/term.
package list

import (
	"github.com/spf13/cobra"

	"archlab/ui/cli"
	"archlab/ui/term"
)

// NewCmd is `archlab list`: the drills by section (ui/term lays them
// out), or --json.
func NewCmd(g *cli.Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   g.T("help.list.short"),
		Example: g.T("help.list.example"),
		Args:    cli.NoArgs(g),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return term.WriteJSON(g.IO.Out, term.ListJSON(g.Lang))
			}
			return g.Renderer().List()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, g.T("help.flag.list-json"))
	return cmd
}
