package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassroomWorkflow runs, on this machine, the steps of the GitHub
// Actions workflow docs/archlab-check.yml (CI cannot reach GitHub): in two copies of the
// clone, one a student who has not started and one whose mechanism
// exercises are right (check/testdata/replay/right), the workflow's
// "archlab check" step writes archlab-result/; the two folders are then
// what `gh run download` brings back, one per student, and archlab class
// counts them (issue 35).
func TestClassroomWorkflow(t *testing.T) {
	if raceOn || !longOn {
		t.Skip("builds archlab in two copies of the clone and checks each: half a minute, a minute and more under the race detector; the full sweep (-tags long, once in CI) runs it")
	}
	step := workflowStep(t, "../../docs/archlab-check.yml", "archlab check")
	class := t.TempDir()
	cache := t.TempDir()
	for _, student := range []string{"ada", "ben"} {
		root := copyClone(t)
		if student == "ben" {
			right := filepath.Join(root, "check", "testdata", "replay", "right")
			entries, err := os.ReadDir(right)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(right, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, "exercises", e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		cmd := exec.Command("bash", "-e", "-c", step)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "NO_COLOR=1", "RUNNER_TEMP="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: the workflow's step: %v\n%s", student, err, out)
		}
		// The artifact, downloaded into the class folder by student.
		if err := os.Rename(filepath.Join(root, "archlab-result"), filepath.Join(class, student)); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"check.json", "results.json", "junit.xml"} {
			if _, err := os.Stat(filepath.Join(class, student, f)); err != nil {
				t.Errorf("%s: the artifact has no %s", student, f)
			}
		}
		if student == "ada" {
			classroom50(t, root, cache)
		}
	}
	cmd := exec.Command(os.Args[0], "class", class, "--names", "--json")
	cmd.Env = append(os.Environ(), asArchlab+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("archlab class: %v", err)
	}
	var sum struct {
		Students  int
		Exercises []struct {
			Name       string
			Done       int
			NotStarted int `json:"not_started"`
		}
		Refused []any
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sum.Students != 2 || len(sum.Refused) > 0 {
		t.Fatalf("archlab class read %d students, refused %v", sum.Students, sum.Refused)
	}
	for _, e := range sum.Exercises {
		if e.Name == "ledger" && (e.Done != 1 || e.NotStarted != 1) {
			t.Errorf("ledger: %d done, %d not started; want ben's done and ada's not started", e.Done, e.NotStarted)
		}
	}
}

// workflowStep is the run block of the step named name in a workflow
// file: the lines under its "run: |", their indentation taken off.
func workflowStep(t *testing.T, path, name string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "- name: "+name || i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "run: |" {
			continue
		}
		var out []string
		indent := ""
		for _, l := range lines[i+2:] {
			if indent == "" {
				indent = l[:len(l)-len(strings.TrimLeft(l, " "))]
			}
			if !strings.HasPrefix(l, indent) || strings.TrimSpace(l) == "" {
				break
			}
			out = append(out, strings.TrimPrefix(l, indent))
		}
		return strings.Join(out, "\n")
	}
	t.Fatalf("%s has no step %q with a run block", path, name)
	return ""
}

// classroom50 runs docs/classroom50-autograder.py as Classroom 50's runner
// would: in the student's checkout (a git repository), with the
// submission's identity in the environment. A student not done is a
// grade, exit 0, and ./result.json is the contract's.
func classroom50(t *testing.T, root, cache string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3: Classroom 50's autograder not run")
		return
	}
	if _, err := os.Lstat(filepath.Join(root, ".git")); err == nil {
		t.Fatalf("%s has a .git: the copy would commit to the clone it came from", root)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=ada", "-c", "user.email=ada@example.com", "commit", "-qm", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.Command(python, "docs/classroom50-autograder.py")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "NO_COLOR=1")
	for k, v := range classroom50Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("Classroom 50's autograder: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(root, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Schema   string `json:"schema"`
		Owner    string `json:"owner"`
		Score    int    `json:"score"`
		MaxScore int    `json:"max-score"`
		Tests    []any  `json:"tests"`
	}
	if err := json.Unmarshal(b, &res); err != nil || res.Schema != "classroom50/result/v1" || res.MaxScore == 0 || len(res.Tests) != res.MaxScore || res.Score >= res.MaxScore {
		t.Errorf("result.json: %v %+v: want the contract's, a student not done", err, res)
	}
}
