package check

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"archlab/harness"
)

// TestGoTestReplays: the Go test a model's counterexample is written as
// replays on the student's code, as `go test` runs it. For one wrong
// solution of each mechanism exercise, written as a student's file
// (testdata/replay/wrong), the test the checker writes for the same
// mistake fails at the call the report names, with the book's answer and
// the student's; on a right solution written apart from the book's
// (testdata/replay/right) the same tests pass. It runs `go test` twice on
// a copy of the module's exercises and what they import, in a temporary
// directory: nothing in the clone changes.
func TestGoTestReplays(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("compiles the exercises twice")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cases := []struct {
		exercise string
		students *harness.Students
	}{
		{"ledger", ledger2(ledgerFlaws{concatKey: true})},
		{"projection", projection2(projectionFlaws{olderConflict: true})},
		{"runner", runnerVariant(t, "commit-ahead")},
	}
	tests := map[string]string{} // file name: the test's source
	var want []string
	for _, c := range cases {
		e, err := Lookup(c.exercise)
		if err != nil {
			t.Fatal(err)
		}
		r := Run(ctx, e, c.students)
		if r.Calls == nil {
			t.Fatalf("%s: no calls to replay (status %s)", c.exercise, r.Status)
		}
		tests[filepath.Base(r.Calls.TestFile())] = r.Calls.GoTest
		last := r.Calls.Last()
		i := last.differs()
		want = append(want, fmt.Sprintf("call %d, %s: the book's answers %s, yours %s", len(r.Calls.Calls), last.Book[i].What, last.Book[i].Value, last.Yours[i].Value))
	}

	for _, side := range []string{"wrong", "right"} {
		dir := moduleCopy(t)
		for _, name := range []string{"ledger.go", "projection.go", "runner.go"} {
			copyFile(t, filepath.Join("testdata", "replay", side, name), filepath.Join(dir, "exercises", name))
		}
		for name, src := range tests {
			if err := os.WriteFile(filepath.Join(dir, "exercises", name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("go", "test", "-count=1", "./exercises")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		switch side {
		case "wrong":
			if err == nil {
				t.Fatalf("the replays pass on the wrong solutions:\n%s", out)
			}
			for _, w := range want {
				if !strings.Contains(string(out), w) {
					t.Errorf("go test does not say %q:\n%s", w, out)
				}
			}
		case "right":
			if err != nil {
				t.Fatalf("the replays fail on the right solutions:\n%s", out)
			}
		}
	}
}

// runnerVariant is one of the wrong runners by name.
func runnerVariant(t *testing.T, name string) *harness.Students {
	for _, v := range wrong {
		if v.exercise == "runner" && v.name == name {
			return v.students
		}
	}
	t.Fatalf("no runner variant %s", name)
	return nil
}

// moduleCopy copies what the exercises package builds from (go.mod,
// go.sum, the book, the harness, the catalogue and the exercises) into a
// temporary directory.
func moduleCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"go.mod", "go.sum", "internal", "harness", "i18n", "exercises"} {
		src := filepath.Join("..", p)
		err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("..", path)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			if strings.HasSuffix(path, "_test.go") {
				return nil
			}
			copyFile(t, path, filepath.Join(dir, rel))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEveryGoTestCompiles: the Go test of every wrong mechanism's
// counterexample compiles beside a student's exercises (a run of commits
// alone once left an import and a variable unused). All in one package,
// each test's names given a suffix of its own, one go vet.
func TestEveryGoTestCompiles(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("compiles the exercises")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := moduleCopy(t)
	for _, name := range []string{"ledger.go", "projection.go", "runner.go"} {
		copyFile(t, filepath.Join("testdata", "replay", "right", name), filepath.Join(dir, "exercises", name))
	}
	n := 0
	for i, v := range clauseVariants {
		e, err := Lookup(v.exercise)
		if err != nil {
			t.Fatal(err)
		}
		r := checked(e, v.name, v.students)
		if r.Calls == nil {
			continue
		}
		src := r.Calls.GoTest
		for _, id := range []string{"TestLedgerReplay", "TestProjectionReplay", "TestRunnerReplay", "ledgerWant", "ledgerErr",
			"projectionWant", "projectionErr", "projectionRow", "projectionDLQ", "runnerWant", "runnerErr", "runnerLog", "runnerSink"} {
			src = strings.ReplaceAll(src, id, fmt.Sprintf("%s%d", id, i))
		}
		if err := os.WriteFile(filepath.Join(dir, "exercises", fmt.Sprintf("replay%d_test.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	cmd := exec.Command("go", "vet", "./exercises")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the replays of %d variants do not compile: %v\n%s", n, err, out)
	}
}
