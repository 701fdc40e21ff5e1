package check

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"archlab/explore"
	"archlab/harness"
)

// TestStudentEnginesAgree is the state engine's claim for a student's
// code: the book's logic and every known-wrong variant get, from the
// states, the report the enumerator gives, number for number, on a grid
// of scopes around the checker's own.
func TestStudentEnginesAgree(t *testing.T) {
	inboxGrid := []explore.InboxScope{{Messages: 1, Faults: 1}, {Messages: 2, Faults: 2}, {Messages: 3, Faults: 2}, {Messages: 3, Faults: 3}, {Messages: 4, Faults: 2}}
	orderingGrid := []explore.OrderingScope{{Duplicates: 0, MaxAttempts: 1}, {Duplicates: 1, Poison: true, MaxAttempts: 2},
		explore.StudentOrderingScope, {Duplicates: 3, Poison: true, MaxAttempts: 4}}
	// The largest two scopes of each grid take a minute on two cores
	// (messages=4, faults=2 of a handler that never acks alone takes 15 s):
	// the long sweep (-tags long, once in CI) runs them, and only them;
	// go test ./... runs the first three of each, the same claim on
	// smaller scopes.
	if longOn {
		inboxGrid, orderingGrid = inboxGrid[3:], orderingGrid[3:]
	} else {
		inboxGrid, orderingGrid = inboxGrid[:3], orderingGrid[:3]
	}
	all := append([]variant{{"book", "consumer-handler", Book()}, {"book", "projection-decision", Book()}}, wrong...)
	for _, v := range all {
		if strings.HasPrefix(v.name, "durable-") {
			continue // an inbox table of its own: the states refuse it (TestDurableInboxIsDone)
		}
		switch v.exercise {
		case "consumer-handler":
			for _, sc := range inboxGrid {
				t.Run(fmt.Sprintf("%s/%s/messages=%d/faults=%d", v.exercise, v.name, sc.Messages, sc.Faults), func(t *testing.T) {
					agree(t, func(o explore.Options) (*explore.Report, error) {
						return explore.StudentInbox(context.Background(), sc, v.students, o)
					})
				})
			}
		case "projection-decision":
			for _, sc := range orderingGrid {
				t.Run(fmt.Sprintf("%s/%s/duplicates=%d/poison=%v/max-attempts=%d", v.exercise, v.name, sc.Duplicates, sc.Poison, sc.MaxAttempts), func(t *testing.T) {
					agree(t, func(o explore.Options) (*explore.Report, error) {
						return explore.StudentOrdering(context.Background(), sc, v.students, o)
					})
				})
			}
		}
	}
}

// agree runs one scope through both engines and compares the reports.
func agree(t *testing.T, run func(explore.Options) (*explore.Report, error)) {
	t.Helper()
	states, err := run(explore.Options{Engine: explore.EngineStates})
	if err != nil {
		t.Fatal(err)
	}
	enum, err := run(explore.Options{Engine: explore.EngineEnumerate})
	if err != nil {
		t.Fatal(err)
	}
	if states.Engine != explore.EngineStates || enum.Engine != explore.EngineEnumerate {
		t.Fatalf("engines %q and %q", states.Engine, enum.Engine)
	}
	type shortest struct {
		Index    uint64
		Length   int
		Schedule string
		Broken   []string
		Outcome  []harness.Msg
	}
	type strategy struct {
		Name       string
		Schedules  uint64
		Violations []explore.Count
		Broken     uint64
		Verdict    explore.Verdict
		Shortest   *shortest
	}
	view := func(r *explore.Report) []strategy {
		var out []strategy
		for _, s := range r.Strategies {
			st := strategy{s.Name, s.Schedules, s.Violations, s.Broken, s.Verdict, nil}
			if c := s.Shortest; c != nil {
				st.Shortest = &shortest{c.Index, c.Length, c.Schedule, c.Broken, c.Outcome}
			}
			out = append(out, st)
		}
		return out
	}
	if states.Schedules != enum.Schedules || states.Space != enum.Space {
		t.Fatalf("schedules %d of %d, enumerated %d of %d", states.Schedules, states.Space, enum.Schedules, enum.Space)
	}
	if a, b := view(states), view(enum); !reflect.DeepEqual(a, b) {
		t.Errorf("states:\n%+v\nenumerated:\n%+v", a, b)
	}
}
