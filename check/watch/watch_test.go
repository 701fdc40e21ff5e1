package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
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
