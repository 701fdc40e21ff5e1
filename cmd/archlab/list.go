package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"archlab/drills"
)

func newListCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   g.t("help.list.short"),
		Example: g.t("help.list.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p := newPalette(g.colour())
			for i, s := range drills.Sections {
				if i > 0 {
					fmt.Fprintln(g.io.Out)
				}
				fmt.Fprintf(g.io.Out, "%s  %s\n", p.bold.Sprint(g.t(s.TitleKey())), p.dim.Sprint(s.Package))
				list, _ := drills.InSection(s.ID)
				for _, d := range list {
					fmt.Fprintf(g.io.Out, "  %-20s %s\n", d.Name, g.t(d.TitleKey()))
				}
			}
			return nil
		},
	}
}
