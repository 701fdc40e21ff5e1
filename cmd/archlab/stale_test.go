package main

import (
	"fmt"

	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"archlab/check"
)

// TestStaleBinary builds archlab twice: once with an exercise edited in a
// copy laid over the tree (go build -overlay: the tree is not touched), the
// way a binary built before the student's last edit looks, and once from
// the tree as it is. The first refuses to check in one line, in the
// reader's language, exit 3; the second says nothing of the kind.
func TestStaleBinary(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if testing.Short() || raceOn {
		t.Skip("builds archlab twice; the race detector has nothing to add here")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(root, "exercises", "consumer_handler.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "consumer_handler.go")
	if err := os.WriteFile(edited, append(src, "\n// an edit made after the build\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {file: edited}})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(name string, args ...string) string {
		bin := filepath.Join(dir, name)
		cmd := exec.Command("go", append(append([]string{"build"}, args...), "-o", bin, "./cmd/archlab")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return bin
	}
	stale := build("archlab-stale", "-overlay", filepath.Join(dir, "overlay.json"))
	fresh := build("archlab-fresh")

	checkIn := func(bin, wd string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, append([]string{"check"}, args...)...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), "NO_COLOR=1", "LANG=C", "LC_ALL=", "LC_MESSAGES=")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}
	for _, c := range []struct {
		wd, lang, want string
	}{
		{root, "en", "archlab: this archlab was built before exercises/ changed, so it would check the old code; run: go run ./cmd/archlab check --lang en\n"},
		{root, "zh", "archlab: 这个 archlab 是在 exercises/ 改动之前构建的，检查的会是旧代码；请运行：go run ./cmd/archlab check --lang zh\n"},
		// From elsewhere, the command says where to run it.
		{dir, "en", "archlab: this archlab was built before exercises/ changed, so it would check the old code; run: cd " + root + " && go run ./cmd/archlab check --lang en\n"},
	} {
		out, errOut, code := checkIn(stale, c.wd, "--lang", c.lang)
		if code != exitCouldNotRun || out != "" || errOut != c.want {
			t.Errorf("stale binary, --lang %s in %s: exit %d, stdout %q, stderr\n%s\nwant exit 3, no stdout, stderr\n%s", c.lang, c.wd, code, out, errOut, c.want)
		}
	}
	// The quiet case: built from the files as they are.
	out, errOut, code := checkIn(fresh, root)
	if strings.Contains(errOut, "built before") || code != exitMismatch || !strings.Contains(out, fmt.Sprintf("0/%d exercises done", len(check.Exercises))) {
		t.Errorf("fresh binary: exit %d, want 1 (the stubs are not done) and no word of staleness\n%s%s", code, out, errOut)
	}
}

// TestStaleCheckInProcess: the comparison itself, on a clone copied into a
// temporary directory: the same files are quiet, an edited, added or
// removed file is stale, no clone at all is quiet, and --json gets the
// line as its error object with exit 3.
func TestStaleCheckInProcess(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	clone := t.TempDir()
	if err := os.CopyFS(filepath.Join(clone, "exercises"), os.DirFS(filepath.Join(root, "exercises"))); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"go.mod"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(clone, f), b, 0o644)
	}
	checkWith := func(find func() (string, error), args ...string) (string, string, int) {
		var out, errb strings.Builder
		io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" }, SourceRoot: find}
		code := run(io, append([]string{"check", "shard-loop"}, args...))
		return out.String(), errb.String(), code
	}
	inClone := func() (string, error) { return clone, nil }
	quiet := func(what string, find func() (string, error)) {
		t.Helper()
		out, errOut, code := checkWith(find)
		if code != exitMismatch || strings.Contains(errOut, "built before") {
			t.Errorf("%s: exit %d, want 1 with no word of staleness\n%s%s", what, code, out, errOut)
		}
	}
	staleNow := func(what string) {
		t.Helper()
		out, errOut, code := checkWith(inClone)
		if code != exitCouldNotRun || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "built before exercises/ changed") {
			t.Errorf("%s: exit %d, want 3 and one line\n%s%s", what, code, out, errOut)
		}
	}
	quiet("the same files", inClone)
	quiet("no clone found", func() (string, error) { return "", errors.New("no archlab module") })

	file := filepath.Join(clone, "exercises", "shard_loop.go")
	src, _ := os.ReadFile(file)
	os.WriteFile(file, append(src, '\n'), 0o644)
	staleNow("a file edited")
	out, _, code := checkWith(inClone, "--json")
	var j jsonError
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Exit != exitCouldNotRun || !strings.Contains(j.Error, "built before") {
		t.Errorf("--json: exit %d, %v, want {error, exit 3}:\n%s", code, err, out)
	}
	os.WriteFile(file, src, 0o644)
	quiet("the edit undone", inClone)

	extra := filepath.Join(clone, "exercises", "helpers.go")
	os.WriteFile(extra, []byte("package exercises\n"), 0o644)
	staleNow("a file added")
	os.Remove(extra)
	// A test file changes nothing check runs.
	os.WriteFile(filepath.Join(clone, "exercises", "mine_test.go"), []byte("package exercises\n"), 0o644)
	quiet("a test file added", inClone)
	os.Remove(filepath.Join(clone, "exercises", "consumer_handler.go"))
	staleNow("a file removed")
}
