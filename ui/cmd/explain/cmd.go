// Package explain is `archlab explain NAME`: a drill's or an exercise's
// lesson, in the reader's language.
package explain

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/ui/cli"
	"archlab/ui/cmd/drill"
	"archlab/ui/status"
	"archlab/ui/term"
)

// explainExercise prints an exercise's section, title and explanation:
// the task, the verbs, what is checked.
func explainExercise(g *cli.Env, e *check.Exercise) error {
	r := g.Renderer()
	for _, l := range term.WrapText(g.T(e.Section.TitleKey()), g.Width()) {
		fmt.Fprintln(g.IO.Out, r.P.Dim.Sprint(l))
	}
	term.WriteHanging(g.IO.Out, r.P.Bold.Sprint(e.Name)+" — ", strings.Repeat(" ", len(e.Name)+3), g.T(e.TitleKey()), g.Width())
	// What decides a verdict is the same for every exercise: said once,
	// after the exercise's own words.
	_, err := fmt.Fprintf(g.IO.Out, "\n%s\n\n%s\n", term.Reflow(asRun(g.T(e.ExplainKey()), g.Command()), g.Width()), term.Reflow(g.T("check.explain.verdict"), g.Width()))
	return err
}

// asRun writes each command on a line of its own (an indented line that
// starts with archlab, or go run ./cmd/archlab) the way the reader ran
// archlab: under go run, "go run ./cmd/archlab drill …", which runs with
// no archlab installed (issue 42). Drill files and the catalogue write
// their commands as the docs do.
func asRun(text, command string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		rest := strings.TrimLeft(l, " ")
		if rest == l {
			continue // prose, not a command line
		}
		for _, p := range []string{"go run ./cmd/archlab ", "archlab "} {
			if after, ok := strings.CutPrefix(rest, p); ok {
				lines[i] = l[:len(l)-len(rest)] + command + " " + after
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}

// NewCmd is `archlab explain NAME`: a drill's or an exercise's
// lesson, the code to read and what to try.
func NewCmd(g *cli.Env) *cobra.Command {
	return &cobra.Command{
		Use:     "explain <name>",
		Short:   g.T("help.explain.short"),
		Example: g.T("help.explain.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &status.Usage{Msg: g.T("err.explain.args", len(args)), Hint: g.T("err.hint.list")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := drills.Lookup(args[0])
			if err != nil {
				if e, err := check.Lookup(args[0]); err == nil {
					return explainExercise(g, e)
				}
				return drill.UnknownDrill(g, args[0])
			}
			r := g.Renderer()
			r.Header(d)
			_, err = fmt.Fprintf(g.IO.Out, "\n%s\n", term.Reflow(asRun(d.Explain(g.Lang), g.Command()), g.Width()))
			return err
		},
	}
}
