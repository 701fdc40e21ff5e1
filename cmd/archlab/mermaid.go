package main

import (
	"fmt"
	"strings"

	"archlab/drills"
)

// mermaid prints a drill's steps as a Mermaid sequence diagram: the same
// recorded steps as the trace, one message line per step.
func (r *renderer) mermaid(res *drills.Result) error {
	_, err := fmt.Fprint(r.out(), r.diagram(res))
	return err
}

// mermaidAll prints one diagram per drill as a Markdown document, each in a
// ```mermaid fence under a heading, ready to paste into notes.
func (r *renderer) mermaidAll(results []*drills.Result) error {
	for i, res := range results {
		if i > 0 {
			fmt.Fprintln(r.out())
		}
		fmt.Fprintf(r.out(), "## §%s %s\n\n```mermaid\n%s```\n", res.Drill.Section, res.Drill.Name, r.diagram(res))
	}
	return nil
}

// diagram builds the diagram text. Participants are declared in order of
// first appearance, with ids made of safe characters and their display
// names as aliases; a phase change is a Note across all participants.
func (r *renderer) diagram(res *drills.Result) string {
	var roles []string
	seen := map[string]bool{}
	for _, s := range res.Steps {
		for _, role := range []string{s.Actor, s.Target} {
			if !seen[role] {
				seen[role] = true
				roles = append(roles, role)
			}
		}
	}
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, role := range roles {
		fmt.Fprintf(&b, "    participant %s as %s\n", mermaidID(role), mermaidText(r.actor(role)))
	}
	span := mermaidID(roles[0])
	if len(roles) > 1 {
		span += "," + mermaidID(roles[len(roles)-1])
	}
	for i, s := range res.Steps {
		if i == 0 || s.Phase != res.Steps[i-1].Phase {
			fmt.Fprintf(&b, "    Note over %s: %s\n", span, mermaidText(r.g.t(s.Phase.Key())))
		}
		arrow := "->>"
		if s.Tone == drills.Bad {
			arrow = "-x" // a fault: the cross shows in the diagram
		}
		label := fmt.Sprintf("%d. %s: %s", i+1, r.msg(s.Action), r.msg(s.Result))
		fmt.Fprintf(&b, "    %s%s%s: %s\n", mermaidID(s.Actor), arrow, mermaidID(s.Target), mermaidText(label))
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
