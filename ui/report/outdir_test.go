package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/check"
	"archlab/i18n"
	"archlab/ui/term"
)

// TestOutputDirRefusals: --output-dir says truly why it cannot write (a
// link to nothing is not "file exists") and leaves nothing behind (issue
// 43, point 9: a path too long failed with exit 3 and left the 20
// folders it made). Exercism, which writes a folder per exercise, takes
// back the ones it made when a later one fails.
func TestOutputDirRefusals(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(base, "dangling"))
	long := filepath.Join(base, "a")
	for len(long) < 5000 {
		long = filepath.Join(long, strings.Repeat("d", 200))
	}
	var out bytes.Buffer
	r := &Report{Renderer: &term.Renderer{Out: &out, Err: &out, Lang: i18n.EN, Width: 80, P: term.NewPalette(false)}}
	e, _ := check.Lookup("consumer-handler")
	results := []*check.Result{{Exercise: e, Status: check.Done}}
	for _, tt := range []struct{ dir, says string }{
		{filepath.Join(base, "dangling", "results"), "dangling is a link to " + filepath.Join(base, "nowhere") + ", which does not exist"},
		{long, "the path is too long for this system"},
	} {
		for _, format := range []string{"gradescope", "exercism"} {
			var err error
			if format == "exercism" {
				err = r.Exercism(results, tt.dir)
			} else {
				err = r.Grader(format, results, 1, tt.dir)
			}
			if err == nil || !strings.HasSuffix(err.Error(), tt.says) {
				t.Errorf("%s into %.50s…: %v, want it to end %q", format, tt.dir, err, tt.says)
			}
		}
	}
	// A second exercise's folder is a file: the first one's folder, made
	// by this run, is taken back.
	dir := filepath.Join(base, "results")
	l, _ := check.Lookup("ledger")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "ledger"), nil, 0o644)
	if err := r.Exercism(append(results, &check.Result{Exercise: l, Status: check.Done}), dir); err == nil {
		t.Error("exercism wrote into a file")
	}
	entries, _ := os.ReadDir(base)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	inside, _ := os.ReadDir(dir)
	if strings.Join(left, " ") != "dangling results" || len(inside) != 1 {
		t.Errorf("left %v and %d files in results/, want only the link, results/ and its file", left, len(inside))
	}
}
