package drill

import (
	"fmt"
	"io"
	"strings"

	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/status"
	"archlab/ui/term"
)

// PrintVerbs prints a section's verbs, one a line with its explanation, and
// the names counters and checks may read: the program's own list, so the
// drill-file reference (docs/drill-files.md) cannot drift from it.
func (o *Options) PrintVerbs(section string) error {
	g := o.G
	s, ok := harness.SectionByName(section)
	if !ok {
		return &status.Usage{Msg: g.T("err.verbs", section)}
	}
	w, width := g.IO.Out, g.Width()
	term.WriteHanging(w, "", "  ", g.T("cli.verbs.head", s.ID, s.Harness), width)
	for _, v := range s.Verbs {
		term.WriteHanging(w, "  ", "      ", v.Usage(), width)
		term.WriteHanging(w, "      ", "      ", g.T(v.HelpKey(s.ID)), width)
		printArgDocs(w, g, v.Args, width)
		for _, a := range v.Args {
			if a.ChoiceKey == nil {
				continue
			}
			pad := 0
			for _, c := range a.Shown() {
				pad = max(pad, len(c))
			}
			for _, c := range a.Shown() {
				head := fmt.Sprintf("        %-*s  ", pad, c)
				term.WriteHanging(w, head, strings.Repeat(" ", len(head)), g.T(a.ChoiceKey(c)), width)
			}
		}
	}
	printStaged(w, g, s.Staged, width)
	var obs []string
	for _, ob := range s.Observables {
		if ob.Args > 0 {
			obs = append(obs, ob.Name+"(…)")
		} else {
			obs = append(obs, ob.Name)
		}
	}
	term.WriteHanging(w, "", "  ", g.T("cli.verbs.observables", strings.Join(obs, ", ")), width)
	if len(s.Strategies) > 0 {
		term.WriteHanging(w, "", "  ", g.T("cli.verbs.strategies", strings.Join(s.Strategies, ", ")), width)
	}
	return nil
}

// printArgDocs prints, under a verb, each optional argument that has its
// own explanation (a fault of its section's table armed by a count), one a
// line: "crash-after=N  the worker dies right after its Nth item …".
func printArgDocs(w io.Writer, g *cli.Env, args []harness.Arg, width int) {
	pad := 0
	for _, a := range args {
		if a.DocKey != "" {
			pad = max(pad, len(a.Name)+2)
		}
	}
	for _, a := range args {
		if a.DocKey == "" {
			continue
		}
		head := fmt.Sprintf("        %-*s  ", pad, a.Name+"=N")
		term.WriteHanging(w, head, strings.Repeat(" ", len(head)), g.T(a.DocKey), width)
	}
}

// printStaged prints the faults of a section's table that the scenario
// stages rather than a verb's argument arms, one a line.
func printStaged(w io.Writer, g *cli.Env, staged []harness.StagedFault, width int) {
	if len(staged) == 0 {
		return
	}
	term.WriteHanging(w, "", "  ", g.T("cli.verbs.staged"), width)
	pad := 0
	for _, f := range staged {
		pad = max(pad, len(f.Name))
	}
	for _, f := range staged {
		head := fmt.Sprintf("  %-*s  ", pad, f.Name)
		term.WriteHanging(w, head, strings.Repeat(" ", len(head)), g.T(f.DocKey), width)
	}
}
