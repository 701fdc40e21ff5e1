package explore

import (
	"fmt"
	"slices"
	"strings"

	"archlab/harness"
	"archlab/i18n"
)

// A counterexample is a schedule of harness verbs, so it can be written as
// a drill file that `archlab drill --file` replays: the steps are the verbs
// the explorer called, in order, and the expected counters are what the
// harness observed. The replay is the same run, not a description of it.

// tape writes down, while a schedule runs, the drill-file line of each
// harness verb it calls. Only Emit runs with one; the enumeration passes nil
// and pays nothing.
type tape struct {
	steps []string
	skip  map[string]bool // checks that do not apply to this run (no rerun: no replay to check)
	// h is the run's harness, whose observables give the expected counters.
	h observer
}

// observer is a harness's side that counters and checks read.
type observer interface {
	Observe(name string, args []any) (any, error)
}

// say appends one step line. Callers check t != nil first, so the
// enumeration does not box the arguments.
func (t *tape) say(format string, args ...any) {
	t.steps = append(t.steps, fmt.Sprintf(format, args...))
}

// check is one lesson of an emitted drill: its name, its expression over
// the harness's observables and bindings, and the invariant it checks. Its
// text is the catalogue's "explore.emit.check.<name>".
type check struct {
	name, expr, invariant string
}

// drillFile is what a mechanism's emitted drills share: the harness, the
// counters listed and expected, and one check per invariant, in the
// invariants' order.
type drillFile struct {
	sec      *harness.Section // its harness, and the drill's name
	scope    string           // "messages=3 faults=2", for the opening comment
	strategy string           // the strategy the counterexample broke
	// demonstrates: the book teaches that this strategy breaks, so the
	// file demonstrates the book's point (a student's code, which should
	// hold, is not)
	demonstrates bool
	// strategyLine says whether the harness takes a "strategy" line (§8.2)
	// or the strategy is in the steps (§8.3's reconcile, §11.2's fence).
	strategyLine bool
	counters     []string
	checks       []check

	// exercise, for strategy student, is the mechanism exercise the run
	// plugged in ("ledger"), written as the header's "exercise" line.
	exercise string
}

// Name is the emitted drill's name: explore-inbox-naive.
func (c *Counterexample) Name() string {
	return "explore-" + c.file.sec.Harness + "-" + c.file.strategy
}

// Emit writes the counterexample as a drill file (txtar, as package drills
// parses it): an opening comment in lang saying what the file shows, the
// header, the steps in the harness's verbs, the counters, one check per
// invariant, the counters the replay gave, and the title and check texts in
// every language. `archlab drill --file` runs it to the same violation:
// the checks of the broken invariants are "shows" checks, which hold
// because the replay breaks them; every other check holds as usual.
func (c *Counterexample) Emit(lang i18n.Lang) (string, error) {
	f := c.file
	tp := &tape{skip: map[string]bool{}}
	if err := c.replay(nil, tp); err != nil {
		return "", err
	}
	var b strings.Builder
	key := "explore.emit.comment"
	if !f.demonstrates {
		key += ".fails" // a student's code: the replay fails
	}
	comment := i18n.T(lang, key, f.sec.Harness, f.scope, f.strategy, c.Index+1, c.Line(lang), c.Name())
	for _, line := range strings.Split(comment, "\n") {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	fmt.Fprintf(&b, "drill %s\nsection %s\nharness %s\n", c.Name(), f.sec.ID, f.sec.Harness)
	if f.strategyLine {
		fmt.Fprintf(&b, "strategy %s\n", f.strategy)
	}
	if f.exercise != "" {
		fmt.Fprintf(&b, "exercise %s\n", f.exercise)
	}
	b.WriteString("-- steps --\n")
	for _, s := range tp.steps {
		b.WriteString(s + "\n")
	}
	b.WriteString("-- counters --\n")
	for _, name := range f.counters {
		b.WriteString(name + "\n")
	}
	// For a strategy the book calls unsafe, a broken invariant is what
	// the file demonstrates: a "shows" check that holds when the replay
	// breaks it, so the replay passes (exit 0) and marks it ◆, rather
	// than failing as if the lab disagreed with the book. A student's
	// code should hold: its broken checks fail, exit 1.
	checks := c.checks(tp)
	b.WriteString("-- checks --\n")
	for _, ch := range checks {
		if f.demonstrates && slices.Contains(c.Broken, ch.invariant) {
			fmt.Fprintf(&b, "shows %s: !(%s)\n", ch.name, ch.expr)
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", ch.name, ch.expr)
	}
	b.WriteString("-- expect --\n")
	for _, name := range f.counters {
		v, err := tp.h.Observe(name, nil)
		if err != nil {
			return "", fmt.Errorf("explore: emit %s: counter %s: %w", c.Name(), name, err)
		}
		fmt.Fprintf(&b, "%s %s\n", name, harness.Format(v))
	}
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		fmt.Fprintf(&b, "-- %s --\n", l)
		fmt.Fprintf(&b, "title: %s\n", i18n.T(l, "explore.emit.title", f.strategy))
		for _, ch := range checks {
			text := i18n.T(l, "explore.emit.check."+ch.name)
			if f.demonstrates && slices.Contains(c.Broken, ch.invariant) {
				text = i18n.T(l, "explore.emit.broken", text)
			}
			fmt.Fprintf(&b, "check %s: %s\n", ch.name, text)
		}
	}
	return b.String(), nil
}

// checks are the checks that apply to the replayed run.
func (c *Counterexample) checks(tp *tape) []check {
	var out []check
	for _, ch := range c.file.checks {
		if !tp.skip[ch.name] {
			out = append(out, ch)
		}
	}
	return out
}

// Checks names the checks Emit writes, in order, each with whether the
// counterexample breaks its invariant: a replay of the emitted file must
// fail exactly those.
func (c *Counterexample) Checks() (names []string, broken []bool, err error) {
	tp := &tape{skip: map[string]bool{}}
	if err := c.replay(nil, tp); err != nil {
		return nil, nil, err
	}
	for _, ch := range c.checks(tp) {
		names = append(names, ch.name)
		broken = append(broken, slices.Contains(c.Broken, ch.invariant))
	}
	return names, broken, nil
}
