package shardjob

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bookFormats are the format strings of the book's shard.go (§11.2), letter
// for letter: readers compare the errors they see with the book's.
var bookFormats = map[string]string{
	"split":  "split %d keys: shards must be positive, got %d",
	"epoch":  "commit %s epoch %d: %w",
	"offset": "commit %s offset %d < %d: %w",
	"crash":  "crash after %d attempts at offset %d: %w",
}

// bookSeed is the book's excerpt, beside the repository when it is checked
// out in the shared workspace.
var bookSeed = filepath.Join("..", "..", "..", "shared", "seeds", "003_1762961b34bb78d1.txt")

// TestBookFormatsAreTheSeeds: the pinned formats are the ones in the book's
// excerpt, when the excerpt is there to read.
func TestBookFormatsAreTheSeeds(t *testing.T) {
	src, err := os.ReadFile(bookSeed)
	if err != nil {
		t.Skipf("the book's excerpt is not beside the repository: %v", err)
	}
	var inBook []string
	for _, m := range regexp.MustCompile(`fmt\.Errorf\("([^"]*)"`).FindAllStringSubmatch(string(src), -1) {
		inBook = append(inBook, m[1])
	}
	for name, f := range bookFormats {
		found := false
		for _, b := range inBook {
			found = found || b == f
		}
		if !found {
			t.Errorf("%s: %q is not among the book's formats %q", name, f, inBook)
		}
	}
	for _, b := range inBook {
		if strings.HasPrefix(b, "hash ") {
			continue // FNV's Write never fails, so Split has no such error
		}
		found := false
		for _, f := range bookFormats {
			found = found || b == f
		}
		if !found {
			t.Errorf("the book's %q is not pinned here", b)
		}
	}
}

// TestErrorsAreTheBooks: every error shardjob returns reads as the book's.
func TestErrorsAreTheBooks(t *testing.T) {
	_, splitErr := Split([]string{"a", "b"}, 0)

	cp := NewCheckpoint()
	if err := cp.Commit("shard-0", 2, 10); err != nil {
		t.Fatal(err)
	}
	epochErr := cp.Commit("shard-0", 1, 20)
	offsetErr := cp.Commit("shard-0", 2, 5)

	r := &Runner{Sink: NewSink(), CP: NewCheckpoint(), Epoch: 1, CommitEvery: 4}
	_, crashErr := r.Run("shard-1", []string{"a", "b", "c", "d", "e", "f"}, 6)

	tests := []struct {
		name string
		got  error
		want string
		is   error
	}{
		{"split", splitErr, fmt.Errorf(bookFormats["split"], 2, 0).Error(), nil},
		{"epoch", epochErr, fmt.Errorf(bookFormats["epoch"], "shard-0", 1, ErrStaleEpoch).Error(), ErrStaleEpoch},
		{"offset", offsetErr, fmt.Errorf(bookFormats["offset"], "shard-0", 5, 10, ErrStaleOffset).Error(), ErrStaleOffset},
		{"crash", crashErr, fmt.Errorf(bookFormats["crash"], 6, 5, ErrInjectedCrash).Error(), ErrInjectedCrash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got == nil || tt.got.Error() != tt.want {
				t.Fatalf("error = %v, the book's is %q", tt.got, tt.want)
			}
			if tt.is != nil && !errors.Is(tt.got, tt.is) {
				t.Fatalf("%v does not wrap %v", tt.got, tt.is)
			}
		})
	}
	// The sentinels too.
	for _, s := range []struct {
		err  error
		want string
	}{
		{ErrStaleEpoch, "shardjob: stale shard epoch"},
		{ErrStaleOffset, "shardjob: stale checkpoint offset"},
		{ErrInjectedCrash, "shardjob: injected crash"},
	} {
		if s.err.Error() != s.want {
			t.Errorf("sentinel %q, the book's is %q", s.err, s.want)
		}
	}
}
