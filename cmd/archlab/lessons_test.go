package main

import (
	"os"
	"strings"
	"testing"

	"archlab/drills"
)

// TestReadmeLessons: every row of the lesson table (docs/lessons.md, linked
// from the README) names a drill
// that exists and a check that drill states, so the table cannot promise a
// lesson no drill teaches. Every built-in drill appears in it at least once.
func TestReadmeLessons(t *testing.T) {
	readme, err := os.ReadFile("../../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- lessons -->")
	table, _, ok2 := strings.Cut(rest, "<!-- /lessons -->")
	if !ok || !ok2 {
		t.Fatal("docs/lessons.md has no <!-- lessons --> … <!-- /lessons --> table")
	}
	taught := map[string]bool{}
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[2:] {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			t.Fatalf("lesson row %q: want | section | lesson | drill | check |", line)
		}
		section, lesson, name, check := cells[0], cells[1], cells[2], cells[3]
		rows++
		d, err := drills.Lookup(name)
		if err != nil {
			t.Errorf("%s %q: no drill %s", section, lesson, name)
			continue
		}
		if "§"+d.Section != section {
			t.Errorf("%s %q: drill %s is in §%s", section, lesson, name, d.Section)
		}
		res, err := d.Run(d.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range res.Checks {
			if c.Key == "check."+name+"."+check {
				found = true
				if !c.OK {
					t.Errorf("%s: check %s does not hold", name, check)
				}
			}
		}
		if !found {
			t.Errorf("%s %q: drill %s has no check %s", section, lesson, name, check)
		}
		taught[name] = true
	}
	if rows == 0 {
		t.Fatal("the lesson table is empty")
	}
	for _, d := range drills.All() {
		if !taught[d.Name] {
			t.Errorf("drill %s teaches no lesson in the table of docs/lessons.md", d.Name)
		}
	}
}
