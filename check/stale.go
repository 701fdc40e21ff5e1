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
// byte of the .go files in it and in its subfolders (a helper package of
// the student's), test files left out (they do not change what check
// runs), and files and folders whose names start with . or _ too (go
// build leaves them out). A file added, removed or edited changes it.
func Fingerprint(fsys fs.FS) (string, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := path.Base(p)
		if p != "." && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
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
