package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"archlab/check"
	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
	"archlab/internal/ordering"
	"archlab/ui/report"
)

// readResults reads DIR/EXERCISE/results.json twice over: as the struct,
// and as a map, to see which keys are there at all.
func readResults(t *testing.T, dir, exercise string) (report.ExercismResults, map[string]any, []map[string]any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, exercise, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.ExercismResults
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s: %v\n%s", exercise, err, b)
	}
	var raw map[string]any
	json.Unmarshal(b, &raw)
	var tests []map[string]any
	for _, x := range raw["tests"].([]any) {
		tests = append(tests, x.(map[string]any))
	}
	return r, raw, tests
}

// keys lists a JSON object's keys, sorted.
func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// wantTests checks the tests of one results.json against the exercise:
// one per drill, in the checker's order, then the explorer's scope; each
// with the keys the interface names and nothing else.
func wantTests(t *testing.T, lang i18n.Lang, e *check.Exercise, r report.ExercismResults, raw []map[string]any, status func(i int) string) {
	t.Helper()
	clauses, units := len(e.Clauses()), len(e.Units)
	if len(r.Tests) != clauses+units+len(e.Drills)+1 {
		t.Fatalf("%s: %d tests, want %d (a mechanism's clauses, the book's units, its drills and the explorer)", e.Name, len(r.Tests), clauses+units+len(e.Drills)+1)
	}
	for i, tc := range r.Tests {
		name := i18n.T(lang, "check.exercism.explore")
		if i < clauses {
			name = i18n.T(lang, "check.exercism.clause", e.Clauses()[i])
			if tc.TestCode != "go run ./cmd/archlab check "+e.Name {
				t.Errorf("%s, clause %d: test_code %q", e.Name, i, tc.TestCode)
			}
			if tc.Name != name || tc.Status != status(i) || tc.TaskID != 1 {
				t.Errorf("%s, test %d: name %q, status %q, task_id %d; want %q, %q, 1", e.Name, i, tc.Name, tc.Status, tc.TaskID, name, status(i))
			}
			continue
		}
		i -= clauses
		if i < units {
			name = i18n.T(lang, "check.exercism.unit", e.Units[i].Name)
			if tc.TestCode != "go run ./cmd/archlab check "+e.Name {
				t.Errorf("%s, unit %d: test_code %q", e.Name, i, tc.TestCode)
			}
		} else if j := i - units; j < len(e.Drills) {
			name = i18n.T(lang, "check.exercism.drill", e.Drills[j])
			d, _ := drills.Lookup(e.Drills[j])
			src, _ := e.Source(d)
			if !strings.HasPrefix(string(src), tc.TestCode) || !strings.Contains(tc.TestCode, "strategy student\n") || !strings.Contains(tc.TestCode, "-- checks --\n") || strings.Contains(tc.TestCode, "-- en --") {
				t.Errorf("%s, test %d: test_code is not the drill file's run (strategy student, up to its words):\n%s", e.Name, i, tc.TestCode)
			}
		} else if tc.TestCode != "go run ./cmd/archlab check "+e.Name+" --show" {
			t.Errorf("%s, the explorer's test: test_code %q", e.Name, tc.TestCode)
		}
		if tc.Name != name || tc.Status != status(i+clauses) || tc.TaskID != 1 {
			t.Errorf("%s, test %d: name %q, status %q, task_id %d; want %q, %q, 1", e.Name, i+clauses, tc.Name, tc.Status, tc.TaskID, name, status(i+clauses))
		}
		want := []string{"message", "name", "status", "task_id", "test_code"}
		if tc.Status == report.ExPass {
			want = []string{"name", "status", "task_id", "test_code"} // no message: null or absent, says the spec
		}
		if got := keys(raw[i+clauses]); !slices.Equal(got, want) {
			t.Errorf("%s, test %d: keys %v, want %v (no output: archlab does not capture the student's printing)", e.Name, i, got, want)
		}
	}
}

// TestExercismStubs: on a fresh clone every exercise's results.json says
// fail, every test failing with the line that says which function to
// write, in the reader's language; stdout names each file and its status.
func TestExercismStubs(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		dir := t.TempDir()
		out, errOut, code := runWith(t, nil, "check", "--format", "exercism", "--output-dir", dir, "--lang", string(lang))
		if code != exitMismatch {
			t.Fatalf("exit %d, want 1 (not done)\n%s%s", code, out, errOut)
		}
		var lines []string
		for _, e := range check.Exercises {
			lines = append(lines, i18n.T(lang, "check.exercism.wrote", filepath.Join(dir, e.Name, "results.json"), "fail"))
			r, top, tests := readResults(t, dir, e.Name)
			if r.Version != 3 || r.Status != report.ExFail || !slices.Equal(keys(top), []string{"status", "tests", "version"}) {
				t.Errorf("%s: version %d, status %q, keys %v; want 3, fail, no top-level message", e.Name, r.Version, r.Status, keys(top))
			}
			wantTests(t, lang, e, r, tests, func(int) string { return report.ExFail })
			for _, tc := range r.Tests {
				if want := i18n.T(lang, "check.hint.start", e.File, e.Func); tc.Message != want {
					t.Errorf("%s, %s: message %q, want %q", e.Name, tc.Name, tc.Message, want)
				}
			}
		}
		if want := strings.Join(lines, "\n") + "\n"; out != want {
			t.Errorf("stdout\n%s\nwant\n%s", out, want)
		}
	}
}

// TestExercismDone: the book's logic, planted as check/students_test.go
// plants it: every exercise passes, every test passes with no message,
// exit 0. Run again, it writes the same bytes.
func TestExercismDone(t *testing.T) {
	if raceOn {
		t.Skip("text and layout, checked in the plain run; under the race detector it took 15-80 s with no goroutine of its own to watch")
	}
	dir := t.TempDir()
	out, errOut, code := runWith(t, bookStudents, "check", "--format", "exercism", "--output-dir", dir)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, want 0\n%s%s", code, out, errOut)
	}
	first := map[string][]byte{}
	for _, e := range check.Exercises {
		r, top, tests := readResults(t, dir, e.Name)
		if r.Version != 3 || r.Status != report.ExPass || !slices.Equal(keys(top), []string{"status", "tests", "version"}) {
			t.Errorf("%s: version %d, status %q, keys %v; want 3, pass", e.Name, r.Version, r.Status, keys(top))
		}
		wantTests(t, i18n.EN, e, r, tests, func(int) string { return report.ExPass })
		first[e.Name], _ = os.ReadFile(filepath.Join(dir, e.Name, "results.json"))
	}
	// The second run checks one exercise again (a whole check of the
	// book takes seconds): its file is rewritten with the same bytes, and
	// the others are left as they were.
	if _, _, code := runFresh(t, bookStudents, "check", "shard-loop", "--format", "exercism", "--output-dir", dir); code != exitOK {
		t.Fatalf("second run: exit %d", code)
	}
	for name, b := range first {
		again, _ := os.ReadFile(filepath.Join(dir, name, "results.json"))
		if !bytes.Equal(again, b) {
			t.Errorf("%s: the second run wrote other bytes", name)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "shard-loop"))
	if len(entries) != 1 {
		t.Errorf("%d files beside results.json's own: a temporary file left behind", len(entries)-1)
	}
}

// TestExercismNotDone: a wrong handler: each test fails exactly when the
// checker found a lesson broken in it (check.Run, asked directly, is the
// oracle); the first failing test carries the hint; the explorer's test
// carries the shortest run and the drill file that replays it.
func TestExercismNotDone(t *testing.T) {
	e, _ := check.Lookup("consumer-handler")
	res := check.Run(context.Background(), e, ackBeforeEffect)
	if res.Status != check.NotDone || res.Shortest == nil || res.Shortest.Schedule == nil {
		t.Fatalf("the oracle: %s, want not done with a schedule", res.Status)
	}
	dir := t.TempDir()
	if _, _, code := runWith(t, ackBeforeEffect, "check", "consumer-handler", "--format", "exercism", "--output-dir", dir); code != exitMismatch {
		t.Fatalf("exit %d, want 1", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "shard-loop")); err == nil {
		t.Errorf("shard-loop written for check consumer-handler")
	}
	r, _, tests := readResults(t, dir, e.Name)
	broken := func(i int) bool {
		for _, l := range res.Lessons {
			if (i < len(e.Drills) && l.Drill == e.Drills[i]) || (i == len(e.Drills) && l.Drill == "") {
				return true
			}
		}
		return false
	}
	if r.Status != report.ExFail {
		t.Errorf("status %q, want fail", r.Status)
	}
	wantTests(t, i18n.EN, e, r, tests, func(i int) string {
		if broken(i) {
			return report.ExFail
		}
		return report.ExPass
	})
	hinted := false
	for i, tc := range r.Tests {
		if tc.Status != report.ExFail {
			continue
		}
		if has := strings.Contains(tc.Message, "\nhint: "+res.Hint(i18n.EN)); has != !hinted {
			t.Errorf("test %d: the hint is there: %t; want it in the first failing test only\n%s", i, has, tc.Message)
		}
		hinted = true
		for _, l := range res.Lessons {
			if (i < len(e.Drills) && l.Drill == e.Drills[i]) || (i == len(e.Drills) && l.Drill == "") {
				if !strings.Contains(tc.Message, check.LessonText(i18n.EN, l)) {
					t.Errorf("test %d: no lesson %q in\n%s", i, check.LessonText(i18n.EN, l), tc.Message)
				}
			}
		}
	}
	last := r.Tests[len(r.Tests)-1]
	file, _ := res.Shortest.File(i18n.EN)
	if !strings.Contains(last.Message, "shortest run: "+res.Shortest.Line(i18n.EN, res.Lessons[0])) || !strings.HasSuffix(last.Message, "\n"+file) {
		t.Errorf("the explorer's test does not carry the shortest run and its drill file:\n%s", last.Message)
	}
}

// TestExercismError: code that returns an error of its own from its first
// call stops every test: each errors, and results.json is status error
// with the top-level message the interface requires.
func TestExercismError(t *testing.T) {
	boom := &harness.Students{Ordering: func(*harness.EventDelivery) (ordering.Outcome, error) {
		return "", errors.New("boom")
	}}
	dir := t.TempDir()
	if _, _, code := runWith(t, boom, "check", "projection-decision", "--format", "exercism", "--output-dir", dir); code != exitMismatch {
		t.Fatalf("exit %d, want 1", code)
	}
	e, _ := check.Lookup("projection-decision")
	r, top, tests := readResults(t, dir, e.Name)
	if r.Status != report.ExError || !strings.Contains(r.Message, "boom") || !slices.Equal(keys(top), []string{"message", "status", "tests", "version"}) {
		t.Errorf("status %q, message %q, keys %v; want error with the error as message", r.Status, r.Message, keys(top))
	}
	wantTests(t, i18n.EN, e, r, tests, func(int) string { return report.ExError })
	if !strings.Contains(r.Tests[0].Message, "boom") || !strings.Contains(r.Tests[1].Message, "not run") {
		t.Errorf("the first test should carry the error, the next say it did not run: %q, %q", r.Tests[0].Message, r.Tests[1].Message)
	}
}

// TestExercismRefused: flags that mean nothing with --format exercism are
// exit 2 and write nothing; a directory that cannot be written is exit 3.
func TestExercismRefused(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--format", "xml"},
		{"--format", "exercism", "--json"},
		{"--format", "exercism", "--show"},
		{"--format", "exercism", "--hint"},
		{"--output-dir", dir},
	} {
		_, errOut, code := runWith(t, bookStudents, append([]string{"check", "--output-dir", dir}, args...)...)
		if code != exitUsage || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, want 2 and one line\n%s", args, code, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused run wrote %d entries", len(entries))
	}
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, []byte("mine\n"), 0o644)
	_, errOut, code := runWith(t, bookStudents, "check", "shard-loop", "--format", "exercism", "--output-dir", file)
	if code != exitCouldNotRun || !strings.HasPrefix(errOut, "archlab: cannot write "+filepath.Join(file, "shard-loop", "results.json")) {
		t.Errorf("an output dir that is a file: exit %d, want 3\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(file); string(b) != "mine\n" {
		t.Errorf("the file in the way was changed: %q", b)
	}
}
