package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditedExercisesStillPass: the README's test command still passes
// once a student has started, and leaves the student's cache as it was
// (issue 34: after an edit to exercises/, the tests rebuilt archlab's
// variants in the user's cache and two scripts saw "rebuilding" on
// stderr). In a copy of the clone whose exercises/ledger.go is edited, the
// scripts that hand runs to the SQLite variant and keep a hint count run
// with XDG_CACHE_HOME on a folder of the test's, which must stay empty.
func TestEditedExercisesStillPass(t *testing.T) {
	if raceOn || !longOn {
		t.Skip("compiles the command's tests again in a copy of the clone: a quarter of a minute, minutes under the race detector; the full sweep (-tags long, once in CI) runs it")
	}
	root := copyClone(t)
	ledger := filepath.Join(root, "exercises", "ledger.go")
	src, err := os.ReadFile(ledger)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "// Write ApplyOnce here.", "// Write ApplyOnce here. (A student's first edit.)", 1)
	if edited == string(src) {
		t.Fatal("the stub has changed: update the edit this test makes")
	}
	if err := os.WriteFile(ledger, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	user := t.TempDir() // the student's own cache
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestScripts/(drill_store_sqlite|drill_store_bad_db|check_hint)$", "./cmd/archlab")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+user)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test after an edit: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(user); len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the tests wrote in the student's cache: %v", names)
	}
}
