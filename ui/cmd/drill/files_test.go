package drill

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/ui/cli"
)

// TestRewriteChangedFile: a file saved again while its drill ran is left
// with the new edit, not overwritten with counters computed from the old
// bytes (--rewrite read the file a second time after the run).
func TestRewriteChangedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.txtar")
	edited := "# a drill file, saved again\n"
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &cli.Env{IO: &cli.IO{Err: &bytes.Buffer{}}, Lang: "en"}
	err := rewriteFile(g, path, []byte("# a drill file, as it was read\n"), []byte("new bytes"))
	if err == nil || !strings.Contains(err.Error(), "changed while its drill ran") {
		t.Fatalf("got %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != edited {
		t.Fatal("the edit was overwritten")
	}
}
