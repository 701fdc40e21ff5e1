package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckWatch is the student's loop, end to end, in a copy of the
// clone: check --watch checks the stub (not started), then, on each save,
// the saved exercise: the book's handler is done, a file that does not
// compile prints Go's error and the watch goes on; Ctrl-C ends it, 130.
func TestCheckWatch(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if raceOn || !longOn {
		t.Skip("builds the checker from a copy of the clone, where every package compiles again: twenty seconds, minutes with -race; the long sweep (-tags long, once in CI) runs it, and ui/watch's own tests the watcher")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root := copyClone(t)
	file := filepath.Join(root, "exercises", "consumer_handler.go")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "check", "--watch", "consumer-handler")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), asArchlab+"=1", "LC_ALL=", "LANG=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var seen []string
	waitFor := func(prefix string) {
		t.Helper()
		deadline := time.After(4 * time.Minute)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("check --watch ended; no line %q in\n%s", prefix, strings.Join(seen, "\n"))
				}
				seen = append(seen, l)
				if strings.HasPrefix(l, prefix) {
					return
				}
			case <-deadline:
				t.Fatalf("no line %q in\n%s", prefix, strings.Join(seen, "\n"))
			}
		}
	}
	waitFor("○ consumer-handler (§8.2): not started")
	waitFor("watching ")
	writeBookHandler(t, file)
	waitFor("── saved: consumer_handler.go; checking consumer-handler ──")
	waitFor("✓ consumer-handler (§8.2): done")
	waitFor("watching ")
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nfunc broken() { x := }\n")
	f.Close()
	waitFor("✗ the exercises do not compile:")
	waitFor("exercises/consumer_handler.go:")
	waitFor("watching ")
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	if code := exitStatus(t, err); code != exitInterrupted {
		t.Errorf("Ctrl-C: exit %d, want %d", code, exitInterrupted)
	}
}

// TestHungExerciseExitsOne: a loop that never advances is reported, and
// check's exit is 1 (a verdict: the exercise is not done), never 3.
func TestHungExerciseExitsOne(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	cmd := archlabCmd(t, "check", "shard-loop", "--timeout", "1s")
	cmd.Env = append(cmd.Env, testStudentsEnv+"=stuck-shard-loop")
	var out strings.Builder
	cmd.Stdout = &out
	err := cmd.Run()
	if code := exitStatus(t, err); code != exitMismatch || !strings.Contains(out.String(), "shard-loop (§11.2): did not finish within 1.00s") {
		t.Errorf("exit %d, want 1, and the hang reported:\n%s", code, out.String())
	}
}
