package ondemand

import (
	"context"
	"errors"
	"os/exec"
	"strings"

	"archlab/i18n"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// TestOwnCacheRefusesOthers: a cache folder of another user's, one others
// may write, or a link is refused with the folder named (issue 37: a
// swapped variant in a shared XDG_CACHE_HOME ran as the caller); a new
// one is made the user's own, 0700.
func TestOwnCacheRefusesOthers(t *testing.T) {
	root := "/some/clone"
	t.Run("made", func(t *testing.T) {
		// The user's cache folder not there yet (a fresh account): made.
		t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "not", "yet"))
		dir, err := OwnCache(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{filepath.Dir(dir), dir} {
			if info, err := os.Stat(d); err != nil || info.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v %v, want a folder 0700", d, info.Mode(), err)
			}
		}
	})
	t.Run("others may write", func(t *testing.T) {
		cache := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", cache)
		os.Mkdir(filepath.Join(cache, "archlab"), 0o777)
		os.Chmod(filepath.Join(cache, "archlab"), 0o777)
		_, err := OwnCache(root)
		var e *NotOwnedError
		if !errors.As(err, &e) || e.Kind != "mode" || e.Path != filepath.Join(cache, "archlab") {
			t.Errorf("err %v, want the folder refused for its mode", err)
		}
	})
	t.Run("a link", func(t *testing.T) {
		cache := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", cache)
		os.Symlink(t.TempDir(), filepath.Join(cache, "archlab"))
		_, err := OwnCache(root)
		var e *NotOwnedError
		if !errors.As(err, &e) || e.Kind != "not-dir" {
			t.Errorf("err %v, want the link refused", err)
		}
	})
	t.Run("another user's", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("giving a folder to another user needs root")
		}
		cache := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", cache)
		os.Mkdir(filepath.Join(cache, "archlab"), 0o700)
		if err := os.Chown(filepath.Join(cache, "archlab"), 12345, 12345); err != nil {
			t.Skip(err)
		}
		_, err := OwnCache(root)
		var e *NotOwnedError
		if !errors.As(err, &e) || e.Kind != "owner" || e.Uid != 12345 {
			t.Errorf("err %v, want the folder refused for its owner", err)
		}
	})
}

// TestBinaryMatchesItsStamp: a variant cut short, changed or without its
// x bit no longer matches the sum its stamp keeps (issue 37: it ran, and
// died of a segmentation fault with no line from archlab).
func TestBinaryMatchesItsStamp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "archlab-sqlite")
	os.WriteFile(bin, []byte("\x7fELF a program of some length"), 0o755)
	sum, err := binarySum(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !binaryMatches(bin, sum) {
		t.Fatal("the binary does not match its own sum")
	}
	os.Chmod(bin, 0o644)
	if binaryMatches(bin, sum) {
		t.Error("a binary without its x bit matches")
	}
	os.Chmod(bin, 0o755)
	os.Truncate(bin, 4)
	if binaryMatches(bin, sum) {
		t.Error("a binary cut short matches")
	}
}

// TestSweepOldBuilds: a build folder a killed build left is swept once it
// is old; a fresh one (a build under way) is kept.
func TestSweepOldBuilds(t *testing.T) {
	dir := t.TempDir()
	old, fresh := filepath.Join(dir, ".build-1"), filepath.Join(dir, ".build-2")
	os.Mkdir(old, 0o700)
	os.Mkdir(fresh, 0o700)
	long := time.Now().Add(-2 * staleBuild)
	os.Chtimes(old, long, long)
	sweep(dir)
	if _, err := os.Stat(old); err == nil {
		t.Error("an old build folder stayed")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh build folder was swept")
	}
}

// TestDamagedVariantIsBuiltAgain: a variant cut short is built again into
// a new file, never run as it was (issue 43: go build, handed the old
// file, found its build ID up to date and left it cut short, and it died
// of a segmentation fault on every run); when that build fails, the run
// gets an error, not the damaged file.
func TestDamagedVariantIsBuiltAgain(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, cache := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module tiny\n\ngo 1.21\n"), 0o644)
	main := filepath.Join(root, "main.go")
	os.WriteFile(main, []byte("package main\n\nfunc main() { println(\"whole\") }\n"), 0o644)
	var said strings.Builder
	w := Want{Parts: []string{"sqlite"}, Asker: "a test", Lang: i18n.EN, Err: &said}
	ctx := context.Background()
	bin, err := variantIn(ctx, w, goTool, root, cache, ".")
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(bin)
	os.Truncate(bin, info.Size()/2)
	said.Reset()
	sayRebuildAfter = 0 // every line it can say, as a slow rebuild would
	defer func() { sayRebuildAfter = time.Second }()
	again, err := variantIn(ctx, w, goTool, root, cache, ".")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(said.String(), "building it again") || strings.Contains(said.String(), "source changed") {
		t.Errorf("said %q, want the damage named, and not a change of the source", said.String())
	}
	if out, err := exec.Command(again).CombinedOutput(); err != nil || !strings.Contains(string(out), "whole") {
		t.Fatalf("the variant built again: %v %q, want it to run", err, out)
	}

	// Damaged again, and the source no longer compiles: an error, and the
	// damaged file is not handed back.
	os.Truncate(bin, info.Size()/2)
	os.WriteFile(main, []byte("package main\n\nfunc main() { not go }\n"), 0o644)
	if got, err := variantIn(ctx, w, goTool, root, cache, "."); err == nil {
		t.Errorf("a failed rebuild handed back %s", got)
	} else if e, ok := err.(*Error); !ok || e.Interrupted {
		t.Errorf("err %#v, want an *Error (exit 3)", err)
	}
}
