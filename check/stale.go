package check

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"archlab/exercises"
)

// Fingerprint sums the exercises' Go files in fsys: every name and every
// byte of the .go files at its top level, test files left out (they do not
// change what check runs). A file added, removed or edited changes it.
func Fingerprint(fsys fs.FS) (string, error) {
	names, err := fs.Glob(fsys, "*.go")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Clean(name))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// Stale reports whether the exercises compiled into this binary differ
// from those in the clone at root: the binary was built before they
// changed, and checking it would check the old code. An error means the
// files on disk could not be read.
func Stale(root string) (bool, error) {
	built, err := Fingerprint(exercises.Sources())
	if err != nil {
		return false, err
	}
	disk, err := Fingerprint(os.DirFS(filepath.Join(root, "exercises")))
	if err != nil {
		return false, err
	}
	return built != disk, nil
}
