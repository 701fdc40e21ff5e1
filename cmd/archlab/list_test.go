package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"archlab/drills"
	"archlab/ui/term"
)

// TestListJSON: list --json names every drill once, in the book's order,
// with the counters and parameters the registry holds.
func TestListJSON(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got term.JSONList
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got.Sections {
		for _, d := range s.Drills {
			names = append(names, d.Name)
			reg, err := drills.Lookup(d.Name)
			if err != nil || reg.Section != s.ID {
				t.Fatalf("%s under §%s: %v", d.Name, s.ID, err)
			}
			if len(d.Counters) != len(reg.Book) || len(d.Params) != len(reg.Params) {
				t.Fatalf("%s: %d counters, %d params; the registry has %d, %d", d.Name, len(d.Counters), len(d.Params), len(reg.Book), len(reg.Params))
			}
			for i, c := range d.Counters {
				if c.Name != reg.Book[i].Name || fmt.Sprint(c.Value) != reg.Book[i].Value {
					t.Errorf("%s: counter %d is %v=%v, the book's %s=%s", d.Name, i, c.Name, c.Value, reg.Book[i].Name, reg.Book[i].Value)
				}
			}
		}
	}
	var want []string
	for _, d := range drills.All() {
		want = append(want, d.Name)
	}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("list --json names %v, want %v", names, want)
	}
}
