package ondemand

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSourceStamp: the stamp changes when a file of the clone does, and
// not when nothing did.
func TestSourceStamp(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module archlab\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "exercises"), 0o755)
	f := filepath.Join(root, "exercises", "a.go")
	os.WriteFile(f, []byte("package exercises\n"), 0o644)
	s1, err := sourceStamp(root, []string{"sqlite"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if s2, _ := sourceStamp(root, []string{"sqlite"}, false); s2 != s1 {
		t.Fatal("the stamp changed with nothing changed")
	}
	if s2, _ := sourceStamp(root, []string{"brokers"}, false); s2 == s1 {
		t.Error("another variant has the same stamp")
	}
	os.WriteFile(f, []byte("package exercises // edited\n"), 0o644)
	if s2, _ := sourceStamp(root, []string{"sqlite"}, false); s2 == s1 {
		t.Error("the stamp did not change when exercises/a.go did")
	}
}
