package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"archlab/harness"
)

// A state page of archlab serve (/explore/{section}/state/{path}) is one
// state of a section's harness: where a path of steps leads from a start.
// The start is a world, declared in the section's verbs (the messages; the
// events, the retry budget and the source of truth; the keys split into
// shards), and a strategy. Each step of the path is named in the URL
// (deliver-m1.ack-lost) and is one or two of the section's verbs, taken
// through the harness's Exec, the interface a drill file drives: the state
// a path reaches is the one a drill file of the same steps reaches, and the
// path saves as one (State.DrillFile).
//
// What the page lists as possible next comes from the section's table and
// verbs: §8.2's fault rows for each message by its broker state, by the
// explorer's own rule (inboxBounds.choices), and the janitor's prune; §8.3's
// deliver, publish, dispatch and reconcile; §11.2's runs with a crash or a
// stall, takeovers with a zombie's commit, fences and zombie commits. The
// fewest steps to a violation are the state engine's where the section
// has one (§8.2, §8.3), walked from this state; §11.2, which has none, is
// searched a few steps ahead.

// Start is where a path begins: a section, the strategy every step runs
// under, and the world it starts from.
type Start struct {
	Section  *harness.Section
	Strategy string // one of StateStrategies(Section, Students)
	// Decls declare the world, in the section's verbs: message (§8.2);
	// event, consumer and truth (§8.3); split (§11.2).
	Decls []harness.Call
	// Every is §11.2's commit interval for the runs the page offers; 0 is
	// the start's own (its first run's), or 10.
	Every int
	// Students is the student's code, for strategy student.
	Students *harness.Students

	ctx context.Context // OpenContext's: ends the walk between two steps
}

// stopped is the error of a walk whose context ended, nil while it runs.
func (st Start) stopped() error {
	if st.ctx == nil {
		return nil
	}
	return context.Cause(st.ctx)
}

// Action is one step possible from a state, as the page lists it.
type Action struct {
	Segment string      // the step as the path names it: deliver-m1.ack-lost
	Doc     harness.Msg // what it does, in words
	Fault   bool        // one of the section's faults
	// Effect is false when taking it leaves the state as it is (a
	// replay the dedup key suppresses, a prune that forgets nothing, a
	// zombie commit refused): the page shows it as such.
	Effect bool
	// Ignored, when its Key is set, says why the strategy does not take
	// this step (retry-only never reconciles): the page shows it, with no
	// link.
	Ignored harness.Msg
	// Form, when set, is a step with a number the reader picks: the
	// segment is Form.Prefix followed by the number.
	Form *Form
	// Dist is the fewest steps from the state after it to a violation,
	// counted as the state engine counts them; -1 when none is within
	// reach, or it is not counted for this step.
	Dist int
}

// Form is a step that takes a number: a crash after K items, a zombie's
// commit at the owner's jth commit.
type Form struct {
	Prefix        string // the segment before the number: run-shard-0.e1.crash-
	Min, Max, Def int
}

// Part is one part of what the state holds, as a small table: the
// broker's view of each message, the queue, a shard's checkpoint.
type Part struct {
	Title harness.Msg
	Head  []harness.Msg
	Rows  [][]harness.Msg
}

// Property is one invariant of the section with its value in this state.
type Property struct {
	Name   string // the invariant, as explore names it: lost, doubled, moved-back
	Broken bool
	Value  harness.Msg // what it is here: "m1 (pay:evt-1): marked done, never applied"
}

// Reach is the fewest steps from a state to a violation.
type Reach struct {
	Steps []string // the steps, as path segments
	// Broken names the invariants broken at their end.
	Broken []string
	// Within says how far the search looked: the state engine's scope from
	// here (faults, duplicates), or the depth searched.
	Within harness.Msg
}

// Step is one step of a path: its segment, and the trace's steps it
// recorded.
type Step struct {
	Segment string
	From    int // Steps[From:To] are its steps in the trace
	To      int
	Calls   []harness.Call
	Effect  bool // it changed the state
}

// State is what a path reaches.
type State struct {
	Start Start
	Path  []Step
	// Steps are the trace of the world's declarations and of the path,
	// as the harness recorded them: the diagram of the run so far.
	Steps   []harness.Step
	Legend  []string // names in segments: m1=checkout:evt-1
	Parts   []Part
	Props   []Property
	Actions []Action
	// Reach is the fewest steps to a violation from here; nil when none is
	// within reach, or when something is broken here already.
	Reach *Reach
	// NoReach, when Reach is nil and its Key is set, says why none was
	// counted (a world too large for the state engine).
	NoReach harness.Msg
	// Err is the run's error after its last step, "" when none: a
	// student's code that failed.
	Err string

	w walker
}

// Broken reports whether an invariant is broken here.
func (s *State) Broken() bool {
	return slices.ContainsFunc(s.Props, func(p Property) bool { return p.Broken })
}

// Segments are the path's segments.
func (s *State) Segments() []string {
	out := make([]string, len(s.Path))
	for i, st := range s.Path {
		out[i] = st.Segment
	}
	return out
}

// PathError is a path with a step that cannot be taken: its 1-based
// number, its segment, and why, in words.
type PathError struct {
	Step    int
	Segment string
	Why     harness.Msg
}

func (e *PathError) Error() string {
	return fmt.Sprintf("step %d (%s) cannot be taken: %s %v", e.Step, e.Segment, e.Why.Key, e.Why.Args)
}

// StartError is a start that cannot be built: an unknown mechanism or
// strategy, a world its harness refuses.
type StartError struct{ Why harness.Msg }

func (e *StartError) Error() string { return fmt.Sprintf("bad start: %s %v", e.Why.Key, e.Why.Args) }

// MaxPath is the most steps a path may have: a state page is a scenario a
// class steps through, and each page replays its path.
const MaxPath = 64

// callKind is what a drill's call is to a path.
type callKind int

const (
	callStep    callKind = iota // a step of the path
	callDecl                    // a declaration of the world
	callObserve                 // a look that changes nothing (read, count)
	callDrain                   // §8.3's dispatch: the queue's deliveries, one step each
	callOther                   // a verb the state pages do not walk (the log, the partitions)
)

// walker is one section's run on a state page: the harness, and the
// section's words for its steps.
type walker interface {
	harness() harness.Harness
	// calls is what step seg runs here, in order; a step that cannot be
	// taken here is a *stepErr.
	calls(seg string) ([]harness.Call, error)
	// took tells the walker what a step's calls reported.
	took(calls []harness.Call, fields []harness.Fields)
	// name reads a drill's call as a step: its segment and kind.
	name(c harness.Call) (string, callKind)
	actions() []Action
	snapshot() string
	legend() []string
	parts() []Part
	props() []Property
	// drained reports, for a callDrain, whether the queue is empty.
	drained() bool
	// file is what a saved path counts and checks.
	file() fileSpec
}

// stepErr is a step that cannot be taken, in words.
type stepErr struct{ why harness.Msg }

func (e *stepErr) Error() string { return fmt.Sprintf("%s %v", e.why.Key, e.why.Args) }

func cannot(key string, args ...any) error { return &stepErr{why: harness.M(key, args...)} }

// model is what the generic machine knows of a section.
type model struct {
	// open starts a run of st, its world declared; rec may be nil.
	open func(st Start, rec *harness.Recorder) (walker, error)
	// reach is the fewest steps to a violation from s.
	reach func(m *model, s *State) (*Reach, harness.Msg, error)
	// strategy is the default strategy of a start with none.
	strategy string
	// decls are the verbs that declare a world, not a step.
	decls []string
	// steps, when set, is what a start takes from a drill's steps
	// (§11.2's commit interval).
	steps func(st *Start, steps []harness.Call)
}

// check validates st and fills in its defaults.
func (st *Start) check() (*model, error) {
	mech, ok := Mechanisms[st.Section]
	if !ok {
		name := ""
		if st.Section != nil {
			name = st.Section.Harness
		}
		return nil, &StartError{Why: harness.M("state.err.mechanism", name)}
	}
	m := mech.model
	if st.Strategy == "" {
		st.Strategy = m.strategy
	}
	if all := StateStrategies(st.Section, st.Students); !slices.Contains(all, st.Strategy) {
		return nil, &StartError{Why: harness.M("state.err.strategy", st.Strategy, st.Section.Harness, strings.Join(all, ", "))}
	}
	return m, nil
}

// begin starts a run of st and declares its world.
func begin(m *model, st Start, rec *harness.Recorder) (walker, error) {
	if err := st.stopped(); err != nil {
		return nil, err
	}
	w, err := m.open(st, rec)
	if err != nil {
		var se *stepErr
		if errors.As(err, &se) {
			return nil, &StartError{Why: se.why}
		}
		return nil, &StartError{Why: harness.M("state.err.world", err.Error())}
	}
	return w, nil
}

// take runs step seg on w.
func take(w walker, seg string) ([]harness.Call, error) {
	calls, err := w.calls(seg)
	if err != nil {
		return nil, err
	}
	fields := make([]harness.Fields, len(calls))
	for i, c := range calls {
		f, err := w.harness().Exec(c)
		if err != nil {
			return calls[:i+1], err
		}
		fields[i] = f
	}
	w.took(calls, fields)
	return calls, nil
}

// Open replays path from st and returns the state it reaches: the trace so
// far, what the state holds, the invariants here, the steps possible next
// (each with whether it changes anything), and the fewest steps to a
// violation. A step that cannot be taken is a *PathError, a bad start a
// *StartError.
func Open(st Start, path []string) (*State, error) {
	return OpenContext(context.Background(), st, path)
}

// OpenContext is Open, stopped when ctx ends (the page's reader went, its
// deadline passed): a state's page replays its path once for each step it
// offers and more to find the nearest violation, so it checks ctx before
// every replay and every step, and returns ctx's error.
func OpenContext(ctx context.Context, st Start, path []string) (*State, error) {
	st.ctx = ctx
	m, err := st.check()
	if err != nil {
		return nil, err
	}
	if len(path) > MaxPath {
		return nil, &PathError{Step: MaxPath + 1, Segment: path[MaxPath], Why: harness.M("state.err.too-long", MaxPath)}
	}
	rec := &harness.Recorder{}
	w, err := begin(m, st, rec)
	if err != nil {
		return nil, err
	}
	s := &State{Start: st, w: w}
	for i, seg := range path {
		if err := st.stopped(); err != nil {
			return nil, err
		}
		before, from := w.snapshot(), len(rec.Steps)
		calls, err := take(w, seg)
		if err != nil {
			var se *stepErr
			if errors.As(err, &se) {
				return nil, &PathError{Step: i + 1, Segment: seg, Why: se.why}
			}
			if i < len(path)-1 || len(calls) == 0 {
				return nil, &PathError{Step: i + 1, Segment: seg, Why: harness.M("state.err.run", err.Error())}
			}
			// The last step failed in the code it ran (a student's
			// code): the page shows the state it left, and the error.
			s.Err = err.Error()
		}
		s.Path = append(s.Path, Step{Segment: seg, From: from, To: len(rec.Steps), Calls: calls, Effect: w.snapshot() != before})
	}
	s.Steps = rec.Steps
	s.Legend, s.Parts, s.Props = w.legend(), w.parts(), w.props()
	if sw, ok := w.(settler); ok && sw.settles() && s.Err == "" {
		// The verdict is the books' as a reader finds them: after the
		// consumer's last recovery, on a copy, so the page still shows
		// the state the path left (issue 43: "lost" on a page whose
		// saved file passed).
		x, err := replay(m, st, path)
		if err != nil {
			return nil, err
		}
		if err := x.(settler).settle(); err == nil {
			s.Props = x.props()
		}
	}
	if s.Actions, err = actions(m, st, path, w); err != nil {
		return nil, err
	}
	if s.Err == "" && !s.Broken() {
		if s.Reach, s.NoReach, err = m.reach(m, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// actions lists the steps possible from w's state, each tried from a
// fresh run of the path to learn whether it changes anything.
func actions(m *model, st Start, path []string, w walker) ([]Action, error) {
	acts := w.actions()
	here := w.snapshot()
	for i := range acts {
		a := &acts[i]
		a.Dist = -1
		if a.Ignored.Key != "" || a.Form != nil {
			a.Effect = true
			continue
		}
		x, err := replay(m, st, path)
		if err != nil {
			return nil, err
		}
		if _, err := take(x, a.Segment); err != nil {
			a.Effect = true // it fails: the page says so when it is taken
			continue
		}
		a.Effect = x.snapshot() != here
	}
	return acts, nil
}

// settler is a walker whose run ends with one more step before the books
// are read (a durable inbox's last recovery).
type settler interface {
	settles() bool
	settle() error
}

// replay runs path from st with no recorder.
func replay(m *model, st Start, path []string) (walker, error) {
	w, err := begin(m, st, nil)
	if err != nil {
		return nil, err
	}
	for i, seg := range path {
		if err := st.stopped(); err != nil {
			return nil, err
		}
		if _, err := take(w, seg); err != nil {
			return nil, fmt.Errorf("explore: step %d (%s) of a path that ran before: %w", i+1, seg, err)
		}
	}
	return w, nil
}

// Walk is a drill's run read as a path: its start, its steps, and for
// each step of its trace, the step of the path it belongs to.
type Walk struct {
	Start Start
	Path  []string
	// Rows has one entry per step of the drill's trace: the number of path
	// steps taken before the step that recorded it (0: the start), or -1
	// past Stop.
	Rows []int
	// Stop is the first call the path cannot hold (a verb the state pages
	// do not walk), len(calls) when it holds them all; Stopped names it.
	Stop    int
	Stopped string
}

// Branch reads a drill's calls as a path from the world they declare,
// under strategy ("" for the section's default), replaying them as it
// goes: a drill's dispatch is the queue's deliveries, one step each, so
// that a class can branch between two of them. rows is the number of steps
// each call recorded in the drill's own trace, which the path's replay
// must match; a mismatch ends the walk there.
func Branch(sec *harness.Section, strategy string, calls []harness.Call, rows []int, students *harness.Students) (*Walk, error) {
	st := Start{Section: sec, Strategy: strategy, Students: students}
	m, err := st.check()
	if err != nil {
		return nil, err
	}
	// The world: every declaration before the first step.
	first := len(calls)
	for i, c := range calls {
		if k := kindOf(m, c); k != callDecl {
			first = i
			break
		}
	}
	st.Decls = slices.Clone(calls[:first])
	if m.steps != nil {
		m.steps(&st, calls[first:])
	}
	rec := &harness.Recorder{}
	w, err := begin(m, st, rec)
	if err != nil {
		return nil, err
	}
	wk := &Walk{Start: st, Stop: len(calls)}
	// row notes n steps of the trace, recorded by a step taken after k
	// steps of the path.
	row := func(n, k int) {
		for range n {
			wk.Rows = append(wk.Rows, k)
		}
	}
	if len(rec.Steps) != sum(rows[:first]) {
		return nil, fmt.Errorf("explore: the world of %s recorded %d steps, the drill %d", sec.Harness, len(rec.Steps), sum(rows[:first]))
	}
	row(len(rec.Steps), 0)
	stop := func(i int, why string) *Walk {
		wk.Stop, wk.Stopped = i, why
		for len(wk.Rows) < sum(rows) {
			wk.Rows = append(wk.Rows, -1)
		}
		return wk
	}
	for i := first; i < len(calls); i++ {
		c := calls[i]
		seg, k := w.name(c)
		before, taken := len(rec.Steps), len(wk.Path)
		switch k {
		case callObserve:
			if _, err := w.harness().Exec(c); err != nil {
				return stop(i, c.Verb), nil
			}
			row(len(rec.Steps)-before, len(wk.Path))
		case callStep:
			if len(wk.Path) == MaxPath {
				return stop(i, c.Verb), nil
			}
			got, err := take(w, seg)
			if err != nil || !sameCalls(got, []harness.Call{c}) {
				return stop(i, c.Verb), nil
			}
			row(len(rec.Steps)-before, len(wk.Path))
			wk.Path = append(wk.Path, seg)
		case callDrain:
			for !w.drained() && len(wk.Path) < MaxPath {
				at := len(rec.Steps)
				if _, err := take(w, seg); err != nil {
					return stop(i, c.Verb), nil
				}
				row(len(rec.Steps)-at, len(wk.Path))
				wk.Path = append(wk.Path, seg)
			}
			if !w.drained() {
				return stop(i, c.Verb), nil
			}
		default:
			return stop(i, c.Verb), nil
		}
		if len(rec.Steps)-before != rows[i] {
			// The replay drifted from the drill's trace: branch no
			// further than what matched.
			wk.Rows, wk.Path = wk.Rows[:sum(rows[:i])], wk.Path[:taken]
			return stop(i, c.Verb), nil
		}
	}
	return wk, nil
}

// kindOf is what a call is to a path, asked of the section with no run.
func kindOf(m *model, c harness.Call) callKind {
	if slices.Contains(m.decls, c.Verb) {
		return callDecl
	}
	return callStep
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// sameCalls reports whether a step ran exactly the drill's call: a step
// that adds a call of its own (a fence at takeover) is not the drill's.
func sameCalls(a, b []harness.Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Verb != b[i].Verb || len(a[i].Args) != len(b[i].Args) {
			return false
		}
		for k, v := range a[i].Args {
			if b[i].Args[k] != v {
				return false
			}
		}
	}
	return true
}

// segment is a step's name split: verb-target.mod.mod.
type segment struct {
	verb, target string
	mods         []string
}

// parseSegment splits a segment. The verbs have no dash; a target has no
// dot.
func parseSegment(seg string) segment {
	head, rest, _ := strings.Cut(seg, ".")
	var s segment
	s.verb, s.target, _ = strings.Cut(head, "-")
	if rest != "" {
		s.mods = strings.Split(rest, ".")
	}
	return s
}

// modNumber reads a mod "name-N" as N.
func modNumber(mod, name string) (int, bool) {
	v, ok := strings.CutPrefix(mod, name+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || strconv.Itoa(n) != v {
		return 0, false
	}
	return n, true
}

// safeName reports whether s can stand in a segment as it is.
func safeName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// text is a Msg holding a value as it is, in every language.
func text(v any) harness.Msg { return harness.M("state.v", v) }
