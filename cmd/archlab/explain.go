package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"archlab/drills"
)

func newExplainCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "explain <name>",
		Short:   g.t("help.explain.short"),
		Example: g.t("help.explain.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{msg: g.t("err.explain.args", len(args)), hint: g.t("err.hint.list")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := drills.Lookup(args[0])
			if err != nil {
				return unknownDrill(g, args[0])
			}
			r := &renderer{g: g, p: newPalette(g.colour())}
			r.header(d)
			_, err = fmt.Fprintf(g.io.Out, "\n%s\n", g.t("explain."+d.Name))
			return err
		},
	}
}
