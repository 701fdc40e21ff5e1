package main

import (
	"fmt"
	"strings"

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
			nameW := 0
			for _, d := range drills.All() {
				nameW = max(nameW, len(d.Name))
			}
			w := g.width()
			for i, s := range drills.Sections {
				if i > 0 {
					fmt.Fprintln(g.io.Out)
				}
				// The section's title on lines of its own, then its
				// package; each drill's title wraps under itself.
				for _, l := range wrapText(g.t(s.TitleKey()), w) {
					fmt.Fprintln(g.io.Out, p.bold.Sprint(l))
				}
				fmt.Fprintln(g.io.Out, p.dim.Sprint(s.Package))
				list, _ := drills.InSection(s.ID)
				for _, d := range list {
					first := fmt.Sprintf("  %-*s  ", nameW, d.Name)
					if len(first)+16 > w { // a narrow screen: the title under the name
						fmt.Fprintln(g.io.Out, "  "+d.Name)
						writeHanging(g.io.Out, "      ", "      ", d.Title(g.lang), w)
						continue
					}
					writeHanging(g.io.Out, first, strings.Repeat(" ", len(first)), d.Title(g.lang), w)
				}
			}
			return nil
		},
	}
}
