package explore

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"archlab/harness"
)

// ackLostWorld is the ack-lost drill's world: one payment.
var ackLostWorld = []harness.Call{{Verb: "message", Args: map[string]any{"msg": "pay:evt-1", "seq": 1, "order": "o-1", "amount": 2599}}}

func open(t *testing.T, st Start, path ...string) *State {
	t.Helper()
	s, err := Open(st, path)
	if err != nil {
		t.Fatalf("%s %v: %v", st.Strategy, path, err)
	}
	return s
}

func broken(s *State) []string {
	var out []string
	for _, p := range s.Props {
		if p.Broken {
			out = append(out, p.Name)
		}
	}
	return out
}

// TestStateActionsAreTheTable: the steps a §8.2 state offers are the rows
// of harness.InboxFaults for each message's broker state, in the table's
// order, with the rows' own words: the explorer's choices, not a list of
// the page's own.
func TestStateActionsAreTheTable(t *testing.T) {
	st := DefaultStart(&harness.InboxSection)
	wantFor := func(msg int, on harness.MsgState) []Action {
		var out []Action
		for k, row := range harness.InboxFaults {
			// The gap rows are a student's scope's, enumerated: no page
			// offers them.
			if row.On == on && !row.AtCalls() {
				out = append(out, Action{Segment: deliverSegment(msg, delivery(k)), Doc: harness.M(row.DocKey()), Fault: row.Fault()})
			}
		}
		return out
	}
	check := func(s *State, acked []bool) {
		t.Helper()
		var want []Action
		for i, a := range acked {
			on := harness.Unacked
			if a {
				on = harness.Acked
			}
			want = append(want, wantFor(i, on)...)
		}
		var got []Action
		for _, a := range s.Actions {
			if strings.HasPrefix(a.Segment, "deliver-") {
				got = append(got, Action{Segment: a.Segment, Doc: a.Doc, Fault: a.Fault})
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: the deliveries offered are\n%v\nwant the table's\n%v", s.Segments(), got, want)
		}
	}
	check(open(t, st), []bool{false, false, false})
	check(open(t, st, "deliver-m2"), []bool{false, true, false})
	check(open(t, st, "deliver-m2", "deliver-m1.ack-lost"), []bool{false, true, false})
	// The janitor's prune, once per seq the world's messages carry.
	s := open(t, st)
	var prunes []string
	for _, a := range s.Actions {
		if strings.HasPrefix(a.Segment, "prune-") {
			prunes = append(prunes, a.Segment)
		}
	}
	if !slices.Equal(prunes, []string{"prune-1", "prune-2"}) {
		t.Errorf("prunes offered: %v", prunes)
	}
}

// TestShardActionsAreTheTable: the faults a §11.2 state offers are the
// rows of harness.ShardFaults, in the table's order, with the rows' own
// words: each stop and failing sink as a form on the owner's run, and
// after a stop each zombie at the new owner's first read and first commit.
func TestShardActionsAreTheTable(t *testing.T) {
	st := DefaultStart(&harness.ShardjobSection)
	faults := func(s *State) (forms, zombies []Action) {
		for _, a := range s.Actions {
			switch {
			case a.Form != nil:
				forms = append(forms, Action{Segment: a.Segment, Doc: a.Doc, Fault: a.Fault})
			case a.Fault && strings.HasPrefix(a.Segment, "run-"):
				zombies = append(zombies, Action{Segment: a.Segment, Doc: a.Doc, Fault: a.Fault})
			}
		}
		return forms, zombies
	}
	var wantForms, wantZombies []Action
	for _, row := range harness.ShardFaults {
		m := strings.TrimSuffix(strings.TrimSuffix(row.Name, "-at"), "-after")
		switch {
		case row.Stop != harness.NoStop || row.Fails:
			wantForms = append(wantForms, Action{Segment: "run-shard-0.e2." + m + "-", Doc: harness.M(row.DocKey()), Fault: true})
		case row.Zombie != harness.NoZombie:
			for j := range 2 {
				wantZombies = append(wantZombies, Action{Segment: fmt.Sprintf("run-shard-0.e2.%s-%d", m, j), Doc: harness.M(row.DocKey()), Fault: true})
			}
		}
	}
	_, zombies := faults(open(t, st, "run-shard-0.e1.stall-25"))
	if !reflect.DeepEqual(zombies, wantZombies) {
		t.Errorf("after a stall, the zombies offered are\n%v\nwant the table's\n%v", zombies, wantZombies)
	}
	forms, _ := faults(open(t, st, "run-shard-0.e1.stall-25", "run-shard-0.e2"))
	// A segment names each row by a word of its own, none of the
	// other mods' (eN, every-C, at-K).
	seen := map[string]bool{"every": true, "at": true}
	for _, row := range harness.ShardFaults[1:] {
		if m := faultMod(row); seen[m] || m[0] == 'e' && len(m) > 1 && m[1] >= '0' && m[1] <= '9' {
			t.Errorf("row %s is named %q in a segment, as another mod is", row.Name, m)
		}
		seen[faultMod(row)] = true
	}
	if !reflect.DeepEqual(forms, wantForms) {
		t.Errorf("the stops offered are\n%v\nwant the table's\n%v", forms, wantForms)
	}
}

// TestStateNoEffect: a step that leaves the state as it is says so, and
// one that changes it does not.
func TestStateNoEffect(t *testing.T) {
	st := Start{Section: &harness.InboxSection, Strategy: string(harness.EffectThenAck), Decls: ackLostWorld}
	s := open(t, st, "deliver-m1")
	effect := map[string]bool{}
	for _, a := range s.Actions {
		effect[a.Segment] = a.Effect
	}
	// After the delivery, a replay is suppressed by the key (no effect),
	// a prune through seq 1 forgets the key (an effect).
	if effect["deliver-m1.replay"] || !effect["prune-1"] {
		t.Errorf("after deliver-m1: replay has an effect: %v, prune-1: %v; want false, true", effect["deliver-m1.replay"], effect["prune-1"])
	}
	s = open(t, st)
	for _, a := range s.Actions {
		if got, want := a.Effect, a.Segment != "deliver-m1.crash-before" && a.Segment != "deliver-m1.crash-mid" && a.Segment != "prune-1" &&
			a.Segment != "deliver-m1.effect-fails"; got != want { // the book's one transaction, refused: nothing commits
			t.Errorf("at the start, %s has an effect: %v, want %v", a.Segment, got, want)
		}
	}
	// The path's own steps carry the same mark.
	s = open(t, st, "deliver-m1.crash-before", "deliver-m1")
	if s.Path[0].Effect || !s.Path[1].Effect {
		t.Errorf("path effects: %v %v, want false true", s.Path[0].Effect, s.Path[1].Effect)
	}
}

// TestStateLost: the Done-when's branch: from ack-lost's world under
// mark-before-effect, a crash between the writes leaves the message's key
// held and its effect never applied: lost, here already. Under
// effect-then-ack the same step commits nothing, and nothing is lost.
func TestStateLost(t *testing.T) {
	st := Start{Section: &harness.InboxSection, Strategy: string(harness.MarkBeforeEffect), Decls: ackLostWorld}
	if got := broken(open(t, st, "deliver-m1.crash-mid")); !slices.Equal(got, []string{"lost"}) {
		t.Errorf("mark-before-effect, crash-mid: broken %v, want [lost]", got)
	}
	st.Strategy = string(harness.EffectThenAck)
	s := open(t, st, "deliver-m1.crash-mid")
	if got := broken(s); len(got) > 0 {
		t.Errorf("effect-then-ack, crash-mid: broken %v, want none", got)
	}
	if s.Reach != nil {
		t.Errorf("effect-then-ack: a violation within reach: %v", s.Reach.Steps)
	}
}

// TestPathErrors: a step that cannot be taken names its number and why.
func TestPathErrors(t *testing.T) {
	inbox := Start{Section: &harness.InboxSection, Strategy: string(harness.EffectThenAck), Decls: ackLostWorld}
	ordering := DefaultStart(&harness.OrderingSection)
	shard := DefaultStart(&harness.ShardjobSection)
	tests := []struct {
		st   Start
		path []string
		step int
		why  string
	}{
		{inbox, []string{"deliver-m9"}, 1, "state.err.no-message"},
		{inbox, []string{"deliver-m1", "deliver-m1.crash-mid"}, 2, "state.err.unacked-only"},
		{inbox, []string{"deliver-m1.replay"}, 1, "state.err.acked-only"},
		{inbox, []string{"deliver-m1.lose-it"}, 1, "state.err.no-fault"},
		{inbox, []string{"deliver-m1.ack-lost.crash-mid"}, 1, "state.err.segment"},
		{inbox, []string{"prune-x"}, 1, "state.err.prune"},
		{inbox, []string{"fly-m1"}, 1, "state.err.verb"},
		{ordering, []string{"deliver-evt-7"}, 1, "state.err.no-event"},
		{ordering, []string{"next"}, 1, "state.err.queue-empty"},
		{Start{Section: &harness.OrderingSection, Strategy: "retry-only", Decls: ordering.Decls}, []string{"reconcile-o-1"}, 1, "state.err.no-reconcile"},
		{shard, []string{"run-shard-1"}, 1, "state.err.no-shard"},
		{shard, []string{"run-shard-0.crash-31"}, 1, "state.err.mod"},
		{shard, []string{"run-shard-0.every-10.e1"}, 1, "state.err.canonical"},
		{shard, []string{"run-shard-0.e2.zombie-0"}, 1, "state.err.no-zombie"},
	}
	for _, tt := range tests {
		_, err := Open(tt.st, tt.path)
		var pe *PathError
		if !errors.As(err, &pe) || pe.Step != tt.step || pe.Segment != tt.path[tt.step-1] || pe.Why.Key != tt.why {
			t.Errorf("%s %v: %v, want step %d (%s): %s", tt.st.Section.Harness, tt.path, err, tt.step, tt.path[tt.step-1], tt.why)
		}
	}
	long := make([]string, MaxPath+1)
	for i := range long {
		long[i] = "deliver-m1.crash-before"
	}
	if _, err := Open(inbox, long); !errors.As(err, new(*PathError)) {
		t.Errorf("a path of %d steps: %v", len(long), err)
	}
	for _, st := range []Start{{Section: &harness.Section{Harness: "queue"}}, {Section: &harness.InboxSection, Strategy: "optimistic"}} {
		if _, err := Open(st, nil); !errors.As(err, new(*StartError)) {
			t.Errorf("%+v: %v, want a StartError", st, err)
		}
	}
}

// TestReachIsTheFewest: the fewest steps to a violation the state engine
// gives are what a breadth-first search over the page's own steps finds:
// an oracle that knows nothing of the engine. For every §8.2 strategy from
// the default start, and from a state in the middle.
func TestReachIsTheFewest(t *testing.T) {
	for _, strategy := range harness.InboxStrategies {
		for _, path := range [][]string{nil, {"deliver-m1.ack-lost"}} {
			st := DefaultStart(&harness.InboxSection)
			st.Strategy = string(strategy)
			s := open(t, st, path...)
			want, wantPath := bfsBroken(t, st, path, 3)
			switch {
			case s.Reach == nil && want >= 0:
				t.Errorf("%s %v: no reach, but %v breaks in %d", strategy, path, wantPath, want)
			case s.Reach != nil && len(s.Reach.Steps) != want:
				t.Errorf("%s %v: reach %v (%d steps), the search finds %v (%d)", strategy, path, s.Reach.Steps, len(s.Reach.Steps), wantPath, want)
			case s.Reach != nil:
				end := open(t, st, append(slices.Clone(path), s.Reach.Steps...)...)
				if got := broken(end); !slices.Equal(got, s.Reach.Broken) {
					t.Errorf("%s: the reach's end breaks %v, it says %v", strategy, got, s.Reach.Broken)
				}
			}
			if got := s.Reach != nil; got != !safeInbox(strategy) {
				t.Errorf("%s %v: a violation within reach: %v; the book says safe: %v", strategy, path, got, safeInbox(strategy))
			}
			// Each step's own distance is one more than its state's.
			for _, a := range s.Actions {
				if a.Dist < 0 {
					continue
				}
				next := open(t, st, append(slices.Clone(path), a.Segment)...)
				d := 0
				if next.Reach != nil {
					d = len(next.Reach.Steps)
				} else if len(broken(next)) == 0 {
					t.Errorf("%s: %s is %d from a violation, but its state is neither broken nor near one", strategy, a.Segment, a.Dist)
					continue
				}
				if a.Dist != d+1 {
					t.Errorf("%s: %s says %d, its state is %d away", strategy, a.Segment, a.Dist, d)
				}
			}
		}
	}
}

// bfsBroken is the fewest deliveries (the explorer's moves, with at most
// the default scope's faults) from path to a broken state, and one such
// path; -1 past depth.
func bfsBroken(t *testing.T, st Start, path []string, depth int) (int, []string) {
	type node struct {
		steps  []string
		faults int
	}
	walk := func(steps []string) walker {
		w, err := replay(&inboxModel, st, append(slices.Clone(path), steps...))
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	anyBroken := func(w walker) bool {
		return slices.ContainsFunc(w.props(), func(p Property) bool { return p.Broken })
	}
	frontier := []node{{}}
	for d := 1; d <= depth; d++ {
		var next []node
		for _, n := range frontier {
			for _, a := range walk(n.steps).actions() {
				if !strings.HasPrefix(a.Segment, "deliver-") {
					continue
				}
				f := n.faults
				if a.Fault {
					f++
				}
				if f > DefaultInbox.Faults {
					continue
				}
				steps := append(slices.Clone(n.steps), a.Segment)
				if anyBroken(walk(steps)) {
					return d, steps
				}
				next = append(next, node{steps, f})
			}
		}
		frontier = next
	}
	return -1, nil
}

// TestReachOtherSections: §8.3's and §11.2's designs the book calls unsafe
// have a violation within reach of the start, the safe ones none, and the
// reach's end is broken.
func TestReachOtherSections(t *testing.T) {
	budget1 := DefaultStart(&harness.OrderingSection)
	budget1.Decls[len(budget1.Decls)-1] = harness.Call{Verb: "consumer", Args: map[string]any{"max-attempts": 1}}
	for _, tt := range []struct {
		st   Start
		safe bool
	}{
		{Start{Section: &harness.OrderingSection, Strategy: "retry-then-reconcile", Decls: budget1.Decls}, true},
		{Start{Section: &harness.OrderingSection, Strategy: "retry-only", Decls: budget1.Decls}, false},
		{Start{Section: &harness.ShardjobSection, Strategy: "fence-at-takeover", Decls: DefaultStart(&harness.ShardjobSection).Decls}, true},
		{Start{Section: &harness.ShardjobSection, Strategy: "fence-at-first-commit", Decls: DefaultStart(&harness.ShardjobSection).Decls}, false},
	} {
		s := open(t, tt.st)
		if (s.Reach == nil) != tt.safe {
			t.Errorf("%s: reach %v, the book says safe: %v", tt.st.Strategy, s.Reach, tt.safe)
			continue
		}
		if s.Reach == nil {
			continue
		}
		end := open(t, tt.st, s.Reach.Steps...)
		if got := broken(end); !slices.Equal(got, s.Reach.Broken) {
			t.Errorf("%s: %v breaks %v, the reach says %v", tt.st.Strategy, s.Reach.Steps, got, s.Reach.Broken)
		}
	}
}

// TestOrderingSettles: §8.3's diverged is read once nothing more comes: a
// dead letter under retry-only diverges for good once every event arrived;
// under retry-then-reconcile the run has not settled until the order is
// reconciled, and reconciling repairs it.
func TestOrderingSettles(t *testing.T) {
	st := DefaultStart(&harness.OrderingSection)
	st.Decls[len(st.Decls)-1] = harness.Call{Verb: "consumer", Args: map[string]any{"max-attempts": 1}}
	path := []string{"deliver-evt-1", "deliver-evt-3", "deliver-evt-2"}
	st.Strategy = "retry-only"
	if got := broken(open(t, st, path...)); !slices.Equal(got, []string{"diverged"}) {
		t.Errorf("retry-only: %v, want [diverged]", got)
	}
	if got := broken(open(t, st, path[:2]...)); len(got) > 0 {
		t.Errorf("retry-only before evt-2 arrives: %v, want none", got)
	}
	st.Strategy = "retry-then-reconcile"
	if got := broken(open(t, st, path...)); len(got) > 0 {
		t.Errorf("retry-then-reconcile, not reconciled yet: %v, want none", got)
	}
	s := open(t, st, append(path, "reconcile-o-1")...)
	if got := broken(s); len(got) > 0 {
		t.Errorf("retry-then-reconcile, reconciled: %v, want none", got)
	}
}

// TestShardStepsRoundTrip: a §11.2 step's segment and the call it runs
// name each other: the segment of a drill's call opens to the same call.
func TestShardStepsRoundTrip(t *testing.T) {
	st := DefaultStart(&harness.ShardjobSection)
	st.Strategy = "fence-at-first-commit"
	for _, path := range [][]string{
		{"run-shard-0.e1.stall-25", "run-shard-0.e2.zombie-0", "commit-shard-0.e1.at-30"},
		{"run-shard-0.crash-7", "run-shard-0"},
		{"run-shard-0.e1.crash-12.every-5", "fence-shard-0.e2", "run-shard-0.e2.zombie-1.every-5"},
		// The rows beyond the book's scope: a zombie in the current
		// epoch, a failing sink (the drills current-epoch-zombie and
		// sink-fails).
		{"run-shard-0.e1.stall-25", "fence-shard-0.e2", "run-shard-0.e2.crash-1.zombie-current-0", "run-shard-0.e2"},
		{"run-shard-0.sink-fails-25", "run-shard-0.e2.crash-after-commit-1.zombie-ahead-0"},
		{"run-shard-0.e1.crash-25.sink-fails-25", "run-shard-0.e2.zombie-stale-1"},
	} {
		s := open(t, st, path...)
		w, _ := begin(&shardModel, st, nil)
		for i, step := range s.Path {
			for _, c := range step.Calls {
				if seg, k := w.name(c); k != callStep || seg != path[i] {
					t.Errorf("%v: %s's call %v is named %q", path, path[i], c, seg)
				}
			}
			if _, err := take(w, path[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// fence-at-takeover fences a new owner before it runs: one more call.
	st.Strategy = "fence-at-takeover"
	s := open(t, st, "run-shard-0.e1.crash-12", "run-shard-0.e2.zombie-0")
	if calls := s.Path[1].Calls; len(calls) != 2 || calls[0].Verb != "fence" {
		t.Errorf("fence-at-takeover's takeover runs %v", calls)
	}
	if got := broken(s); len(got) > 0 {
		t.Errorf("fence-at-takeover: %v broken", got)
	}
}

// TestOpenIsDeterministic: the same path gives the same state.
func TestOpenIsDeterministic(t *testing.T) {
	for sec, path := range map[*harness.Section][]string{
		&harness.InboxSection:    {"deliver-m1.ack-lost", "deliver-m2.duplicate"},
		&harness.OrderingSection: {"publish-evt-2", "deliver-evt-1", "next"},
		&harness.ShardjobSection: {"run-shard-0.e1.stall-25"},
	} {
		st := DefaultStart(sec)
		a, b := open(t, st, path...), open(t, st, path...)
		a.w, b.w = nil, nil
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s %v: two opens differ", sec.Harness, path)
		}
	}
}

func ExampleOpen() {
	st := Start{Section: &harness.InboxSection, Strategy: "mark-before-effect", Decls: ackLostWorld}
	s, _ := Open(st, []string{"deliver-m1.crash-mid"})
	for _, p := range s.Props {
		fmt.Println(p.Name, "broken:", p.Broken)
	}
	for _, a := range s.Actions {
		fmt.Println(a.Segment, "changes the state:", a.Effect)
	}
	// Output:
	// lost broken: true
	// doubled broken: false
	// deliver-m1 changes the state: true
	// deliver-m1.crash-before changes the state: false
	// deliver-m1.crash-mid changes the state: false
	// deliver-m1.crash-after changes the state: false
	// deliver-m1.ack-lost changes the state: false
	// deliver-m1.duplicate changes the state: true
	// deliver-m1.effect-fails changes the state: true
	// deliver-m1.crash-after-ack changes the state: true
	// prune-1 changes the state: true
}

// TestStateStepsAreTheSectionsVerbs: every step a state page offers, in
// every section, is calls of the section's own verb table (harness
// Section.Verbs, the table the drill parser and --verbs read), each
// argument one the verb declares and a choice one of its choices: the
// pages name the steps, the harness's table says what they are.
func TestStateStepsAreTheSectionsVerbs(t *testing.T) {
	for _, sec := range harness.Sections {
		st := DefaultStart(sec)
		var path []string
		for depth := range 3 {
			s := open(t, st, path...)
			var next string // the first step with an effect, a plain one before a form's
			form := false
			for _, a := range s.Actions {
				seg := a.Segment
				switch {
				case a.Ignored.Key != "":
					continue
				case a.Form != nil:
					seg = a.Form.Prefix + strconv.Itoa(a.Form.Def)
				}
				x, err := Open(st, append(slices.Clone(path), seg))
				if err != nil {
					continue // a takeover whose zombie waits past the owner's commits
				}
				for _, c := range x.Path[len(x.Path)-1].Calls {
					v, ok := sec.Verb(c.Verb)
					if !ok {
						t.Errorf("%s %v: step %s calls %q, not a verb of §%s", sec.Harness, path, seg, c.Verb, sec.ID)
						continue
					}
					for name, val := range c.Args {
						i := slices.IndexFunc(v.Args, func(a harness.Arg) bool { return a.Name == name })
						if i < 0 {
							t.Errorf("%s %v: step %s: %s has no argument %q", sec.Harness, path, seg, c.Verb, name)
						} else if arg := v.Args[i]; arg.Kind == harness.Choice && !slices.Contains(arg.Choices, fmt.Sprint(val)) {
							t.Errorf("%s %v: step %s: %s %s=%v is not one of %v", sec.Harness, path, seg, c.Verb, name, val, arg.Choices)
						}
					}
				}
				if a.Effect && (next == "" || form) && (a.Form == nil || next == "") {
					next, form = seg, a.Form != nil
				}
			}
			if next == "" {
				t.Fatalf("%s: no step with an effect at depth %d", sec.Harness, depth)
			}
			path = append(path, next)
		}
	}
}
