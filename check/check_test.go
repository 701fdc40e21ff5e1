package check

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/exercises"
	"archlab/harness"
	"archlab/i18n"
)

var ctx = context.Background()

// studentLine is the header line of a drill file that runs the student's
// code: the protocol exercises, or one mechanism exercise named.
var studentLine = regexp.MustCompile(`\nstrategy student( [a-z-]+)?\n`)

// TestBookLogicIsDone: the book's logic, plugged in, makes every exercise
// done: every drill passes and no schedule of the scope breaks it.
func TestBookLogicIsDone(t *testing.T) {
	var res []*Result
	for _, e := range Exercises {
		res = append(res, checkedBook(e))
	}
	for _, r := range res {
		t.Run(r.Exercise.Name, func(t *testing.T) {
			if r.Status != Done {
				t.Fatalf("status %s, err %v, lessons %+v", r.Status, r.Err, r.Lessons)
			}
			if r.Drills != len(r.Exercise.Drills) || r.Passed != r.Drills || r.Schedules == 0 {
				t.Errorf("drills %d/%d of %d, schedules %d", r.Passed, r.Drills, len(r.Exercise.Drills), r.Schedules)
			}
		})
	}
}

// TestStubsAreNotStarted: the shipped stubs compile, never panic, and come
// out not started.
func TestStubsAreNotStarted(t *testing.T) {
	res, err := All(ctx, exercises.Students(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != NotStarted || !errors.Is(r.Err, exercises.ErrNotImplemented) {
			t.Errorf("%s: status %s, err %v", r.Exercise.Name, r.Status, r.Err)
		}
		if h := r.Hint(i18n.EN); !strings.Contains(h, r.Exercise.File) {
			t.Errorf("%s: hint %q does not name %s", r.Exercise.Name, h, r.Exercise.File)
		}
	}
}

// TestWrongVariantsCaught: every known-wrong variant is caught, with a
// lesson, a counterexample and a hint; and its counterexample, written as
// a drill file, replays with the variant plugged in to the same broken
// lessons.
//
// The mechanism tier's variants are judged by the model first, call by
// call: TestEveryClauseBrokenIsCaught and TestOneVerdict hold them.
func TestWrongVariantsCaught(t *testing.T) {
	per := map[string]int{}
	for _, v := range wrong {
		e, err := Lookup(v.exercise)
		if err != nil {
			t.Fatal(err)
		}
		if e.Tier == TierMechanism {
			continue
		}
		t.Run(v.exercise+"/"+v.name, func(t *testing.T) {
			if !inRaceSample(v) {
				t.Skip("under -race, one wrong variant of each protocol exercise (inRaceSample)")
			}
			r := checkedVariant(v)
			if r.Status != NotDone {
				t.Fatalf("status %s (err %v): the variant is not caught", r.Status, r.Err)
			}
			per[v.exercise]++
			if len(r.Lessons) == 0 || r.Shortest == nil {
				t.Fatalf("no lesson or no counterexample: %+v", r)
			}
			for _, lang := range i18n.Langs {
				if r.Hint(lang) == "" || strings.HasPrefix(r.Hint(lang), "[") {
					t.Errorf("%s hint %q", lang, r.Hint(lang))
				}
				if line := r.Shortest.Line(lang, r.Lessons[0]); line == "" || strings.Contains(line, "[check.") {
					t.Errorf("%s line %q", lang, line)
				}
			}
			steps, err := r.Shortest.Trace()
			if err != nil || len(steps) == 0 {
				t.Fatalf("trace: %d steps, %v", len(steps), err)
			}
			// The student's run tells its phases truthfully too: a retry
			// past the budget, a lost message, is a harm in a fault phase.
			if err := harness.CheckPhases(steps); err != nil {
				t.Errorf("trace: %v", err)
			}
			src, err := r.Shortest.File(i18n.EN)
			if err != nil {
				t.Fatal(err)
			}
			if !studentLine.MatchString(src) {
				t.Fatalf("the drill file does not name strategy student:\n%s", src)
			}
			replayed := replay(t, src, v.students)
			want := map[string]bool{}
			for _, l := range r.Lessons {
				if r.Shortest.Schedule != nil && l.Drill == "" || r.Shortest.Drill != "" && l.Drill == r.Shortest.Drill {
					want[l.Check] = true
				}
			}
			for name, failed := range replayed.checks {
				if failed != want[name] {
					t.Errorf("replay: check %s failed=%v, the checker said %v", name, failed, want[name])
				}
			}
			if !replayed.fails {
				t.Errorf("the replay passes:\n%s", src)
			}
		})
	}
	for _, e := range Exercises {
		if e.Tier == TierProtocol && per[e.Name] < 3 && !raceOn {
			t.Errorf("%s: %d wrong variants caught, want at least 3", e.Name, per[e.Name])
		}
	}
}

type replayed struct {
	checks map[string]bool // check name: failed
	fails  bool
}

// replay parses a drill file and runs it with the students plugged in.
func replay(t *testing.T, src string, s *harness.Students) replayed {
	t.Helper()
	d, err := drills.Parse("counterexample.txtar", []byte(src))
	if err != nil {
		t.Fatalf("the drill file does not parse: %v\n%s", err, src)
	}
	res, err := d.RunIn(d.Defaults(), harness.Env{Student: s})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	out := replayed{checks: map[string]bool{}, fails: !res.Pass}
	for _, c := range res.Checks {
		out.checks[strings.TrimPrefix(c.Key, "check."+d.Name+".")] = !c.OK
	}
	return out
}

// TestBookLogicReplaysClean: a drill file naming strategy student runs
// green with the book's logic, so a failing replay is the variant's doing.
func TestBookLogicReplaysClean(t *testing.T) {
	for _, e := range Exercises {
		for _, name := range e.Drills {
			d, err := drills.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			src, err := e.Source(d)
			if err != nil {
				t.Fatal(err)
			}
			if r := replay(t, string(src), Book()); r.fails {
				t.Errorf("%s with strategy student and the book's logic fails: %v", name, r.checks)
			}
		}
	}
}

// TestWideScope: code that survives the small scope meets the largest one
// the flags allow. The book's handler is counted over both; a handler that
// only goes wrong from the fourth message on (it drops the dedup key for
// Seq > 2, which the small scope's three messages never reach) passes the
// small scope and is caught by the wide one.
func TestWideScope(t *testing.T) {
	e, err := Lookup("consumer-handler")
	if err != nil {
		t.Fatal(err)
	}
	r := checkedBook(e)
	if want := uint64(12_282 + 11_425_227_816_683_520); r.Status != Done || r.Schedules != want {
		t.Fatalf("book: status %s, %d schedules, want done over %d", r.Status, r.Schedules, want)
	}
	late := &harness.Students{Inbox: func(d *harness.Delivery) error {
		if d.Message().Seq > 2 {
			if err := d.NaiveApply(); err != nil {
				return err
			}
			return d.Ack()
		}
		return bookHandler(d)
	}}
	r = Run(ctx, e, late)
	if r.Status != NotDone || r.Shortest == nil || r.Shortest.Schedule == nil {
		t.Fatalf("late: status %s, shortest %+v", r.Status, r.Shortest)
	}
	if got := r.Shortest.Schedule.Line(i18n.EN); !strings.Contains(got, "m8 duplicate") || !strings.Contains(got, "m8 applied 2×") {
		t.Errorf("late: counterexample %q, want m8 delivered twice and applied twice", got)
	}
}

// TestBooksRunnerIsNotDone: the book's Runner.Run, written line for line
// as the student's loop, is judged by the book's own words, "a worker that
// lost its lease cannot move the offset": not done, and its shortest
// counterexample is a zombie that moves the checkpoint, never a commit
// that leaves it where it was. The hint says so in the book's terms.
func TestBooksRunnerIsNotDone(t *testing.T) {
	booksRunner := &harness.Students{Shardjob: func(w *harness.Worker) error {
		start := w.Load()
		return runFrom(w, start)
	}}
	e, err := Lookup("shard-loop")
	if err != nil {
		t.Fatal(err)
	}
	r := Run(ctx, e, booksRunner)
	if r.Status != NotDone || len(r.Lessons) == 0 || r.Shortest == nil || r.Shortest.Schedule == nil {
		t.Fatalf("status %s, lessons %v, shortest %+v: want not done by an explored schedule", r.Status, r.Lessons, r.Shortest)
	}
	if l := r.Lessons[0]; l.Check != "zombie-never-moves" {
		t.Fatalf("first broken lesson %+v, want zombie-never-moves", l)
	}
	line := r.Shortest.Line(i18n.EN, r.Lessons[0])
	if !strings.Contains(line, "a zombie moved the checkpoint 0 → 1") {
		t.Errorf("counterexample %q: want the zombie moving the checkpoint", line)
	}
	if hint := r.Hint(i18n.EN); !strings.Contains(hint, "a worker that lost its lease cannot move the offset") || !strings.Contains(hint, "w.Fence()") {
		t.Errorf("hint %q: want the book's words and the fence", hint)
	}
}

// TestStudentCrashWindowIsTheBooks: the student's loop faces the book's
// crash point, right after the Nth item and before the commit that
// follows it. A drill file with strategy student, crash-after 40 and
// commit-every 10 gives what `drill crash-resume --crash-after 40` gives
// with the book's Runner.Run: checkpoint 30, replay 10.
func TestStudentCrashWindowIsTheBooks(t *testing.T) {
	src := `drill student-crash-window
section 11.2
strategy student
-- steps --
split 1000 4
run shard-0 every=10 crash-after=40 -> first
run shard-0 every=10 -> rerun
-- counters --
checkpoint = first.checkpoint
replay = rerun.suppressed
-- checks --
window: first.crashed
`
	d, err := drills.Parse("student-crash-window.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	resume, err := drills.Lookup("crash-resume")
	if err != nil {
		t.Fatal(err)
	}
	v := resume.Defaults()
	v["crash-after"] = 40
	want, err := resume.Run(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.RunIn(d.Defaults(), harness.Env{Student: Book()})
	if err != nil {
		t.Fatal(err)
	}
	values := func(r *drills.Result) map[string]string {
		m := map[string]string{}
		for _, c := range r.Counters {
			m[c.Name] = c.Value
		}
		return m
	}
	g, w := values(got), values(want)
	if g["checkpoint"] != "30" || g["replay"] != "10" || g["checkpoint"] != w["checkpoint"] || g["replay"] != w["replay"] {
		t.Fatalf("student: checkpoint=%s replay=%s; the book's loop: checkpoint=%s replay=%s; want 30 and 10", g["checkpoint"], g["replay"], w["checkpoint"], w["replay"])
	}
}

// TestEveryUnitCanFail: each of the book's unit cases an exercise runs
// fails for at least one of its wrong variants, with a UnitFailure (what
// differs, in the catalogue's words): a unit check that cannot fail checks
// nothing. It passes for the book's logic.
func TestEveryUnitCanFail(t *testing.T) {
	for _, e := range Exercises {
		for _, u := range e.Units {
			t.Run(e.Name+"/"+u.Name, func(t *testing.T) {
				if err := u.Run(Book()); err != nil {
					t.Fatalf("the book's logic fails it: %v", err)
				}
				var caught []string
				for _, v := range wrong {
					var f *UnitFailure
					if v.exercise == e.Name && errors.As(u.Run(v.students), &f) {
						caught = append(caught, v.name)
						for _, lang := range i18n.Langs {
							if !i18n.Has(lang, f.Key) {
								t.Errorf("%s: %s has no %s text", v.name, f.Key, lang)
							}
						}
					}
				}
				if len(caught) == 0 {
					t.Fatal("no wrong variant fails it")
				}
				t.Logf("failed by %s", strings.Join(caught, ", "))
			})
		}
	}
}
