package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// rowsFile is a §8.3 file whose counters --rewrite writes: rows holds a
// space (two orders), dlq_attempts is empty, and its expect part is stale
// (a wrong value, and no line for applied, a counter added since).
const rowsFile = `# Two orders reach their projection; rows lists both.
drill rows
section 8.3
-- steps --
event e1 o-1 v1 reserve
event e2 o-1 v2 pay
event e3 o-2 v1 reserve
consumer
publish e1
publish e2
publish e3
dispatch
-- counters --
rows = rows
dlq_attempts
applied
-- checks --
all-applied: applied == 3
-- expect --
rows o-1=v2/PAID
dlq_attempts 0
`

// rewrite writes src to a file in a fresh directory and runs --rewrite
// on it (through link when link is not "": a symbolic link to the file).
func rewrite(t *testing.T, src string, mode os.FileMode, link bool) (path, stderr string, code int) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "rows.txtar")
	if err := os.WriteFile(path, []byte(src), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	arg := path
	if link {
		arg = filepath.Join(dir, "link.txtar")
		if err := os.Symlink("rows.txtar", arg); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code = runCLI(t, nil, "drill", "--file", arg, "--rewrite")
	return path, stderr, code
}

// TestRewriteHostile: issue 25's --rewrite cases. A value with spaces (or
// none) is quoted so the next run reads it back; a counter added to the
// counters part is written, not refused; a symbolic link stays a link
// and its target is rewritten; a read-only file is refused (exit 3) and
// left as it was; a CRLF file stays CRLF; the file keeps its mode.
func TestRewriteHostile(t *testing.T) {
	t.Run("quoted values and a new counter", func(t *testing.T) {
		path, stderr, code := rewrite(t, rowsFile, 0o640, false)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got, _ := os.ReadFile(path)
		want := "-- expect --\nrows \"o-1=v2/PAID o-2=v1/INVENTORY_RESERVED\"\ndlq_attempts \"\"\napplied 3\n"
		if !strings.HasSuffix(string(got), want) {
			t.Fatalf("the expect part:\n%s\nwant it to end with\n%s", got, want)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", st.Mode().Perm())
		}
		// The next run reads every value back and agrees.
		out, errOut, code := runCLI(t, nil, "drill", "--file", path)
		if code != 0 || !strings.Contains(out, "PASS  rows: 3 counters match the file's expect part") {
			t.Fatalf("the next run: exit %d\n%s%s", code, out, errOut)
		}
		// A second rewrite writes nothing.
		if _, errOut, code := runCLI(t, nil, "drill", "--file", path, "--rewrite"); code != 0 || !strings.Contains(errOut, "already up to date") {
			t.Fatalf("second rewrite: exit %d %s", code, errOut)
		}
	})
	t.Run("symbolic link", func(t *testing.T) {
		path, stderr, code := rewrite(t, rowsFile, 0o644, true)
		link := filepath.Join(filepath.Dir(path), "link.txtar")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
		}
		if got, _ := os.ReadFile(path); !bytes.Contains(got, []byte("applied 3\n")) {
			t.Fatalf("the target was not rewritten:\n%s", got)
		}
	})
	t.Run("read-only", func(t *testing.T) {
		path, stderr, code := rewrite(t, rowsFile, 0o444, false)
		if code != 3 || !strings.Contains(stderr, "is read-only; --rewrite leaves it as it is") {
			t.Fatalf("exit %d, stderr %q; want 3, read-only", code, stderr)
		}
		if got, _ := os.ReadFile(path); string(got) != rowsFile {
			t.Fatal("the read-only file was changed")
		}
	})
	t.Run("CRLF", func(t *testing.T) {
		crlf := strings.ReplaceAll(rowsFile, "\n", "\r\n")
		path, stderr, code := rewrite(t, crlf, 0o644, false)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got, _ := os.ReadFile(path)
		if lf := bytes.Count(got, []byte("\n")); lf != bytes.Count(got, []byte("\r\n")) || lf == 0 {
			t.Fatalf("mixed line ends: %d LF, %d CRLF\n%q", lf, bytes.Count(got, []byte("\r\n")), got)
		}
		if !bytes.Contains(got, []byte("applied 3\r\n")) {
			t.Fatalf("not rewritten: %q", got)
		}
		if out, errOut, code := runCLI(t, nil, "drill", "--file", path); code != 0 {
			t.Fatalf("the CRLF file does not run: %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("owner", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("only root can give a file to another user")
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "rows.txtar")
		if err := os.WriteFile(path, []byte(rowsFile), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Skip(err)
		}
		if _, errOut, code := runCLI(t, nil, "drill", "--file", path, "--rewrite"); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		st, _ := os.Stat(path)
		if sys := st.Sys().(*syscall.Stat_t); sys.Uid != 65534 || sys.Gid != 65534 {
			t.Fatalf("owner %d:%d after the rewrite, want 65534:65534", sys.Uid, sys.Gid)
		}
	})
}
