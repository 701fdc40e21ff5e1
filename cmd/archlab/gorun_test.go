package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// printedCommand is a command archlab's output suggests: "archlab" or
// "go run ./cmd/archlab", then a subcommand and the rest of the line.
var printedCommand = regexp.MustCompile(`(go run \./cmd/archlab|archlab) (check|drill|explore|explain|list|class|serve)\b[^\n]*`)

// TestGoRunCommandsRunAsPrinted: under go run, every command archlab
// prints runs as printed, on a machine with no archlab installed. Go
// 1.24 and later run go run's binary again from the build cache, where
// its path has no /exe/: the second run used to suggest "archlab check
// ledger --hint", which is not found (issue 42). So archlab runs through
// go run twice, from the clone's root with only go on PATH, and each
// command it prints is run by sh exactly as printed: none may be missing
// (127), a usage error (2) or a failure to run (3).
func TestGoRunCommandsRunAsPrinted(t *testing.T) {
	if raceOn {
		t.Skip("builds archlab with go run; the plain run checks it")
	}
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	onlyGo := t.TempDir()
	if err := os.Symlink(goBin, filepath.Join(onlyGo, "go")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+onlyGo, "XDG_CACHE_HOME="+t.TempDir(), "COLUMNS=400", "NO_COLOR=1")
	sh := func(line string) (string, int) {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", line)
		cmd.Dir, cmd.Env = root, env
		out, err := cmd.CombinedOutput()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return string(out), code
	}
	printed := map[string]bool{}
	for i := range 2 { // the first run builds, the second runs it from the cache
		for _, args := range []string{"check ledger --hint", "check ledger --hint --lang zh"} {
			out, code := sh("go run ./cmd/archlab " + args)
			if code != exitMismatch {
				t.Fatalf("run %d, %s: exit %d, want 1 (not done)\n%s", i+1, args, code, out)
			}
			for _, m := range printedCommand.FindAllStringSubmatch(out, -1) {
				if m[1] == "archlab" {
					t.Errorf("run %d, %s: suggests %q, and no archlab is installed\n%s", i+1, args, m[0], out)
					continue
				}
				printed[strings.TrimSpace(m[0])] = true
			}
		}
	}
	if len(printed) == 0 {
		t.Fatal("no command printed: the test no longer sees what it checks")
	}
	for line := range printed {
		if out, code := sh(line); code != exitOK && code != exitMismatch {
			t.Errorf("%s, as printed: exit %d\n%s", line, code, out)
		}
	}
}
