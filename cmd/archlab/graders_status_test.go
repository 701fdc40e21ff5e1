package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// standIn is an archlab for the graders' scripts to run: a tiny module
// whose cmd/archlab exits with $STANDIN_EXIT when its arguments include
// $STANDIN_WHEN, else 1 (an exercise not done).
const standIn = `package main

import (
	"os"
	"slices"
	"strconv"
)

func main() {
	if slices.Contains(os.Args[1:], os.Getenv("STANDIN_WHEN")) {
		code, _ := strconv.Atoi(os.Getenv("STANDIN_EXIT"))
		os.Exit(code)
	}
	os.Exit(1)
}
`

// TestGradersPassTheStatusOn: the workflow in docs/ and Classroom 50's
// autograder tell "not done" (a grade) from "could not judge" (an
// error) by archlab's exit status. Under go run they could not: go run
// exits 1 whatever archlab's is, so an archlab that could not judge
// (exit 3) passed for a student not done. A stand-in archlab, in a
// module of its own, exits with each status in turn.
func TestGradersPassTheStatusOn(t *testing.T) {
	if raceOn {
		t.Skip("shell scripts and a tiny module; the plain run checks them")
	}
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "cmd", "archlab"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"go.mod": "module archlab\n\ngo 1.24\n", "cmd/archlab/main.go": standIn} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	workflow := workflowStep(t, "../../docs/archlab-check.yml", "archlab check")
	autograder, err := filepath.Abs("../../docs/classroom50-autograder.py")
	if err != nil {
		t.Fatal(err)
	}
	python, _ := exec.LookPath("python3")
	run := func(t *testing.T, when string, exit int, argv ...string) int {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = root
		tmp := t.TempDir() // the autograder's build, and what it leaves, stay in the test's folders
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+tmp, "TMPDIR="+tmp, "STANDIN_WHEN="+when, "STANDIN_EXIT="+string(rune('0'+exit)))
		out, err := cmd.CombinedOutput()
		if e, ok := err.(*exec.ExitError); ok {
			return e.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v\n%s", argv, err, out)
		}
		return 0
	}
	for _, c := range []struct {
		when string // the argument the stand-in answers with exit
		exit int
		job  bool // the workflow's job passes
		c50  int  // the autograder's status
	}{
		{"check", 0, true, 0},
		{"check", 1, true, 0},
		{"check", 2, false, 2},
		{"check", 3, false, 3},
		{"--json", 3, false, 0},
		{"gradescope", 3, false, 0},
		{"junit", 2, false, 0},
		{"classroom50", 3, true, 3},
	} {
		t.Run(c.when+"-"+string(rune('0'+c.exit)), func(t *testing.T) {
			if got := run(t, c.when, c.exit, "bash", "-e", "-c", workflow); (got == 0) != c.job {
				t.Errorf("archlab exits %d at %q: the workflow's step exits %d, want the job to pass: %t", c.exit, c.when, got, c.job)
			}
			if python == "" {
				return
			}
			if got := run(t, c.when, c.exit, python, autograder); got != c.c50 {
				t.Errorf("archlab exits %d at %q: Classroom 50's autograder exits %d, want %d", c.exit, c.when, got, c.c50)
			}
		})
	}
}
