package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
)

// explainExercise prints an exercise's section, title and explanation:
// the task, the verbs, what is checked.
func explainExercise(g *globalOptions, e *check.Exercise) error {
	r := &renderer{g: g, p: newPalette(g.colour())}
	sec, _ := drills.SectionByID(e.Section)
	fmt.Fprintln(g.io.Out, r.p.dim.Sprint(g.t(sec.TitleKey())))
	fmt.Fprintln(g.io.Out, r.p.bold.Sprint(e.Name)+" — "+g.t(e.TitleKey()))
	_, err := fmt.Fprintf(g.io.Out, "\n%s\n", g.t(e.ExplainKey()))
	return err
}

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
				if e, err := check.Lookup(args[0]); err == nil {
					return explainExercise(g, e)
				}
				return unknownDrill(g, args[0])
			}
			r := &renderer{g: g, p: newPalette(g.colour())}
			r.header(d)
			_, err = fmt.Fprintf(g.io.Out, "\n%s\n", g.t("explain."+d.Name))
			return err
		},
	}
}
