package check

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"

	"archlab/check/subreaper"
	"archlab/exercises"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// Go cannot stop a goroutine: a student's loop that never returns would
// hang the checker, and every exercise after it, in silence. So archlab
// check runs each exercise in a child process (Serve, in `archlab check
// --child`, or in the small checker --watch builds) and ends it when its
// time runs out (RunChild). The child hands its Result back whole, its
// texts already in the user's language, as a gob on stdout; when told its
// time is up (a pipe of its own closes, Spawn) it hands back where the
// code hung instead.
// The result travels on a pipe of its own (Spawn, ServeChild): stdout and
// stderr are the student's code's, to print on as it likes.

// ChildEnv, set to "1", tells a program started as a check's child that
// it is one (a test binary acts as archlab then); package subreaper reads
// it before any init of the student's.
const ChildEnv = subreaper.ChildEnv

// DefaultTimeout is each exercise's time limit when --timeout is not given.
const DefaultTimeout = 10 * time.Second

// Hang is where a student's code was when its time ran out.
type Hang struct {
	Limit time.Duration
	Where string // the drill or the schedule running ("" if not known)
	Verb  string // the last verb the code called ("" for none)
}

// wire is a Result as the child sends it.
type wire struct {
	Exercise string
	Status   Status
	Err      string
	Lessons  []Lesson
	Texts    []string // each lesson's text, in the child's language
	// Differences and Safer, with their texts likewise.
	Differences, Safer          []Lesson
	DifferenceTexts, SaferTexts []string
	Drills                      int
	Passed                      int
	Schedules                   uint64
	Faults                      []explore.Count
	Walked                      uint64
	Shortest                    *wireRun
	Diagnosis                   *Diagnosis
	Hang                        *Hang
	// The model's: each clause's count, its calls, its counterexample,
	// the calls at once no order explains, and the mistake named.
	Clauses    []ClauseCount
	ModelCalls uint64
	Calls      *CallRun
	Race       *RaceRun
	Mistake    string
	// Trouble is the child's own failure, not the code's (an exercise it
	// does not know): the environment's, said in its words.
	Trouble string
	// Racing is not a result but a note sent before it: the calls about
	// to run at once (harness.Watch.Racing), so that a process that dies
	// of them (a Go map written from two goroutines) is still explained.
	Racing string
}

// Serve is the child's side: it checks exercise name on s, in lang, and
// writes the result to out. If in closes before it is done, it writes
// where the code is (s's Watch) instead and returns ErrHung at once; the
// caller exits, which ends the student's goroutine with the process.
func Serve(ctx context.Context, name string, lang i18n.Lang, s *harness.Students, in io.Reader, out io.Writer) error {
	e, err := Lookup(name)
	if err != nil {
		return err
	}
	with := *s
	// One encoder for the notes and the result, which go on one stream;
	// once the result is sent nothing more is.
	var (
		mu   sync.Mutex
		enc  = gob.NewEncoder(out)
		sent bool
	)
	send := func(w *wire) error {
		mu.Lock()
		defer mu.Unlock()
		if sent {
			return ErrHung
		}
		sent = true
		return enc.Encode(w)
	}
	with.Watch = &harness.Watch{Tell: func(race string) {
		mu.Lock()
		defer mu.Unlock()
		if !sent {
			enc.Encode(&wire{Exercise: name, Racing: race})
		}
	}}
	timeUp := make(chan struct{})
	go func() {
		io.Copy(io.Discard, in)
		close(timeUp)
	}()
	done := make(chan error, 1)
	go func() {
		r := Run(ctx, e, &with)
		done <- send(toWire(r, lang))
	}()
	select {
	case err := <-done:
		return err
	case <-timeUp:
		if raceMoving(with.Watch) {
			// The machine is too busy for the race's goroutines to meet
			// often, and the code is not stuck: no verdict.
			if err := send(toWire(&Result{Exercise: e, Status: Failed, Err: ErrTooBusy}, lang)); err != nil && !errors.Is(err, ErrHung) {
				return err
			}
			return ErrHung
		}
		where, verb := with.Watch.Last()
		if err := send(&wire{Exercise: name, Status: Hung, Hang: &Hang{Where: where, Verb: verb}}); err != nil && !errors.Is(err, ErrHung) {
			return err
		}
		return ErrHung
	}
}

// raceMoving reports whether a race runs and its current round has taken
// no longer than its rounds do: 5 times its longest so far, and at least
// stuckRound. When the time runs out then, the race was slowed by a
// machine too busy to run its goroutines together, not stopped by the
// student's code, which a round that stopped would be.
func raceMoving(w *harness.Watch) bool {
	racing, current, longest := w.RaceRound()
	return racing && current <= max(stuckRound, 5*longest)
}

// stuckRound is the least time a race's round must have taken before it
// counts as stopped (a variable for the test that stops one).
var stuckRound = 2 * time.Second

// ServeChild is Serve in a child Spawn started: the result goes on its
// result pipe, and a failure of the child's own (not the student's code's)
// goes there too, so the parent never reads archlab's words as what the
// code printed. ErrHung needs no words: the result says where it hung.
func ServeChild(ctx context.Context, name string, lang i18n.Lang, s *harness.Students, in io.Reader) error {
	out, err := ResultPipe()
	if err != nil {
		return err
	}
	defer out.Close()
	LimitChild()
	defer EndDescendants()
	// "Your time is up" comes on its own pipe when archlab started this
	// process (stdin is /dev/null: the code may close it).
	if tu, err := TimeUpPipe(); err == nil {
		defer tu.Close()
		in = tu
	}
	err = Serve(ctx, name, lang, s, in, out)
	if err != nil && !errors.Is(err, ErrHung) {
		gob.NewEncoder(out).Encode(&wire{Exercise: name, Trouble: err.Error()})
	}
	return err
}

// ErrHung is Serve's error when the time ran out first.
var ErrHung = errors.New("check: the exercise's time ran out")

// wireRun is a Counterexample as the child sends it.
type wireRun struct {
	Legend     []string
	Drill      string
	Explored   bool
	Line, File string
	Steps      []harness.Step
}

// toWire is r as the child sends it, its texts in lang.
func toWire(r *Result, lang i18n.Lang) *wire {
	w := &wire{Exercise: r.Exercise.Name, Status: r.Status, Drills: r.Drills, Passed: r.Passed,
		Schedules: r.Schedules, Faults: r.Faults, Walked: r.Walked, Diagnosis: r.Diagnosis, Hang: r.Hang,
		Clauses: r.Clauses, ModelCalls: r.ModelCalls, Calls: r.Calls, Race: r.Race, Mistake: r.Mistake}
	if r.Err != nil {
		w.Err = r.Err.Error()
	}
	w.Lessons, w.Texts = sendLessons(lang, r.Lessons, LessonText)
	w.Differences, w.DifferenceTexts = sendLessons(lang, r.Differences, DifferenceText)
	w.Safer, w.SaferTexts = sendLessons(lang, r.Safer, DifferenceText)
	if c := r.Shortest; c != nil {
		sent := &wireRun{Drill: c.Drill, Explored: c.Explored(), Legend: c.Legend}
		if len(r.Lessons) > 0 {
			sent.Line = c.Line(lang, r.Lessons[0])
		}
		if steps, err := c.Trace(); err == nil {
			sent.Steps = plainSteps(steps)
		}
		if f, err := c.File(lang); err == nil {
			sent.File = f
		}
		w.Shortest = sent
	}
	return w
}

// sendLessons are ls as a child sends them: each with its text in lang
// (as text words it), its arguments plain values.
func sendLessons(lang i18n.Lang, ls []Lesson, text func(i18n.Lang, Lesson) string) (out []Lesson, texts []string) {
	for _, l := range ls {
		texts = append(texts, text(lang, l))
		l.Args = plain(l.Args)
		out = append(out, l)
	}
	return out, texts
}

// sentLessons are the lessons a child sent, with their texts.
func sentLessons(ls []Lesson, texts []string) []Lesson {
	var out []Lesson
	for i, l := range ls {
		if i < len(texts) {
			l.text = texts[i]
		}
		out = append(out, l)
	}
	return out
}

// plain is args with every value a basic Go value a gob carries: a named
// type keeps its kind (a count stays a number for %d), anything else
// becomes its text.
func plain(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		v := reflect.ValueOf(a)
		switch {
		case a == nil:
			out[i] = ""
		case v.Kind() >= reflect.Int && v.Kind() <= reflect.Int64:
			out[i] = v.Int()
		case v.Kind() >= reflect.Uint && v.Kind() <= reflect.Uintptr:
			out[i] = v.Uint()
		case v.Kind() == reflect.Bool:
			out[i] = v.Bool()
		case v.Kind() == reflect.Float32 || v.Kind() == reflect.Float64:
			out[i] = v.Float()
		case v.Kind() == reflect.String && !isStringer(a):
			out[i] = v.String()
		default:
			out[i] = fmt.Sprint(a)
		}
	}
	return out
}

func isStringer(a any) bool { _, ok := a.(fmt.Stringer); return ok }

// fromWire is the Result the parent renders.
func fromWire(e *Exercise, w *wire) *Result {
	r := &Result{Exercise: e, Status: w.Status, Drills: w.Drills, Passed: w.Passed, Schedules: w.Schedules,
		Faults: w.Faults, Walked: w.Walked, Diagnosis: w.Diagnosis, Hang: w.Hang,
		Clauses: w.Clauses, ModelCalls: w.ModelCalls, Calls: w.Calls, Race: w.Race, Mistake: w.Mistake}
	switch {
	case w.Status == NotStarted:
		r.Err = exercises.ErrNotImplemented
	case w.Err == ErrTooBusy.Error():
		r.Err = ErrTooBusy
	case w.Err != "":
		r.Err = errors.New(w.Err)
	}
	r.Lessons = sentLessons(w.Lessons, w.Texts)
	r.Differences = sentLessons(w.Differences, w.DifferenceTexts)
	r.Safer = sentLessons(w.Safer, w.SaferTexts)
	if c := w.Shortest; c != nil {
		r.Shortest = &Counterexample{Drill: c.Drill, Steps: c.Steps, Legend: c.Legend, sent: c}
	}
	return r
}

// readWire reads a child's result pipe: notes (what was racing), then
// the result. A pipe that ends before the result gives the last note and
// the error.
func readWire(b []byte) (w *wire, racing string, err error) {
	dec := gob.NewDecoder(bytes.NewReader(b))
	for {
		var next wire
		if err := dec.Decode(&next); err != nil {
			return nil, racing, err
		}
		if next.Racing == "" && next.Exercise != "" && (next.Status != "" || next.Trouble != "") {
			return &next, racing, nil
		}
		racing = next.Racing
	}
}

// NoResultError is a child that ended without a result: the student's
// code called os.Exit, overflowed its stack, or hit another error Go
// cannot recover. Why is the line that says so.
type NoResultError struct{ Why string }

func (e *NoResultError) Error() string {
	return "the check's process ended without a result: " + e.Why
}

// StartError is a child that could not be started (no process, no pipe):
// the environment's failure, not the student's code's.
type StartError struct{ Err error }

func (e *StartError) Error() string { return "cannot start the check's process: " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// LimitError is a child that a limit of the machine's stopped: it could
// not make a thread (ulimit -u, or an address-space limit too small for
// another thread's stack). Nothing was judged: `archlab check` says so
// and exits 3, never "not done".
type LimitError struct{ Why string }

func (e *LimitError) Error() string {
	return "the machine's limits stopped the check's process: " + e.Why
}

// machineLimit says whether a child's last words are the Go runtime's or
// the C library's failing to make a thread.
func machineLimit(why string) bool {
	for _, s := range []string{"pthread_create failed", "failed to create new OS thread", "newosproc"} {
		if strings.Contains(why, s) {
			return true
		}
	}
	return false
}

// RunChild checks e in a child process started as argv (Spawn), with limit
// as its time limit: when the time runs out the child is told so, given a
// moment to say where the code is, then killed. The exercise comes back
// Hung; a child that dies without a result (os.Exit, a fatal error, a
// stack overflow, memory past MemoryBudget in the student's code) comes
// back Failed with the line that says why.
func RunChild(ctx context.Context, argv, env []string, e *Exercise, limit time.Duration) *Result {
	run, err := Spawn(ctx, argv, env, limit, graceTime)
	if err != nil {
		return &Result{Exercise: e, Status: Failed, Err: &StartError{err}}
	}
	if run.Ending == Canceled {
		return &Result{Exercise: e, Status: Failed, Err: ctx.Err()}
	}
	return childResult(e, run, limit)
}

// childResult is the Result a child's run says.
func childResult(e *Exercise, run *ChildRun, limit time.Duration) *Result {
	w, racing, err := readWire(run.Result)
	if why := run.Printed.Why(); err != nil && machineLimit(why) {
		// The machine refused the child a thread: not the code's doing,
		// whatever it was running, and no verdict on it.
		return &Result{Exercise: e, Status: Failed, Err: &LimitError{Why: why}}
	}
	if err != nil && racing != "" && run.Ending != TimedOut {
		// It died while calls ran at once: the calls, and how it died.
		why := run.Printed.Why()
		if why == "" {
			why = exitWords(run.State)
		}
		r := &Result{Exercise: e, Status: NotDone, Race: &RaceRun{Race: racing, Fatal: why}}
		r.Lessons = []Lesson{clauseLesson(e, atomicClause)}
		if e.model != nil {
			r.Mistake = e.model.mistake(atomicClause, harmAtomicity)
		}
		return r
	}
	switch {
	case err == nil && w.Trouble != "":
		return &Result{Exercise: e, Status: Failed, Err: &StartError{errors.New(w.Trouble)}}
	case err == nil:
		r := fromWire(e, w)
		if r.Hang != nil {
			r.Hang.Limit = limit
		}
		// Shown with a result only: without one, Why says what matters,
		// and the rest is Go's dump of every goroutine.
		r.Printed, r.PrintedLines = run.Printed.Lines()
		return r
	case run.Ending == TimedOut:
		return &Result{Exercise: e, Status: Hung, Hang: &Hang{Limit: limit}}
	case run.TooLarge:
		return &Result{Exercise: e, Status: Failed, Err: &NoResultError{Why: fmt.Sprintf("its result was over %d MB", MaxResult>>20)}}
	}
	msg := run.Printed.Why()
	if msg == "" {
		msg = exitWords(run.State)
	}
	return &Result{Exercise: e, Status: Failed, Err: &NoResultError{Why: msg}}
}

// ChildMain is a small checker's main (cmd/archlab-check): args are
// [--lang LANG] EXERCISE. It returns the exit status: 0 with a result
// written on the result pipe, 1 when the time ran out, 2 for bad
// arguments or a process not started by archlab check.
func ChildMain(args []string, s *harness.Students, in io.Reader, errOut io.Writer) int {
	lang := i18n.EN
	if len(args) == 3 && args[0] == "--lang" {
		l, ok := i18n.Parse(args[1])
		if !ok {
			fmt.Fprintf(errOut, "archlab-check: --lang must be zh or en, got %q\n", args[1])
			return 2
		}
		lang, args = l, args[2:]
	}
	if len(args) != 1 {
		fmt.Fprintln(errOut, "archlab-check: usage: archlab-check [--lang zh|en] EXERCISE (archlab check --watch runs it)")
		return 2
	}
	err := ServeChild(context.Background(), args[0], lang, s, in)
	switch {
	case errors.Is(err, ErrHung):
		return 1
	case errors.Is(err, ErrNoPipe):
		fmt.Fprintln(errOut, "archlab-check: "+err.Error()) // run by hand: a reader to tell
		return 2
	case err != nil:
		return 2 // said on the result pipe
	}
	return 0
}
