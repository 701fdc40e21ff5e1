package view

import (
	"fmt"
	"slices"
	"strings"

	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
)

// Tone is how a row should look; a front end picks the colour.
type Tone string

// The tones, as CSS-friendly words.
const (
	Neutral Tone = "neutral"
	Good    Tone = "good"
	Bad     Tone = "bad"
	Harm    Tone = "harm" // the damage the lesson is about: bad, and named as the harm
)

// IsBad reports whether a row is a fault or the harm: drawn as a cross.
func (t Tone) IsBad() bool { return t == Bad || t == Harm }

func toneOf(t harness.Tone) Tone {
	switch t {
	case harness.Good:
		return Good
	case harness.Bad:
		return Bad
	case harness.Harm:
		return Harm
	}
	return Neutral
}

// Row is one step of the trace in the reader's language.
type Row struct {
	N          int    // 1-based, as the trace numbers it
	Phase      string // the phase's name ("the fault")
	PhaseStart bool   // the first step of its phase
	From, To   string // display names of the actor and the target
	FromID     string // role names ("broker"), stable across languages
	ToID       string
	Action     string
	Result     string
	// Named is the result as the trace prints it: "harm: …" for the
	// damage the lesson is about, else the result.
	Named string
	Tone  Tone
	// Verdict: the step reads the outcome (the verdict phase), so the
	// page reveals the counters' values and the lesson checks from it on.
	Verdict bool
}

// Label is the row as one diagram message: "3. ack pay:evt-1: lost".
func (r Row) Label() string { return fmt.Sprintf("%d. %s: %s", r.N, r.Action, r.Result) }

// Actor is the display name of a role: the catalogue's, or "shard N" for
// the shard-N roles of §11.2, and "worker eN" for a worker of any lease
// epoch N (a drill file may fence or run one at epoch 5).
func Actor(lang i18n.Lang, role string) string {
	if n, ok := strings.CutPrefix(role, "shard-"); ok {
		return i18n.T(lang, "actor.shard", n)
	}
	if i18n.Has(lang, "actor."+role) {
		return i18n.T(lang, "actor."+role)
	}
	if n, ok := strings.CutPrefix(role, "worker-e"); ok {
		return i18n.T(lang, "actor.worker-epoch", n)
	}
	return i18n.T(lang, "actor."+role)
}

// text renders a recorded message. A message whose first argument is the
// number 1 takes the catalogue's singular form, key.one, where there is
// one: "crashes after 1 attempt", not "1 attempts".
func text(lang i18n.Lang, m harness.Msg) string {
	if len(m.Args) > 0 && m.Args[0] == any(1) && i18n.Has(lang, m.Key+".one") {
		return i18n.T(lang, m.Key+".one", m.Args...)
	}
	return i18n.T(lang, m.Key, m.Args...)
}

// Rows renders recorded steps in lang.
func Rows(lang i18n.Lang, steps []harness.Step) []Row {
	rows := make([]Row, len(steps))
	for i, s := range steps {
		rows[i] = Row{
			N:          i + 1,
			Phase:      i18n.T(lang, s.Phase.Key()),
			PhaseStart: i == 0 || s.Phase != steps[i-1].Phase,
			From:       Actor(lang, s.Actor),
			To:         Actor(lang, s.Target),
			FromID:     s.Actor,
			ToID:       s.Target,
			Action:     text(lang, s.Action),
			Result:     text(lang, s.Result),
			Tone:       toneOf(s.Tone),
			Verdict:    s.Phase == harness.Verdict,
		}
		rows[i].Named = rows[i].Result
		if rows[i].Tone == Harm {
			rows[i].Named = i18n.T(lang, "cli.harm", rows[i].Result)
		}
	}
	return rows
}

// Table is the counter table: a header and rows of cells. Mark is "✓",
// "✗" or "" per row (a run not compared has no marks); Reference says the
// third column is the book's run shown for reference, not compared.
type Table struct {
	Header    []string
	Rows      []CounterRow
	Compared  bool
	Reference bool
}

// CounterRow is one counter: its name (the book's, in every language), its
// value, the expected value ("" when there is no such column) and the mark.
type CounterRow struct {
	Name, Value, Expected string
	Match                 *bool
}

// Counters renders the counter table of a run: counter | value | book |
// ✓ when it is compared with the book (or the lab's or the file's own
// expectation), counter | value | the book's run for a "what if".
func Counters(lang i18n.Lang, res *drills.Result) Table {
	t := func(key string, a ...any) string { return i18n.T(lang, key, a...) }
	expected := t("cli.col.book")
	switch {
	case !res.Drill.Builtin:
		expected = t("cli.col.expect")
	case res.Drill.LabOnly:
		expected = t("cli.col.lab")
	}
	tab := Table{Header: []string{t("cli.col.counter"), t("cli.col.value")}, Compared: res.Compared}
	tab.Reference = !res.Compared && res.Drill.Builtin && len(res.Drill.Book) > 0
	switch {
	case tab.Compared:
		tab.Header = append(tab.Header, expected)
	case tab.Reference:
		tab.Header = append(tab.Header, t("cli.col.book-run"))
	}
	for _, c := range res.Counters {
		row := CounterRow{Name: c.Name, Value: c.Value}
		switch {
		case tab.Compared:
			row.Expected, row.Match = *c.Book, c.Match
		case tab.Reference:
			book, ok := res.Drill.BookValue(c.Name)
			if !ok {
				book = "—"
			}
			row.Expected = book
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab
}

// CheckRow is one lesson check in the reader's language. A check that
// Shows a failure (the message is lost) reads "shows: …" and holds with a
// ◆, never a green tick beside a loss.
type CheckRow struct {
	Text  string
	OK    bool
	Shows bool
	Mark  string // ✓, ✗ or ◆
}

// Checks renders a run's lesson checks.
func Checks(lang i18n.Lang, res *drills.Result) []CheckRow {
	out := make([]CheckRow, len(res.Checks))
	for i, c := range res.Checks {
		row := CheckRow{Text: res.Drill.Text(lang, c.Key), OK: c.OK, Shows: c.Shows, Mark: "✗"}
		if c.OK {
			row.Mark = "✓"
		}
		if c.Shows {
			row.Text = i18n.T(lang, "cli.shows", row.Text)
			if c.OK {
				row.Mark = "◆"
			}
		}
		out[i] = row
	}
	return out
}

// Verdict is the run's one-line verdict: PASS or FAIL and why.
type Verdict struct {
	Pass bool
	Word string // "PASS", "FAIL": the same in every language, as CI reads it
	Text string
}

// VerdictOf says whether the run agrees with the book (or its own
// expectation) and in one phrase why.
func VerdictOf(lang i18n.Lang, res *drills.Result) Verdict {
	t := func(key string, a ...any) string { return i18n.T(lang, key, a...) }
	held := 0
	for _, c := range res.Checks {
		if c.OK {
			held++
		}
	}
	name := res.Drill.Name
	if !res.Pass {
		return Verdict{Word: "FAIL", Text: FailureReason(lang, res)}
	}
	if res.ByHarm {
		// A design unlike the book's: what differs above describes it.
		text := t("cli.verdict.harm", name)
		if len(res.Safer) > 0 {
			text = t("cli.verdict.harm-safer", name, harms(lang, res.Safer))
		}
		return Verdict{Pass: true, Word: "PASS", Text: text}
	}
	key := "cli.verdict.book"
	switch {
	case len(res.Drill.Book) == 0:
		key = "cli.verdict.no-expect"
	case !res.Compared && len(res.WhatIf()) > 0:
		key = "cli.verdict.what-if"
	case !res.Compared:
		key = "cli.verdict.not-compared"
	case !res.Drill.Builtin:
		key = "cli.verdict.file"
	case res.Drill.LabOnly:
		key = "cli.verdict.lab"
	}
	return Verdict{Pass: true, Word: "PASS", Text: t(harness.Plural(key, len(res.Checks)), name, len(res.Counters), held, len(res.Checks))}
}

// FailureReason says in one phrase why a drill failed: the mechanism's
// error, the first counter that disagrees, or the first lesson that broke.
func FailureReason(lang i18n.Lang, res *drills.Result) string {
	t := func(key string, a ...any) string { return i18n.T(lang, key, a...) }
	if res.Err != nil {
		return t("cli.fail.error", res.Drill.Name, res.Err)
	}
	if res.ByHarm {
		if len(res.Extra) > 0 {
			return t("cli.fail.harm", res.Drill.Name, harms(lang, res.Extra))
		}
		for _, c := range res.Checks {
			name := strings.TrimPrefix(c.Key, "check."+res.Drill.Name+".")
			if !c.OK && (slices.Contains(res.Drill.Harms(), name) || res.Drill.TaskClause(name)) {
				return t("cli.fail.check", res.Drill.Name, res.Drill.Text(lang, c.Key))
			}
		}
	}
	whose := Against(res.Drill)
	for _, c := range res.Counters {
		if c.Match != nil && !*c.Match {
			return t("cli.fail.counter"+whose, res.Drill.Name, c.Name, c.Value, *c.Book)
		}
	}
	for _, c := range res.Checks {
		if !c.OK {
			return t("cli.fail.check", res.Drill.Name, res.Drill.Text(lang, c.Key))
		}
	}
	return t("cli.fail.missing"+whose, res.Drill.Name)
}

// harms are harms (by the checks they break) in one phrase.
func harms(lang i18n.Lang, names []string) string {
	var out []string
	for _, n := range names {
		out = append(out, i18n.T(lang, "explore.emit.check."+n))
	}
	return strings.Join(out, i18n.T(lang, "cli.harm.sep"))
}

// Against is whose expectation a failed drill disagrees with, as the
// suffix of a catalogue key: "" the book's, ".lab" the lab's (the book
// prints none), ".file" a drill file's own expect part.
func Against(d *drills.Drill) string {
	switch {
	case !d.Builtin:
		return ".file"
	case d.LabOnly:
		return ".lab"
	}
	return ""
}

// WhatIf names the parameters a run changed, beside the book's:
// "--commit-every 5 (the book: 10)"; "" for the book's own run.
func WhatIf(lang i18n.Lang, res *drills.Result) string {
	var parts []string
	for _, p := range res.WhatIf() {
		parts = append(parts, i18n.T(lang, "cli.what-if.param", p.Name, p.Value, p.Default))
	}
	return strings.Join(parts, i18n.T(lang, "cli.what-if.sep"))
}
