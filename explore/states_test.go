package explore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"

	"archlab/harness"
)

// TestEnginesAgree is the state engine's claim: on every scope small
// enough to enumerate, it reports what the enumerator reports, number for
// number: the schedules, every strategy's violations per invariant, the
// schedules broken, the verdicts, and the shortest counterexample with its
// number in the enumeration, its schedule and what it broke.
func TestEnginesAgree(t *testing.T) {
	var grid []InboxScope
	for m := 1; m <= 4; m++ {
		for f := 1; f <= 3; f++ {
			if m+f <= 6 {
				grid = append(grid, InboxScope{Messages: m, Faults: f})
			}
		}
	}
	// The two largest scopes take a minute and a half on two cores: the
	// long sweep (-tags long, once in CI) runs them, and only them.
	if longOn {
		grid = []InboxScope{{Messages: 5, Faults: 2}, {Messages: 2, Faults: 5}}
	}
	if testing.Short() || raceOn {
		grid = grid[:4]
	}
	for _, sc := range grid {
		t.Run(fmt.Sprintf("inbox/messages=%d/faults=%d", sc.Messages, sc.Faults), func(t *testing.T) {
			bothEngines(t, func(o Options) (*Report, error) { return Inbox(ctx, sc, o) })
		})
	}
}

// TestEnginesAgreeOrdering is the same claim for §8.3, over duplicates,
// poison and budgets, the retry-budget table included.
func TestEnginesAgreeOrdering(t *testing.T) {
	var grid []OrderingScope
	for d := 0; d <= 3; d++ {
		for _, poison := range []bool{false, true} {
			for _, budget := range []int{1, 2, 4} {
				grid = append(grid, OrderingScope{Duplicates: d, Poison: poison, MaxAttempts: budget})
			}
		}
	}
	if testing.Short() || raceOn {
		grid = grid[:6]
	}
	for _, sc := range grid {
		t.Run(fmt.Sprintf("ordering/duplicates=%d/poison=%v/max-attempts=%d", sc.Duplicates, sc.Poison, sc.MaxAttempts), func(t *testing.T) {
			bothEngines(t, func(o Options) (*Report, error) { return Ordering(ctx, sc, o) })
		})
	}
}

// bothEngines explores one scope with each engine and compares the reports.
func bothEngines(t *testing.T, explore func(Options) (*Report, error)) {
	t.Helper()
	states, err := explore(Options{Engine: EngineStates})
	if err != nil {
		t.Fatal(err)
	}
	enum, err := explore(Options{Engine: EngineEnumerate})
	if err != nil {
		t.Fatal(err)
	}
	sameReport(t, states, enum)
}

// sameReport compares two reports of one scope, engines aside.
func sameReport(t *testing.T, states, enum *Report) {
	t.Helper()
	if states.Engine != EngineStates || enum.Engine != EngineEnumerate {
		t.Fatalf("engines %q and %q", states.Engine, enum.Engine)
	}
	if states.Schedules != enum.Schedules || states.Space != enum.Space {
		t.Fatalf("schedules %d of %d, enumerated %d of %d", states.Schedules, states.Space, enum.Schedules, enum.Space)
	}
	for i, s := range states.Strategies {
		e := enum.Strategies[i]
		if s.Name != e.Name || s.Schedules != e.Schedules || s.Broken != e.Broken || s.Verdict != e.Verdict ||
			!reflect.DeepEqual(s.Violations, e.Violations) {
			t.Errorf("%s: states %d broken %v %s, enumerated %d broken %v %s", s.Name, s.Broken, s.Violations, s.Verdict,
				e.Broken, e.Violations, e.Verdict)
			continue
		}
		if (s.Shortest == nil) != (e.Shortest == nil) {
			t.Errorf("%s: shortest %v, enumerated %v", s.Name, s.Shortest, e.Shortest)
			continue
		}
		if s.Shortest == nil {
			continue
		}
		a, b := s.Shortest, e.Shortest
		if a.Index != b.Index || a.Length != b.Length || a.Schedule != b.Schedule ||
			!reflect.DeepEqual(a.Broken, b.Broken) || !reflect.DeepEqual(a.Outcome, b.Outcome) {
			t.Errorf("%s: shortest #%d %q %v, enumerated #%d %q %v", s.Name, a.Index, a.Schedule, a.Broken, b.Index, b.Schedule, b.Broken)
		}
	}
	if !reflect.DeepEqual(states.Budgets, enum.Budgets) || !reflect.DeepEqual(states.Replay, enum.Replay) {
		t.Errorf("tables differ: %v %v, enumerated %v %v", states.Budgets, states.Replay, enum.Budgets, enum.Replay)
	}
}

// TestStateEngineScales: the largest inbox scope that fits is counted
// through its states, with no cap on schedules: 6 messages and 4 faults
// are 10,201,187,520 schedules, far past what the enumerator runs.
func TestStateEngineScales(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds")
	}
	rep, err := Inbox(ctx, InboxScope{Messages: 6, Faults: 4}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Schedules != inboxClosedForm(6, 4) || rep.Schedules != 10_201_187_520 || rep.Engine != EngineStates || !rep.Pass() {
		t.Fatalf("%d schedules, engine %s, pass %v", rep.Schedules, rep.Engine, rep.Pass())
	}
}

// chain is a toy space: a chain of depth states, each with two ways on to
// the next, whose last state stops: 2^depth schedules.
// Each step costs cost.
type chain struct{ depth, cost uint64 }

func (c chain) expand(key uint64, _ func() []uint16, to func(uint16, uint64, uint64), end func(uint8, uint64)) error {
	if key == c.depth {
		end(0, 0)
		return nil
	}
	to(0, key+1, c.cost)
	to(1, key+1, c.cost)
	return nil
}

// TestStateLimit: a walk past the limit is refused with the limit; the
// limit counts every state the walk holds, in every layer, and the states
// other walks of the exploration hold (seen).
func TestStateLimit(t *testing.T) {
	_, err := walkStates(ctx, chain{depth: 100}, 0, 1, 0, 50, nil)
	var se *ScopeError
	if !errors.Is(err, ErrTooManyStates) || !errors.As(err, &se) || se.Limit != 50 {
		t.Fatalf("err = %v", err)
	}
	// A chain of depth 9 holds 10 states, one a layer.
	for _, tt := range []struct {
		seen, limit int
		ok          bool
	}{
		{0, 10, true}, {0, 9, false}, {1, 10, false}, {3, 13, true}, {3, 12, false},
	} {
		lv, err := walkStates(ctx, chain{depth: 9}, 0, 1, tt.seen, tt.limit, nil)
		if (err == nil) != tt.ok || (err == nil && lv.states() != 10) {
			t.Errorf("seen %d, limit %d: err = %v; want ok=%v", tt.seen, tt.limit, err, tt.ok)
		}
		if err != nil && (!errors.As(err, &se) || se.States != uint64(tt.limit+1)) {
			t.Errorf("seen %d, limit %d: %v; want it to name %d states", tt.seen, tt.limit, err, tt.limit+1)
		}
	}
}

// TestProgressCountsTheStates: the progress the state engine reports sums
// to the states its report names, in each section.
func TestProgressCountsTheStates(t *testing.T) {
	for _, explore := range []func(Options) (*Report, error){
		func(o Options) (*Report, error) { return Inbox(ctx, InboxScope{Messages: 4, Faults: 3}, o) },
		func(o Options) (*Report, error) { return Ordering(ctx, DefaultOrdering, o) },
	} {
		var sum atomic.Uint64
		rep, err := explore(Options{Progress: func(done int, total uint64) {
			if total != 0 {
				t.Errorf("progress total %d: the state engine does not know it", total)
			}
			sum.Add(uint64(done))
		}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.States == 0 || sum.Load() != rep.States {
			t.Errorf("%s: progress sums to %d states, the report names %d", rep.Mechanism, sum.Load(), rep.States)
		}
	}
}

// TestOverflow: counts and costs past 2^64 are an error, not a wrapped
// number; below it they count exactly.
func TestOverflow(t *testing.T) {
	for _, c := range []chain{{depth: 65}, {depth: 60, cost: 16}} {
		if _, err := walkStates(ctx, c, 0, 1, 0, StateLimit, nil); !errors.Is(err, ErrOverflow) {
			t.Errorf("%+v: err = %v", c, err)
		}
	}
	lv, err := walkStates(ctx, chain{depth: 63}, 0, 1, 0, StateLimit, nil)
	if err != nil || lv.root().total != 1<<63 {
		t.Fatalf("2^63: err = %v, %+v", err, lv.root())
	}
	lv, err = walkStates(ctx, chain{depth: 58, cost: 1}, 0, 1, 0, StateLimit, nil)
	if err != nil || lv.root().total != 1<<58 || lv.root().cost != 58<<58 {
		t.Fatalf("58 steps of cost 1: err = %v, %+v", err, lv.root())
	}
}

// TestStatesStopWhenCancelled: a cancelled walk ends with the context's
// error, not a report, in either section.
func TestStatesStopWhenCancelled(t *testing.T) {
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Inbox(cancelled, InboxScope{Messages: MaxInboxMessages, Faults: MaxInboxFaults}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("inbox: err = %v", err)
	}
	if _, err := Ordering(cancelled, OrderingScope{Duplicates: MaxOrderingDuplicates, Poison: true, MaxAttempts: MaxOrderingAttempts}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("ordering: err = %v", err)
	}
}

// TestEngineFor: the engine each mechanism walks with, as the command
// names its progress: shardjob and samples schedule by schedule.
func TestEngineFor(t *testing.T) {
	for _, tt := range []struct {
		sec  *harness.Section
		o    Options
		want Engine
	}{
		{&harness.InboxSection, Options{}, EngineStates},
		{&harness.OrderingSection, Options{}, EngineStates},
		{&harness.ShardjobSection, Options{}, EngineEnumerate},
		{&harness.InboxSection, Options{Engine: EngineEnumerate}, EngineEnumerate},
		{&harness.OrderingSection, Options{Samples: 10}, EngineEnumerate},
	} {
		if got := EngineFor(tt.sec, tt.o); got != tt.want {
			t.Errorf("EngineFor(%s, %+v) = %s, want %s", tt.sec.Harness, tt.o, got, tt.want)
		}
	}
}

// TestOrderingKeyRoundTrips: a §8.3 state's key holds every count of
// copies the flags allow, and the snapshot's number, and gives them back.
func TestOrderingKeyRoundTrips(t *testing.T) {
	for _, id := range []uint32{0, 1, 707_544, 1<<32 - 1} {
		for c := 0; c <= 1+MaxOrderingDuplicates; c++ {
			left := [4]int{c, 1 + MaxOrderingDuplicates - c, c / 2, c % 2}
			gotID, gotLeft := orderingLeft(orderingKey(id, left))
			if gotID != id || gotLeft != left {
				t.Fatalf("key of %d %v reads back as %d %v", id, left, gotID, gotLeft)
			}
		}
	}
}

// TestEnginesAgreeNotify: with m1's outside call (--notify), the states
// count the calls never made and made more than once as the enumerator
// does (issue 43: --notify always enumerated, 60 s for a scope the states
// walk in a second).
func TestEnginesAgreeNotify(t *testing.T) {
	t.Parallel()
	grid := []InboxScope{{Messages: 1, Faults: 1}, {Messages: 2, Faults: 2}, {Messages: 3, Faults: 2}}
	if testing.Short() || raceOn {
		grid = grid[:2]
	}
	for _, sc := range grid {
		sc.Notify = true
		t.Run(fmt.Sprintf("inbox/messages=%d/faults=%d/notify", sc.Messages, sc.Faults), func(t *testing.T) {
			bothEngines(t, func(o Options) (*Report, error) { return Inbox(ctx, sc, o) })
			states, err1 := Inbox(ctx, sc, Options{Engine: EngineStates})
			enum, err2 := Inbox(ctx, sc, Options{Engine: EngineEnumerate})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			for i, s := range states.Strategies {
				if s.Outside == nil || *s.Outside != *enum.Strategies[i].Outside {
					t.Errorf("%s: outside calls %+v by states, %+v enumerated", s.Name, s.Outside, enum.Strategies[i].Outside)
				}
			}
		})
	}
}
