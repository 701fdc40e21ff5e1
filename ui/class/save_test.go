package class

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"archlab/i18n"
	"archlab/ui/term"
)

// summaryOf is a summary whose rows carry runs named files.
func summaryOf(files ...string) *Summary {
	s := &Summary{}
	for _, f := range files {
		s.Rows = append(s.Rows, Row{Example: &Example{File: f, Body: "# " + f + "\n", GoTest: strings.HasSuffix(f, ".go")}})
	}
	return s
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
		if info, _ := e.Info(); e.Name() != saveList && info.Mode().IsRegular() && info.Mode().Perm() != 0o644 {
			t.Errorf("%s is %v, want 0644", e.Name(), info.Mode().Perm())
		}
	}
	return out
}

// TestSaveReplacesEarlier: --save leaves the folder holding this class's
// runs, each 0644, and the teacher's own files as they were (issue 43,
// point 9: an earlier class's files stayed, all 0600).
func TestSaveReplacesEarlier(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600)
	os.WriteFile(filepath.Join(dir, "7-ledger.txtar"), []byte("mine too"), 0o600) // not a save's
	if _, err := Save(summaryOf("1-consumer-handler.txtar", "row2_ledger_test.go", "3-ordering-handler.txtar"), dir); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, "notes.txt"), 0o644)
	os.Chmod(filepath.Join(dir, "7-ledger.txtar"), 0o644)
	if _, err := Save(summaryOf("1-ledger.txtar"), dir); err != nil {
		t.Fatal(err)
	}
	want := []string{saveList, "1-ledger.txtar", "7-ledger.txtar", "notes.txt"}
	if got := listDir(t, dir); !slices.Equal(got, want) {
		t.Errorf("after two saves: %v, want %v", got, want)
	}
}

// TestSaveFailsCleanly: a --save folder that cannot be made is said
// truly (a link to nothing is not "file exists") and leaves nothing
// behind (issue 43, point 9: a path too long left 20 folders).
func TestSaveFailsCleanly(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(base, "dangling"))
	os.WriteFile(filepath.Join(base, "file"), nil, 0o644)
	long := filepath.Join(base, "a")
	for len(long) < 5000 {
		long = filepath.Join(long, strings.Repeat("d", 200))
	}
	for _, tt := range []struct{ dir, reason string }{
		{filepath.Join(base, "dangling", "runs"), "dangling is a link to " + filepath.Join(base, "nowhere") + ", which does not exist"},
		{filepath.Join(base, "file", "runs"), "file is not a folder"},
		{long, "the path is too long for this system"},
	} {
		_, err := Save(summaryOf("1-ledger.txtar"), tt.dir)
		if got := term.OSReason(i18n.EN, err); !strings.HasSuffix(got, tt.reason) {
			t.Errorf("%.60s…: %q, want it to end %q", tt.dir, got, tt.reason)
		}
	}
	if got := listDir(t, base); !slices.Equal(got, []string{"dangling", "file"}) {
		t.Errorf("left %v, want only the link and the file", got)
	}
}
