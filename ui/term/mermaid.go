package term

import (
	"fmt"
	"strings"

	"archlab/drills"
	"archlab/ui/view"
)

// Mermaid prints a drill's steps as a Mermaid sequence diagram: the same
// recorded steps as the trace, one message line per step.
func (r *Renderer) Mermaid(res *drills.Result) error {
	_, err := fmt.Fprint(r.out(), r.Diagram(res))
	return err
}

// MermaidAll prints one diagram per drill as a Markdown document, each in a
// ```mermaid fence under a heading, ready to paste into notes.
func (r *Renderer) MermaidAll(results []*drills.Result) error {
	for i, res := range results {
		if i > 0 {
			fmt.Fprintln(r.out())
		}
		fmt.Fprintf(r.out(), "## §%s %s\n\n```mermaid\n%s```\n", res.Drill.Section, res.Drill.Name, r.Diagram(res))
	}
	return nil
}

// Diagram builds the diagram text from the shared diagram model (package
// view, which the web page draws as SVG). Participants are declared in
// order of first appearance, with ids made of safe characters and their
// display names as aliases; a phase change is a Note across all
// participants.
func (r *Renderer) Diagram(res *drills.Result) string {
	d := view.DiagramOf(view.Rows(r.Lang, res.Steps))
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	ids := make([]string, len(d.Participants))
	for i, p := range d.Participants {
		ids[i] = mermaidID(p.ID)
		fmt.Fprintf(&b, "    participant %s as %s\n", ids[i], mermaidText(p.Name))
	}
	span := ids[0]
	if len(ids) > 1 {
		span += "," + ids[len(ids)-1]
	}
	for _, it := range d.Items {
		if it.Note != "" {
			fmt.Fprintf(&b, "    Note over %s: %s\n", span, mermaidText(it.Note))
			continue
		}
		arrow := "->>"
		if it.Fault {
			arrow = "-x" // a fault: the cross shows in the diagram
		}
		fmt.Fprintf(&b, "    %s%s%s: %s\n", ids[it.From], arrow, ids[it.To], mermaidText(it.Label))
	}
	return b.String()
}

// mermaidID keeps letters, digits and underscores: a '-' inside an id would
// read as the start of an arrow.
func mermaidID(role string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, role)
}

// mermaidText escapes label text with Mermaid's entity codes, so no step can
// end a line, open an entity, end a statement or be read as markup.
func mermaidText(s string) string {
	return strings.NewReplacer(
		"\n", " ", "\r", " ",
		"#", "#35;", ";", "#59;", "%", "#37;",
		"<", "#lt;", ">", "#gt;",
	).Replace(s)
}
