package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"archlab/check"
	"archlab/drills"
	"archlab/ui/status"
	"archlab/ui/term"
)

// `archlab check --format exercism` writes each exercise's result as an
// Exercism test runner writes a solution's: DIR/EXERCISE/results.json in
// the test-runner interface's version 3
// (exercism/docs, building/tooling/test-runners/interface.md), so that a
// class's CI or a grading tool that reads those files reads archlab's.
//
// One exercise is one solution and one task (write its function, task 1).
// Its tests are the checker's, in the order it runs them: each drill run
// with the student's code, then the explorer's scope (the small one and,
// once that holds, the wide one: a single test, as check reports it). The
// spec's per-test "output" is what the student's code printed on purpose;
// archlab does not capture that, so the key is absent, as the spec allows.

// exercismVersion is the interface's version these files follow.
const exercismVersion = 3

// ExercismResults is one results.json.
type ExercismResults struct {
	Version int    `json:"version"`
	Status  string `json:"status"`            // pass, fail or error (no test ran)
	Message string `json:"message,omitempty"` // only with error: what stopped every test
	// Tests are never null: a grading tool reads an array.
	Tests []ExercismTest `json:"tests"`
}

// ExercismTest is one test of a results.json.
type ExercismTest struct {
	Name     string `json:"name"`
	TestCode string `json:"test_code,omitempty"` // the drill file run, or the command that shows the scope's run
	Status   string `json:"status"`              // pass, fail or error
	Message  string `json:"message,omitempty"`   // why it failed, in the reader's language
	Output   string `json:"output,omitempty"`    // the student's own printing: not captured (above)
	TaskID   int    `json:"task_id,omitempty"`
}

// The statuses of the interface.
const (
	ExPass  = "pass"
	ExFail  = "fail"
	ExError = "error"
)

// exercism is res as a results.json, in the reader's language.
func (r *Report) exercism(res *check.Result) (ExercismResults, error) {
	e := res.Exercise
	out := ExercismResults{Version: exercismVersion, Tests: []ExercismTest{}}
	// Where the check stopped, when the code returned its own error or
	// panicked: the drills before it ran, the one at it errored, the
	// tests after it did not run.
	stoppedAt := -1
	stopped := ""
	switch res.Status {
	case check.Failed:
		stoppedAt, stopped = res.Drills, r.t("check.exercism.error", res.Err)
	case check.Hung:
		stoppedAt, stopped = res.Drills, r.line(res)+"\n"+strings.TrimSpace(r.hang(res.Hang))
	}
	firstFail := true
	test := func(i int, name, code string, lessons []string, shortest bool) ExercismTest {
		t := ExercismTest{Name: name, TestCode: code, Status: ExPass, TaskID: 1}
		switch {
		case res.Status == check.NotStarted:
			t.Status, t.Message = ExFail, r.t("check.hint.start", e.File, e.Func)
		case stoppedAt >= 0 && i == stoppedAt:
			t.Status, t.Message = ExError, stopped
		case stoppedAt == -2, stoppedAt >= 0 && i > stoppedAt:
			t.Status, t.Message = ExError, r.t("check.exercism.not-run", e.Name)
		case len(lessons) > 0:
			t.Status = ExFail
			msg := lessons
			if shortest {
				msg = append(msg, strings.TrimSpace(r.t("check.detail.shortest", res.Shortest.Line(r.Lang, res.Lessons[0]))))
				for _, l := range r.diagnosis(res.Diagnosis) {
					msg = append(msg, strings.TrimSpace(l))
				}
			}
			if firstFail {
				msg = append(msg, strings.TrimSpace(r.t("check.detail.hint", res.Hint(r.Lang))))
				firstFail = false
			}
			t.Message = strings.Join(msg, "\n")
		}
		return t
	}
	// A mechanism's clauses come first, as the check runs them: one test
	// each. Once one breaks (or the calls at once do), the check stops
	// there: the clauses it had not finished, and every test after them,
	// did not run.
	modelStopped := res.Calls != nil || res.Race != nil
	for _, clause := range e.Clauses() {
		t := ExercismTest{Name: r.t("check.exercism.clause", clause), TestCode: "go run ./cmd/archlab check " + e.Name, Status: ExPass, TaskID: 1}
		broken := res.Calls != nil && res.Calls.Clause == clause || res.Race != nil && clause == check.AtomicClause
		switch {
		case res.Status == check.NotStarted:
			t.Status, t.Message = ExFail, r.t("check.hint.start", e.File, e.Func)
		case broken:
			t.Status, t.Message = ExFail, r.modelMessage(res)
			if res.Calls != nil {
				t.TestCode = res.Calls.GoTest
			}
		case modelStopped, res.Status == check.Failed && len(res.Clauses) == 0, res.Status == check.Hung && len(res.Clauses) == 0:
			t.Status, t.Message = ExError, r.t("check.exercism.not-run", e.Name)
		}
		out.Tests = append(out.Tests, t)
	}
	if modelStopped {
		stoppedAt, stopped = -2, r.t("check.exercism.not-run", e.Name)
	}
	// The book's own test cases come next, as the check runs them.
	for _, u := range e.Units {
		var lessons []string
		for _, l := range res.Lessons {
			if l.Unit == u.Name {
				lessons = append(lessons, check.LessonText(r.Lang, l))
			}
		}
		out.Tests = append(out.Tests, test(-1, r.t("check.exercism.unit", u.Name), "go run ./cmd/archlab check "+e.Name, lessons, false))
	}
	for i, name := range e.Drills {
		code, err := r.drillCode(e, name)
		if err != nil {
			return out, err
		}
		var lessons []string
		for _, l := range res.Lessons {
			if l.Drill == name {
				lessons = append(lessons, check.LessonText(r.Lang, l))
			}
		}
		shortest := res.Shortest != nil && res.Shortest.Drill == name && !res.Shortest.Explored()
		out.Tests = append(out.Tests, test(i, r.t("check.exercism.drill", name), code, lessons, shortest))
	}
	var lessons []string
	for _, l := range res.Lessons {
		if l.Drill == "" && l.Unit == "" {
			lessons = append(lessons, check.LessonText(r.Lang, l))
		}
	}
	shortest := res.Shortest != nil && res.Shortest.Explored()
	t := test(len(e.Drills), r.t("check.exercism.explore"), "go run ./cmd/archlab check "+e.Name+" --show", lessons, shortest)
	if shortest && t.Status == ExFail {
		file, err := res.Shortest.File(r.Lang)
		if err != nil {
			return out, err
		}
		t.Message += "\n\n" + r.t("check.detail.file", "go run ./cmd/archlab", FileName(file)) + "\n" + file
	}
	out.Tests = append(out.Tests, t)

	out.Status = ExPass
	allError := true
	for _, t := range out.Tests {
		if t.Status != ExPass {
			out.Status = ExFail
		}
		allError = allError && t.Status == ExError
	}
	if allError {
		out.Status, out.Message = ExError, stopped
	}
	return out, nil
}

// modelMessage is a broken clause's test message: the clause, the calls
// (or the calls at once), the mistake and the hint, as the text report
// says them.
func (r *Report) modelMessage(res *check.Result) string {
	var b bytes.Buffer
	plain := *r.Renderer
	plain.Out, plain.P, plain.Width = &b, term.NewPalette(false), 1<<20 // one line each, no colour
	text := *r
	text.Renderer, text.Show = &plain, false
	if res.Calls != nil {
		text.calls(res.Calls)
	} else {
		text.race(res.Race)
	}
	msg := []string{check.LessonText(r.Lang, res.Lessons[0])}
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		msg = append(msg, strings.TrimSpace(l))
	}
	if res.Mistake != "" {
		msg = append(msg, strings.TrimSpace(r.t("check.diag.mistake", check.MistakeText(r.Lang, res.Mistake))))
	}
	msg = append(msg, strings.TrimSpace(r.t("check.detail.hint", res.Hint(r.Lang))))
	return strings.Join(msg, "\n")
}

// drillCode is the drill file a drill test runs, as the student's code
// runs it (strategy student, and the mechanism exercise it plugs in): the
// test's code. Its words (the -- en --
// and -- zh -- sections) are left out: they explain the drill, the
// student reads them with archlab explain.
func (r *Report) drillCode(e *check.Exercise, name string) (string, error) {
	d, err := drills.Lookup(name)
	if err != nil {
		return "", err
	}
	src, err := e.Source(d)
	code := string(src)
	for _, words := range []string{"\n-- en --\n", "\n-- zh --\n"} {
		if i := strings.Index(code, words); i >= 0 {
			code = code[:i+1]
		}
	}
	return code, err
}

// Exercism writes DIR/EXERCISE/results.json for every result, each
// whole or not at all, and says on stdout which it wrote and its status.
// A file that cannot be written is exit 3: the environment, not a verdict;
// what this run made before it is taken back.
func (r *Report) Exercism(results []*check.Result, dir string) (err error) {
	var made term.Made
	defer func() {
		if err != nil {
			made.Undo()
		}
	}()
	for _, res := range results {
		ex, err := r.exercism(res)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := term.WriteJSON(&b, ex); err != nil {
			return err
		}
		sub := filepath.Join(dir, res.Exercise.Name)
		path := filepath.Join(sub, "results.json")
		if err := made.Dir(sub); err != nil {
			return &status.CouldNotRun{Msg: r.t("check.exercism.err.write", path, term.OSReason(r.Lang, err))}
		}
		fresh := term.Fresh(path)
		if err := writeWhole(path, b.Bytes(), 0o644); err != nil {
			return &status.CouldNotRun{Msg: r.t("check.exercism.err.write", path, term.OSReason(r.Lang, err))}
		}
		if fresh {
			made.File(path)
		}
		if _, err := fmt.Fprintln(r.Out, r.t("check.exercism.wrote", path, ex.Status)); err != nil {
			return err
		}
	}
	return nil
}

// writeWhole writes b to path through a temporary file beside it: a
// reader of path sees the old file or the new one, never half of one.
func writeWhole(path string, b []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".results-*.json")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
