package front

import (
	"fmt"
	"io"
	"strings"

	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/term"
)

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
