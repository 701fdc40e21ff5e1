package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/ui/term"
)

// TestJSONCarriesTheBooksCounters: for every drill, --json holds exactly
// the book's counter names and values, in the book's order, as strings.
func TestJSONCarriesTheBooksCounters(t *testing.T) {
	for _, d := range drills.All() {
		t.Run(d.Name, func(t *testing.T) {
			out, errOut, code := runCLI(t, nil, "drill", d.Name, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var got term.JSONDrill
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.Drill != d.Name || got.Section != d.Section || !got.Pass || got.Title == "" {
				t.Fatalf("header: %+v", got)
			}
			if len(got.Counters) != len(d.Book) {
				t.Fatalf("%d counters, the book prints %d", len(got.Counters), len(d.Book))
			}
			for i, c := range got.Counters {
				want := d.Book[i]
				if c.Name != want.Name || fmt.Sprint(c.Value) != want.Value || c.Book == nil || fmt.Sprint(c.Book) != want.Value || c.Match == nil || !*c.Match {
					t.Errorf("counter %d: %+v, want %s=%s matched", i, c, want.Name, want.Value)
				}
			}
			if len(got.Checks) == 0 {
				t.Fatal("no lesson checks in the JSON")
			}
		})
	}
}

var (
	mermaidParticipant = regexp.MustCompile(`^    participant ([A-Za-z0-9_]+) as (.+)$`)
	mermaidMessage     = regexp.MustCompile(`^    ([A-Za-z0-9_]+)(->>|-x)([A-Za-z0-9_]+): (.+)$`)
	mermaidNote        = regexp.MustCompile(`^    Note over [A-Za-z0-9_]+(,[A-Za-z0-9_]+)?: .+$`)
	mermaidEntity      = regexp.MustCompile(`#(\d+|lt|gt);`)
)

// TestMermaidStructure checks each drill's diagram the way Mermaid parses
// it: the header line, declared participants, one message line per recorded
// step, and nothing else.
func TestMermaidStructure(t *testing.T) {
	for _, d := range drills.All() {
		for _, lang := range []string{"en", "zh"} {
			out, _, code := runCLI(t, nil, "drill", d.Name, "--mermaid", "--lang", lang)
			if code != 0 {
				t.Fatalf("%s: exit %d", d.Name, code)
			}
			res, err := d.Run(d.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			checkDiagram(t, d.Name+"/"+lang, out, len(res.Steps))
		}
	}
}

func checkDiagram(t *testing.T, name, out string, steps int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "sequenceDiagram" {
		t.Fatalf("%s: first line %q", name, lines[0])
	}
	declared := map[string]bool{}
	messages := 0
	for _, line := range lines[1:] {
		switch {
		case mermaidParticipant.MatchString(line):
			if messages > 0 {
				t.Fatalf("%s: participant declared after a message: %q", name, line)
			}
			declared[mermaidParticipant.FindStringSubmatch(line)[1]] = true
		case mermaidMessage.MatchString(line):
			m := mermaidMessage.FindStringSubmatch(line)
			if !declared[m[1]] || !declared[m[3]] {
				t.Fatalf("%s: undeclared participant in %q", name, line)
			}
			if strings.ContainsAny(mermaidEntity.ReplaceAllString(m[4], ""), ";#<>") {
				t.Fatalf("%s: unescaped label %q", name, m[4])
			}
			messages++
		case mermaidNote.MatchString(line):
		default:
			t.Fatalf("%s: line Mermaid would not parse: %q", name, line)
		}
	}
	if messages != steps {
		t.Fatalf("%s: %d message lines for %d recorded steps", name, messages, steps)
	}
}
