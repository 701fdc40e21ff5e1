package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"archlab/drills"
	"archlab/exercises"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// Status is how far an exercise is.
type Status string

// The statuses.
const (
	Done       Status = "done"        // no drill and no schedule breaks it
	NotDone    Status = "not-done"    // a lesson fails
	NotStarted Status = "not-started" // the stub still returns exercises.ErrNotImplemented
	Failed     Status = "error"       // the code returned an error of its own, or panicked
	Hung       Status = "timeout"     // the code did not finish within its time limit
)

// Lesson is one lesson the student's code broke: a drill's check, a
// drill's counter that differs from the book, or an invariant of the
// explorer's scope.
type Lesson struct {
	Drill string // the drill, or "" for the explorer
	Check string // the check's name: "effects-once", or the explorer's "not-lost"
	Key   string // the catalogue key of its text
	// Unit, when set, is the book's test case that failed (Key and Args
	// say how).
	Unit string
	Args []any
	// Task: a clause of the exercise's task (harness.Section.Task),
	// broken with no harm seen.
	Task bool
	// Counter, when set, is a counter that differs from the book's value.
	Counter          string
	Value, BookValue string
	text             string // its text, when it came from a child process
}

// Counterexample is the shortest run that breaks the student's code: a
// schedule of the explorer's, or else a failing drill.
type Counterexample struct {
	Drill string // the failing drill; "" for the explorer's schedule
	// Legend names what the schedule's short names stand for
	// ("m1=checkout:evt-1"), as explore prints it.
	Legend   []string
	Schedule *explore.Counterexample
	Steps    []harness.Step
	source   []byte
	// sent, when set, is the run as a child process sent it, its texts
	// in the child's language.
	sent *wireRun
	// lesson is the drill's first broken lesson: the one its line names,
	// even when a unit of the book's broke before any drill ran.
	lesson *Lesson
}

// Explored says whether the run is the explorer's schedule (else a drill).
func (c *Counterexample) Explored() bool {
	if c.sent != nil {
		return c.sent.Explored
	}
	return c.Schedule != nil
}

// Line is the counterexample in one line, in lang.
func (c *Counterexample) Line(lang i18n.Lang, first Lesson) string {
	if c.sent != nil {
		return c.sent.Line
	}
	if c.Schedule != nil {
		return c.Schedule.Line(lang)
	}
	if c.lesson != nil {
		first = *c.lesson
	}
	return i18n.T(lang, "check.line.drill", c.Drill, LessonText(lang, first))
}

// Trace is every step of the run, for the timeline.
func (c *Counterexample) Trace() ([]harness.Step, error) {
	if c.Schedule != nil {
		return c.Schedule.Trace()
	}
	return c.Steps, nil
}

// File is the drill file that replays the counterexample with
// `archlab drill --file` and strategy student.
func (c *Counterexample) File(lang i18n.Lang) (string, error) {
	if c.sent != nil {
		return c.sent.File, nil
	}
	if c.Schedule != nil {
		return c.Schedule.Emit(lang)
	}
	return string(c.source), nil
}

// Result is one exercise checked.
type Result struct {
	Exercise  *Exercise
	Status    Status
	Err       error    // NotStarted or Failed: what the code returned
	Lessons   []Lesson // the lessons it broke, drills first, in order
	Drills    int      // drills run
	Passed    int      // drills passed
	Schedules uint64   // the explorer's schedules run (0 when it did not get that far)
	// Faults is how many of the schedules run hit each fault class of the
	// scope (the small scope, walked schedule by schedule).
	Faults    []explore.Count
	Walked    uint64 // the schedules Faults counted in
	Shortest  *Counterexample
	Diagnosis *Diagnosis // where the shortest run parts from the book's
	Hang      *Hang      // Hung: where the code was when its time ran out
	// Clauses is how many of the model's calls reached each clause of the
	// exercise's doc comment (a mechanism exercise), ModelCalls how many
	// calls it made in all.
	Clauses    []ClauseCount
	ModelCalls uint64
	// Differences are the drills' checks and counters that differ from
	// the book's where the code did no harm the book's design does not:
	// a design unlike the book's, shown beside the book's values, never
	// the verdict. Safer are the harms the book's design does in a drill
	// and the code does not.
	Differences, Safer []Lesson
	// Calls is the model's counterexample: the shortest sequence of calls
	// where the student's type answers otherwise than the book's.
	Calls *CallRun
	// Race is calls made at once whose answers no order of them explains.
	Race *RaceRun
	// Mistake is the known mistake the failure shows (MistakeText), ""
	// for none: named only when the harm seen is the one it describes.
	Mistake string
	// WideSkipped: the wide scope could not judge the code (a handler
	// that keeps an inbox table of its own); the small scope did.
	WideSkipped bool
	// Printed is the first lines the student's code printed (to stdout
	// or stderr) in its child, PrintedLines how many it printed in all.
	Printed      []string
	PrintedLines int
}

// LessonText is a lesson in lang: its check's text, or the counter that
// differs.
func LessonText(lang i18n.Lang, l Lesson) string {
	if l.text != "" {
		return l.text
	}
	if l.Counter != "" {
		return i18n.T(lang, "check.lesson.counter", l.Counter, l.Value, l.BookValue)
	}
	if l.Unit != "" {
		return i18n.T(lang, "check.lesson.unit", l.Unit, i18n.T(lang, l.Key, l.Args...))
	}
	if l.Args != nil {
		return i18n.T(lang, l.Key, l.Args...)
	}
	// A lesson's words are its drill's (drills.Drill.Text).
	if d, err := drills.Lookup(l.Drill); err == nil {
		if l.Task {
			return i18n.T(lang, "check.lesson.task", d.Text(lang, l.Key))
		}
		return d.Text(lang, l.Key)
	}
	return i18n.T(lang, l.Key)
}

// DifferenceText is a difference of design (Result.Differences) or a
// harm the code is safer from (Result.Safer) in lang, with its drill: a
// counter beside the book's value, "crash-resume: checkpoint 36 where the
// book's design gives 30".
func DifferenceText(lang i18n.Lang, l Lesson) string {
	if l.text != "" {
		return l.text // as a child sent it, whole
	}
	var text string
	switch {
	case l.Counter != "":
		text = i18n.T(lang, "check.difference.counter", l.Counter, l.Value, l.BookValue)
	default:
		text = LessonText(lang, l)
	}
	return i18n.T(lang, "check.difference.in", l.Drill, text)
}

// Hint is the book's rule the first broken lesson points at, in lang:
// specific to the lesson when the catalogue has a hint for it, else the
// exercise's.
func (r *Result) Hint(lang i18n.Lang) string {
	base := "check.hint." + r.Exercise.Name
	switch r.Status {
	case NotStarted:
		return i18n.T(lang, "check.hint.start", r.Exercise.File, r.Exercise.Func)
	case Done:
		return ""
	}
	// The mistake named, when one is: its hint is written for it.
	if h := MistakeHint(lang, r.Mistake); h != "" {
		return h
	}
	if len(r.Lessons) > 0 {
		l := r.Lessons[0]
		for _, key := range []string{base + "." + l.Check, base + "." + l.Drill} {
			if i18n.Has(lang, key) {
				return i18n.T(lang, key)
			}
		}
	}
	return i18n.T(lang, base)
}

// MistakeHint is the hint written for a known mistake, "" for none.
func MistakeHint(lang i18n.Lang, mistake string) string {
	if key := "check.hint.mistake." + mistake; mistake != "" && i18n.Has(lang, key) {
		return i18n.T(lang, key)
	}
	return ""
}

// Run checks one exercise on the student's code s: the drills first, then
// the explorer's scope. A stub that still returns
// exercises.ErrNotImplemented stops at the first drill.
func Run(ctx context.Context, e *Exercise, s *harness.Students) *Result {
	r := &Result{Exercise: e}
	// The exercise's part of the student's code alone: the book's runs
	// around it (§11.2's shard loop and runner both take Runner.Run's
	// place).
	if only := s.Only(e.Name); only != nil {
		s = only
	}
	if s == nil || !e.plugged(s) {
		r.Status, r.Err = NotStarted, exercises.ErrNotImplemented
		return r
	}
	// The book's own mechanism handed over is no answer to the exercise.
	if book := delegated(e.Name, s); book != "" && e.Tier == TierMechanism {
		r.Status = NotDone
		r.Lessons = []Lesson{{Check: "book-type", Key: "check.lesson.book-type", Args: []any{book}}}
		return r
	}
	// The code's first answers, before anything else ran it (keptState).
	var probed string
	if e.probe != nil {
		s.Watch.At(harness.Name("the probe"))
		err := safely(func() error {
			var err error
			probed, err = e.probe(s)
			return err
		})
		if r.stopped(err) {
			return r
		}
	}
	// A mechanism's first judge is the book's type: every clause of the
	// doc comment, call by call, then two calls at once. A difference is
	// the whole verdict: its clause the headline, its calls the run.
	if e.model != nil && r.modelled(e, s) {
		return r
	}
	for _, u := range e.Units {
		s.Watch.At(harness.Name("test " + u.Name))
		err := safely(func() error { return u.Run(s.Watched()) })
		var f *UnitFailure
		if !errors.As(err, &f) {
			if r.stopped(err) {
				return r
			}
			continue
		}
		r.Lessons = append(r.Lessons, Lesson{Unit: u.Name, Key: f.Key, Args: f.Args})
	}
	env := harness.Env{Student: s, Exercise: e.DrillExercise()}
	var first *drills.Result // the first drill's run: the code's first answers (keptState)
	for _, name := range e.Drills {
		d, err := drills.Lookup(name)
		if err != nil {
			r.Status, r.Err = Failed, err
			return r
		}
		sd := drills.ForExercise(d, e.DrillExercise())
		s.Watch.At(harness.Name("drill " + name))
		var res *drills.Result
		err = safely(func() error {
			var err error
			res, err = sd.RunIn(sd.Defaults(), env)
			return err
		})
		if err == nil && res.Err != nil {
			err = res.Err
		}
		if r.stopped(err) {
			return r
		}
		r.Drills++
		if first == nil {
			first = res
		}
		// Harm decides; the book's numbers inform. A harm the book's own
		// design does in this drill too (prune-window's replay past the
		// window) is the drill's lesson, not the code's; one the book's
		// does and the code does not is the code being safer.
		// (drills.Drill.judgeByHarm runs the book's design beside it.)
		before := len(r.Lessons)
		var differences []Lesson
		for _, h := range res.Extra {
			r.Lessons = append(r.Lessons, harmLesson(name, h))
		}
		for _, h := range res.Safer {
			r.Safer = append(r.Safer, harmLesson(name, h))
		}
		for _, c := range res.Checks {
			if c.OK {
				continue
			}
			l := Lesson{Drill: name, Check: strings.TrimPrefix(c.Key, "check."+name+"."), Key: c.Key}
			if sd.TaskClause(l.Check) {
				// A clause the task states (harness.Section.Task):
				// it decides, with no harm seen.
				l.Task = true
				r.Lessons = append(r.Lessons, l)
				continue
			}
			differences = append(differences, l)
		}
		for _, c := range res.Counters {
			if c.Match != nil && !*c.Match {
				differences = append(differences, Lesson{Drill: name, Counter: c.Name, Value: c.Value, BookValue: *c.Book})
			}
		}
		if len(r.Lessons) == before {
			// A difference of design only where the drill saw no harm:
			// in a drill that did harm, "effects 2 where the book's
			// design gives 1" is the harm's trace, not a design.
			r.Differences = append(r.Differences, differences...)
			r.Passed++
			continue
		}
		if r.Shortest == nil {
			src, err := drills.ExerciseSource(d, e.DrillExercise())
			if err != nil {
				r.Status, r.Err = Failed, err
				return r
			}
			first := r.Lessons[before]
			r.Shortest = &Counterexample{Drill: name, Steps: res.Steps, source: src, lesson: &first}
		}
	}
	// The small scope first: its counterexample is the one to read. Only
	// code that survives it meets the wide scope.
	var (
		ce     *explore.Counterexample
		legend []string
	)
	for k, scope := range []func(context.Context, *harness.Students) (*explore.Report, error){e.explore, e.wide} {
		if scope == nil {
			break
		}
		var rep *explore.Report
		err := safely(func() error {
			var err error
			rep, err = scope(ctx, s)
			return err
		})
		if k == 1 && errors.Is(err, explore.ErrNotLocal) {
			// A handler with an inbox table of its own: the wide scope,
			// counted through the states, cannot key on it. The small
			// scope was run schedule by schedule, restarts and all.
			r.WideSkipped = true
			break
		}
		if r.stopped(err) {
			return r
		}
		st := rep.Strategies[0]
		r.Schedules += st.Schedules
		if st.Faults != nil {
			r.Faults, r.Walked = st.Faults, st.Schedules
		}
		if ce = st.Shortest; ce != nil {
			legend = rep.Legend
			break
		}
	}
	if kept := keptState(e, env, first, probed); kept != nil {
		// Whatever else the runs showed came from code whose answers
		// depend on the runs before them: that is the lesson to read.
		r.Lessons, r.Shortest, r.Status = []Lesson{*kept}, nil, NotDone
		r.Differences, r.Safer = nil, nil
		return r
	}
	if ce != nil {
		names, broken, err := ce.Checks()
		if err != nil {
			r.Status, r.Err = Failed, err
			return r
		}
		for i, name := range names {
			if broken[i] {
				r.Lessons = append(r.Lessons, Lesson{Check: name, Key: "explore.emit.check." + name})
			}
		}
		// The explorer's schedule is the shortest that breaks the code:
		// it is the one to show, even when a drill failed too.
		r.Shortest = &Counterexample{Schedule: ce, Legend: legend}
	}
	if r.Shortest != nil {
		// One verdict: the headline is what the shortest run breaks.
		r.Lessons = headlineFirst(r.Lessons, r.Shortest)
		if src, err := r.Shortest.File(i18n.EN); err == nil {
			r.Diagnosis = diagnose(e, s, src)
		}
		if r.Diagnosis != nil && len(r.Lessons) > 0 && r.Diagnosis.Mistake != "" {
			// The run may break several lessons: the headline is the one
			// the mistake seen explains, if it explains any; a mistake
			// that explains none of them is not named.
			r.Mistake = r.Diagnosis.Mistake
			i := slices.IndexFunc(r.Lessons, func(l Lesson) bool {
				return r.Shortest.breaks(l) && explains(e.Mistakes, r.Mistake, l)
			})
			if i < 0 {
				r.Mistake, r.Diagnosis.Mistake = "", ""
			} else {
				l := r.Lessons[i]
				r.Lessons = append([]Lesson{l}, slices.Delete(r.Lessons, i, i+1)...)
			}
		}
	}
	// No lucky passes: a fault class that never struck was never tested,
	// but for one that strikes only at a call the code never makes (a
	// lease's claim).
	for _, f := range r.Faults {
		if f.N == 0 && !harness.NeedsCall(f.Name) {
			r.Lessons = append(r.Lessons, Lesson{Check: "unfired", Key: "check.lesson.unfired", Args: []any{f.Name}})
		}
	}
	r.Status = Done
	if len(r.Lessons) > 0 {
		r.Status = NotDone
	}
	return r
}

// keptState runs the exercise's probe and its first drill again, once
// every drill and schedule ran, and compares what the code did with its
// first runs: code
// that keeps state outside the store the verbs give it (a package-level
// variable, a cache) answers otherwise now. A real consumer's restart
// loses that state, and a run's verdict would depend on the runs before
// it (a counterexample that does not replay). nil when both runs agree.
func keptState(e *Exercise, env harness.Env, first *drills.Result, probed string) *Lesson {
	if e.probe != nil {
		var again string
		err := safely(func() error {
			var err error
			again, err = e.probe(env.Student)
			return err
		})
		if err == nil && again != probed {
			return &Lesson{Check: "state-kept", Key: "check.lesson.state-kept-probe"}
		}
	}
	if first == nil || len(e.Drills) == 0 {
		return nil
	}
	d, err := drills.Lookup(e.Drills[0])
	if err != nil {
		return nil
	}
	sd := drills.ForExercise(d, e.DrillExercise())
	env.Student.Watch.At(harness.Name("drill " + d.Name))
	var again *drills.Result
	if err := safely(func() error {
		var err error
		again, err = sd.RunIn(sd.Defaults(), env)
		return err
	}); err != nil || again.Err != nil {
		return nil // an error of its own is judged where it first showed
	}
	if sameRun(first, again) {
		return nil
	}
	return &Lesson{Drill: d.Name, Check: "state-kept", Key: "check.lesson.state-kept", Args: []any{d.Name}}
}

// sameRun says whether two runs of one drill did the same: every step,
// arguments and all, and every counter.
func sameRun(a, b *drills.Result) bool {
	if !slices.EqualFunc(a.Steps, b.Steps, sameStep) || len(a.Counters) != len(b.Counters) {
		return false
	}
	for i := range a.Counters {
		if a.Counters[i].Value != b.Counters[i].Value {
			return false
		}
	}
	return true
}

// Unjudged reports whether the machine kept r from a verdict: its limits
// stopped the child, or it was too busy to run two calls at once. Such a
// result is no verdict on the code: `archlab check` exits 3.
func Unjudged(r *Result) bool {
	var limit *LimitError
	return errors.Is(r.Err, ErrTooBusy) || errors.As(r.Err, &limit)
}

// harmLesson is the harm h (the name of the check it breaks: "not-lost")
// done in drill.
func harmLesson(drill, h string) Lesson {
	return Lesson{Drill: drill, Check: h, Key: "explore.emit.check." + h}
}

// modelled runs e's model on s: the calls in sequence, then at once. It
// says whether the model decided the verdict (a difference, or the
// student's code stopping it); the book's scenarios run only after a
// pass.
func (r *Result) modelled(e *Exercise, s *harness.Students) bool {
	mr, err := e.model.check(s.Watched())
	if r.stopped(err) {
		return true
	}
	r.Clauses, r.ModelCalls = mr.Coverage, mr.Calls
	if mr.Run != nil {
		r.Status, r.Calls = NotDone, mr.Run
		r.Lessons = []Lesson{clauseLesson(e, mr.Run.Clause)}
		r.Mistake = e.model.mistake(mr.Run.Clause, mr.Run.Harm)
		return true
	}
	// Calls at once go to the student's values as they are: a Watch told
	// of every call would order them by its own lock.
	race, err := e.model.linearizable(s)
	if errors.Is(err, ErrTooBusy) {
		// Not the code's doing, and not a pass: nothing is judged, and
		// `archlab check` exits 3.
		r.Status, r.Err = Failed, ErrTooBusy
		return true
	}
	if r.stopped(err) {
		return true
	}
	if race != nil {
		r.Status, r.Race = NotDone, race
		r.Lessons = []Lesson{clauseLesson(e, atomicClause)}
		r.Mistake = e.model.mistake(atomicClause, harmAtomicity)
		return true
	}
	r.Clauses = append(r.Clauses, ClauseCount{Name: atomicClause, N: e.model.raceCalls()})
	// No lucky passes: a clause no call reached was never checked.
	for _, c := range r.Clauses {
		if c.N == 0 {
			r.Lessons = append(r.Lessons, Lesson{Check: "unreached", Key: "check.lesson.unreached", Args: []any{c.Name}})
		}
	}
	return false
}

// AtomicClause is every mechanism's last clause: calls made at once
// answer as the same calls one after the other would.
const AtomicClause = "atomic"

// atomicClause is AtomicClause, as this package's files say it.
const atomicClause = AtomicClause

// Clauses are a mechanism exercise's clauses, in its doc comment's order
// (none for a protocol exercise): the model's, then AtomicClause.
func (e *Exercise) Clauses() []string {
	if e.model == nil {
		return nil
	}
	return append(append([]string{}, e.model.clauses...), AtomicClause)
}

// clauseLesson is a clause of e's doc comment, broken.
func clauseLesson(e *Exercise, clause string) Lesson {
	return Lesson{Check: clause, Key: "check.clause." + e.Name + "." + clause}
}

// headlineFirst puts the lessons the shortest run breaks first: a drill's
// lessons for a drill, the schedule's checks for the explorer's run.
func headlineFirst(lessons []Lesson, c *Counterexample) []Lesson {
	var first, rest []Lesson
	for _, l := range lessons {
		if c.breaks(l) {
			first = append(first, l)
		} else {
			rest = append(rest, l)
		}
	}
	return append(first, rest...)
}

// breaks says whether l is a lesson the run c breaks: one of its drill's,
// or one of the explorer's checks for the explorer's schedule.
func (c *Counterexample) breaks(l Lesson) bool {
	if c.Schedule != nil {
		return l.Drill == "" && l.Unit == "" && l.Check != "unfired"
	}
	return l.Drill == c.Drill
}

// explains says whether the known mistake key describes the harm the
// headline lesson names: a mistake that explains a loss is not named over
// a double apply.
func explains(ms []Mistake, key string, headline Lesson) bool {
	for _, m := range ms {
		if m.Key == key {
			return len(m.Harms) == 0 || slices.Contains(m.Harms, headline.Check)
		}
	}
	return false
}

// stopped records an error that ends the check: the stub, or the code's
// own error or panic.
func (r *Result) stopped(err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, exercises.ErrNotImplemented):
		r.Status, r.Err = NotStarted, exercises.ErrNotImplemented
	default:
		r.Status, r.Err = Failed, err
	}
	return true
}

// safely runs f, turning a panic in the student's code into an error.
func safely(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{fmt.Sprint(p)}
		}
	}()
	return f()
}

// panicError is the student's code panicking, with what it panicked with.
type panicError struct{ value string }

func (e *panicError) Error() string { return "the code panicked: " + e.value }

// All checks every exercise, or only the one named, in order.
func All(ctx context.Context, s *harness.Students, only string) ([]*Result, error) {
	list := Exercises
	if only != "" {
		e, err := Lookup(only)
		if err != nil {
			return nil, err
		}
		list = []*Exercise{e}
	}
	var out []*Result
	for _, e := range list {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, Run(ctx, e, s))
	}
	return out, nil
}

// Diagnosis is where a failing run parts from the book's on the same
// schedule (diagnose.go).
type Diagnosis struct {
	Step        int            // the 1-based step of the student's run where the runs part
	At          harness.Step   // the world's move there (a delivery, a crash, a takeover)
	Book, Yours []harness.Step // what each run's code did in answer
	Mistake     string         // the known mistake the run shows (MistakeText), "" for none
}
