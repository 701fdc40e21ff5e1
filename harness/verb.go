package harness

import (
	"fmt"
	"slices"
	"strings"

	"archlab/i18n"
)

// Kind says how a verb's argument is written.
type Kind int

// Argument kinds.
const (
	Word   Kind = iota // a name: pay:evt-1, o-1, shard-0, v2/PAID
	Number             // an integer expression: 3, $deliveries-1, log_len+1
	Choice             // a bare word from Choices: ack-lost, replay
)

// Arg is one argument of a verb. A positional argument is written as its
// value; an optional one as name=value (a Choice as its bare word).
type Arg struct {
	Name     string
	Kind     Kind
	Optional bool
	Choices  []string // Choice only
	// Listed, when set, is how --verbs lists the choices: a family of
	// them (crash-call-2 … crash-call-16) once, by its pattern.
	Listed []string
	// ChoiceKey, when set, is the catalogue key of a choice's one-line
	// explanation, for --verbs.
	ChoiceKey func(choice string) string
	// DocKey, when set, is the catalogue key of an optional argument's
	// one-line explanation, for --verbs: a fault armed by a count.
	DocKey string
	// Size marks a Number that says how many things the verb builds (keys
	// to split, shards, orders to route): it must be at least 0, and a
	// driver bounds it by its budget before the verb allocates anything.
	Size bool
	// Limit, when not {0, 0}, is the range a Number must lie in: an amount
	// past it could overflow a balance the book sums in an int64.
	Limit [2]int
}

// Shown is the choices as --verbs lists them.
func (a Arg) Shown() []string {
	if a.Listed != nil {
		return a.Listed
	}
	return a.Choices
}

// Verb is one thing a drill file may say in a section's steps. Its help
// text is the catalogue's "verb.<section>.<name>".
type Verb struct {
	Name string
	Args []Arg
	// Binds lists the fields of the value "-> name" binds, or nil when the
	// verb binds nothing.
	Binds []string
}

// HelpKey is the catalogue key of the verb's one-line explanation.
func (v Verb) HelpKey(section string) string { return "verb." + section + "." + v.Name }

// Usage is the verb's syntax: "deliver MSG [ack-lost|crash-before|…] [-> NAME]".
func (v Verb) Usage() string {
	parts := []string{v.Name}
	for _, a := range v.Args {
		var s string
		switch {
		case a.Kind == Choice:
			s = strings.Join(a.Shown(), "|")
		case a.Optional:
			s = a.Name + "=" + strings.ToUpper(a.Name)
		default:
			s = strings.ToUpper(a.Name)
		}
		if a.Optional {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	if v.Binds != nil {
		parts = append(parts, "[-> NAME]")
	}
	return strings.Join(parts, " ")
}

// Arg finds an argument by name.
func (v Verb) Arg(name string) (Arg, bool) {
	i := slices.IndexFunc(v.Args, func(a Arg) bool { return a.Name == name })
	if i < 0 {
		return Arg{}, false
	}
	return v.Args[i], true
}

// Call is one evaluated step: a verb and its argument values, by name. A
// Number is an int, a Word a string, a Choice the chosen word (absent when
// not given).
type Call struct {
	Verb string
	Args map[string]any
}

// Int returns a Number argument, def when it was left out.
func (c Call) Int(name string, def int) int {
	if v, ok := c.Args[name].(int); ok {
		return v
	}
	return def
}

// Word returns a Word or Choice argument, "" when it was left out.
func (c Call) Word(name string) string {
	s, _ := c.Args[name].(string)
	return s
}

// Has reports whether the argument was given.
func (c Call) Has(name string) bool { _, ok := c.Args[name]; return ok }

// Fields is the value a verb binds with "-> name": its fields by name.
type Fields map[string]any

// Harness is one section's harness as a drill file drives it.
type Harness interface {
	// Exec runs one step; it returns the fields to bind, if the verb
	// binds any.
	Exec(Call) (Fields, error)
	// Observe returns a named observable of the run so far ("effects",
	// "balance" with an order ID): what counters and checks read.
	Observe(name string, args []any) (any, error)
	// Finish ends the run: it closes what Exec opened and records the
	// checks the harness adds on its own (that a real crash was real).
	Finish() error
}

// Observable names one value a harness can report, for --verbs and for
// the parser's "unknown name" errors.
type Observable struct {
	Name string
	Args int // how many arguments it takes
}

// Section is what a drill file's "harness" line names: the section's verbs,
// observables, strategies and a constructor.
type Section struct {
	ID          string // "8.2"
	Chapter     int    // 8
	Package     string // the book's code it runs, "internal/inbox"
	Harness     string // "inbox"
	Verbs       []Verb
	Observables []Observable
	// Strategies are the designs a file may pick with "strategy"; the
	// first is the default. Empty when the section has none.
	Strategies []string
	// Exercises are the section's mechanism exercises, which a file of
	// strategy student may name with "exercise NAME": the run then plugs in
	// the student's mechanism under the book's own functions. With no
	// exercise line it runs the section's protocol exercise.
	Exercises []string
	// Harms are the harms a run can do, the worst first: the explorer's
	// invariants, read off a drill's run. They decide whether a design
	// unlike the book's is wrong, where a check or a counter that differs
	// from the book's only describes the difference (check's verdict).
	Harms []RunHarm
	// Task are the drill checks ("poison/first-attempt") that state a
	// clause of the section's protocol exercise's task, written in its
	// doc comment: broken by a design judged by harm, they decide though
	// no harm was seen.
	Task []string
	// Staged are the faults of the section's table that no verb's
	// argument arms: the scenario stages them by what it delivers and
	// when. --verbs lists them after the verbs.
	Staged []StagedFault
	// RealStore says the section's consumer keeps its state in a store
	// the run can take from outside (InboxEnv.Open): a real database, in
	// consumer processes that really crash. The other sections' state
	// lives in the harness's memory only.
	RealStore bool
	// New starts a run of strategy ("" for the section's default).
	New func(strategy string, env Env, rec *Recorder) (Harness, error)
}

// TitleKey is the catalogue key of the section's title.
func (s *Section) TitleKey() string { return "section." + s.ID }

// RunHarm is one harm a run can do: the observable (of no argument) that
// counts it, a count above 0 or true, and the name of the check that
// holds when it is not done (the explorer's: "not-lost"). A harm with no
// observable is known by its check alone, as the explorer writes it in a
// counterexample's drill file ("within-budget").
type RunHarm struct{ Observable, Check string }

// HarmCheck says whether a check of that name, failing, is a harm of the
// section's: the harm's own check, or that check of one message, as a
// state page's saved file names it ("m3-not-doubled"), so the file fails
// where the page shows the harm (issue 43: an outbox's page showed m3
// doubled, and its file passed, the book's design doubling it too).
func (s *Section) HarmCheck(name string) bool {
	if msg, rest, ok := strings.Cut(name, "-"); ok && len(msg) > 1 && msg[0] == 'm' && strings.Trim(msg[1:], "0123456789") == "" {
		name = rest
	}
	return slices.ContainsFunc(s.Harms, func(h RunHarm) bool { return h.Check == name })
}

// BookStrategy is the strategy of the book's own design: what a design
// judged by harm (JudgedByHarm) is compared with.
func (s *Section) BookStrategy() string {
	if len(s.Strategies) > 0 {
		return s.Strategies[0]
	}
	return ""
}

// JudgedByHarm says whether a run of strategy is judged by the harm it
// does rather than by the book's counters: the student's code, and the
// lab's own designs written with the student's verbs (durable-inbox,
// outbox), which differ from the book's design on purpose.
func JudgedByHarm(strategy string) bool {
	return strategy == Student || LabStudents(Strategy(strategy)) != nil
}

// StagedFault is one such fault: its name and the catalogue key of its
// one-line explanation.
type StagedFault struct{ Name, DocKey string }

// Env says where a run's parts live when they are not the book's
// in-memory ones: today the §8.2 consumer and its store.
type Env struct {
	Inbox    InboxEnv
	Ordering OrderingEnv // §8.3's broker
	// Student is the student's code, for a run of strategy student.
	Student *Students
	// Exercise is the mechanism exercise a run of strategy student plugs
	// in (one of its Section's Exercises), "" for the protocol exercise.
	Exercise string
	// Meter, when set, is called before every delivery the §8.3 broker
	// makes on its own (dispatch redelivers until its queue is empty); an
	// error it returns stops the run with that error. A drill file's run
	// counts its delivery budget and watches its deadline with it.
	Meter func() error
}

// Verb finds a verb by name.
func (s *Section) Verb(name string) (Verb, bool) {
	i := slices.IndexFunc(s.Verbs, func(v Verb) bool { return v.Name == name })
	if i < 0 {
		return Verb{}, false
	}
	return s.Verbs[i], true
}

// Observable finds an observable by name.
func (s *Section) Observable(name string) (Observable, bool) {
	i := slices.IndexFunc(s.Observables, func(o Observable) bool { return o.Name == name })
	if i < 0 {
		return Observable{}, false
	}
	return s.Observables[i], true
}

// Sections lists the harnesses in book order.
var Sections = []*Section{&InboxSection, &OrderingSection, &ShardjobSection}

// SectionByName finds a harness by its name ("inbox") or section ("8.2").
func SectionByName(name string) (*Section, bool) {
	for _, s := range Sections {
		if s.Harness == name || s.ID == name {
			return s, true
		}
	}
	return nil, false
}

// ScenarioError is a step the scenario got wrong (a message never
// declared, a shard that does not exist), as opposed to a mechanism that
// failed. A drill file that causes one is a bad file. Its words are the
// catalogue's (key "harness.err.…"), so the reader gets it in their
// language, with the file's names as the file writes them.
type ScenarioError struct {
	Key  string
	Args []any // an argument that is a *ScenarioError is said in the same language
}

// Error is the message in English.
func (e *ScenarioError) Error() string { return e.Text(i18n.EN) }

// Text is the message in lang.
func (e *ScenarioError) Text(lang i18n.Lang) string {
	args := make([]any, len(e.Args))
	for i, a := range e.Args {
		if inner, ok := a.(*ScenarioError); ok {
			a = inner.Text(lang)
		}
		args[i] = a
	}
	return i18n.T(lang, e.Key, args...)
}

func scenarioErr(key string, a ...any) error { return &ScenarioError{Key: key, Args: a} }

// errArg is a bad argument value found while running (the parser catches
// the rest): "verb: arg" and what is wrong with it.
func errArg(verb, arg string, key string, a ...any) error {
	return scenarioErr("harness.err.arg", verb, arg, &ScenarioError{Key: key, Args: a})
}

// argString and argInt read an Observe argument, checking its count and type.
func argString(name string, args []any, i int) (string, error) {
	if i >= len(args) {
		return "", scenarioErr("harness.err.obs-args", name, i+1)
	}
	switch v := args[i].(type) {
	case string:
		return v, nil
	case fmt.Stringer:
		return v.String(), nil
	}
	return fmt.Sprint(args[i]), nil
}

func argInt(name string, args []any, i int) (int, error) {
	if i >= len(args) {
		return 0, scenarioErr("harness.err.obs-args", name, i+1)
	}
	v, ok := args[i].(int)
	if !ok {
		return 0, scenarioErr("harness.err.obs-number", name, i+1, Format(args[i]))
	}
	return v, nil
}
