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

// TestRunSaysWhose: a row's shortest run is as one student's result gave
// it (the answers it calls the student's are that result's claim), so the
// table says whose it is, by number unless names are shown (issue 43,
// point 2, run again: a forged one-call claim stood as the row's run for
// the room in archlab's words).
func TestRunSaysWhose(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		lang i18n.Lang
		want string
	}{{i18n.EN, "(from #1's result)"}, {i18n.ZH, "（来自 #1 的结果）"}} {
		s := &Summary{Rows: []Row{{Kind: "lesson", Exercise: "ledger", ID: "explore/not-lost", Text: "no message is lost", Students: []string{"zoe"},
			Example: &Example{Student: "zoe", Steps: 1, File: "row1_ledger_test.go", GoTest: true}}}}
		s.Hide(&Class{Students: []Student{{Name: "zoe"}}})
		var out strings.Builder
		r := &term.Renderer{Out: &out, Err: &out, Lang: tt.lang, Width: 80, P: term.NewPalette(false)}
		if err := Text(r, s, false, "archlab", ""); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(out.String()), ""), strings.Join(strings.Fields(tt.want), "")) || strings.Contains(out.String(), "zoe") {
			t.Errorf("%s: the table does not say the run is %s, or names the student:\n%s", tt.lang, tt.want, out.String())
		}
	}
}
