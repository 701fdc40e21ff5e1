package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/ui/term"
)

// explainExercise prints an exercise's section, title and explanation:
// the task, the verbs, what is checked.
func explainExercise(g *globalOptions, e *check.Exercise) error {
	r := g.renderer()
	sec, _ := drills.SectionByID(e.Section)
	for _, l := range term.WrapText(g.t(sec.TitleKey()), g.width()) {
		fmt.Fprintln(g.io.Out, r.P.Dim.Sprint(l))
	}
	term.WriteHanging(g.io.Out, r.P.Bold.Sprint(e.Name)+" — ", strings.Repeat(" ", len(e.Name)+3), g.t(e.TitleKey()), g.width())
	_, err := fmt.Fprintf(g.io.Out, "\n%s\n", term.Reflow(g.t(e.ExplainKey()), g.width()))
	return err
}

func newExplainCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "explain <name>",
		Short:   g.t("help.explain.short"),
		Example: g.t("help.explain.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{Msg: g.t("err.explain.args", len(args)), Hint: g.t("err.hint.list")}
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
			r := g.renderer()
			r.Header(d)
			_, err = fmt.Fprintf(g.io.Out, "\n%s\n", term.Reflow(d.Explain(g.lang), g.width()))
			return err
		},
	}
}
