package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWatchDirSeesSaves: a save is reported once, with the file's name,
// after the burst of writes settles; a file added and one removed are
// saves too; a file that is not Go is not.
func TestWatchDirSeesSaves(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n")
	write("b.go", "package a\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	saves, stop, err := watchDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	next := func(want ...string) {
		t.Helper()
		select {
		case got := <-saves:
			if !slices.Equal(got, want) {
				t.Fatalf("saved %v, want %v", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no save reported, want %v", want)
		}
	}
	// An editor's burst: three writes, one save.
	for _, text := range []string{"package a\n//1\n", "package a\n//12\n", "package a\n//123\n"} {
		write("a.go", text)
	}
	next("a.go")
	write("notes.txt", "not Go")
	write("c.go", "package a\n")
	next("c.go")
	if err := os.Remove(filepath.Join(dir, "b.go")); err != nil {
		t.Fatal(err)
	}
	next("b.go")
}

// TestWatchDirPolls: with nothing from fsnotify (a file system that never
// reports, as WSL's /mnt/c), the poll alone sees a save. The change below
// keeps the file's size and only moves its modification time, which is
// what a poll compares.
func TestWatchDirPolls(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	now, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := changedFiles(before, now); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("changed %v, want [a.go]", got)
	}
	if got := changedFiles(now, now); len(got) != 0 {
		t.Errorf("unchanged files reported: %v", got)
	}
}

// TestCheckWatch is the student's loop, end to end, in a copy of the
// clone: check --watch checks the stub (not started), then, on each save,
// the saved exercise: the book's handler is done, a file that does not
// compile prints Go's error and the watch goes on; Ctrl-C ends it, 130.
func TestCheckWatch(t *testing.T) {
	if raceOn {
		t.Skip("builds the checker from a copy of the clone; with -race every package compiles again, for minutes")
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
	cmd := archlabCmd(t, "check", "shard-loop", "--timeout", "1s")
	cmd.Env = append(cmd.Env, testStudentsEnv+"=stuck-shard-loop")
	var out strings.Builder
	cmd.Stdout = &out
	err := cmd.Run()
	if code := exitStatus(t, err); code != exitMismatch || !strings.Contains(out.String(), "shard-loop (§11.2): did not finish within 1.00s") {
		t.Errorf("exit %d, want 1, and the hang reported:\n%s", code, out.String())
	}
}
