package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"archlab/check"
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

// TestSnapshotSeesSubfolders: a save in a helper package of the student's
// (exercises/helper/x.go) is a save (issue 37: --watch did not see it).
func TestSnapshotSeesSubfolders(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "helper"), 0o755)
	os.MkdirAll(filepath.Join(dir, "_skip"), 0o755)
	os.WriteFile(filepath.Join(dir, "ledger.go"), []byte("package exercises\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "helper", "x.go"), []byte("package helper\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "_skip", "y.go"), []byte("package skip\n"), 0o644)
	before, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := before["helper/x.go"]; !ok || len(before) != 2 {
		t.Fatalf("snapshot %v: want ledger.go and helper/x.go", before)
	}
	os.WriteFile(filepath.Join(dir, "helper", "x.go"), []byte("package helper\n\nvar X = 1\n"), 0o644)
	now, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := changedFiles(before, now); len(got) != 1 || got[0] != "helper/x.go" {
		t.Errorf("changed %v, want helper/x.go", got)
	}
	if got := (Options{}).watched([]string{"helper/x.go"}); len(got) != len(check.Exercises) {
		t.Errorf("a helper's save checks %v, want every exercise", got)
	}
}
