package main

import (
	"fmt"
	"io"
	"strings"

	"archlab/harness"
)

// printArgDocs prints, under a verb, each optional argument that has its
// own explanation (a fault of its section's table armed by a count), one a
// line: "crash-after=N  the worker dies right after its Nth item …".
func printArgDocs(w io.Writer, g *globalOptions, args []harness.Arg, width int) {
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
		writeHanging(w, head, strings.Repeat(" ", len(head)), g.t(a.DocKey), width)
	}
}
