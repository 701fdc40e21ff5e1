package drills

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
)

// Sections are the book's sections archlab follows, in book order.
var Sections = []Section{
	{ID: "8.2", Chapter: 8, Package: "internal/inbox"},
	{ID: "8.3", Chapter: 8, Package: "internal/ordering"},
	{ID: "11.2", Chapter: 11, Package: "internal/shardjob"},
}

// files holds the built-in drills: one drill file each, in a folder per
// section, numbered in the book's order.
//
//go:embed files
var files embed.FS

var (
	loadOnce sync.Once
	registry []*Drill
)

// builtin parses the embedded drill files once, in book order. A file that
// does not parse is a bug of this repository; the tests read every one.
func builtin() []*Drill {
	loadOnce.Do(func() {
		for _, s := range Sections {
			dir := path.Join("files", s.ID)
			entries, err := fs.ReadDir(files, dir)
			if err != nil {
				panic(fmt.Sprintf("drills: no folder %s: %v", dir, err))
			}
			for _, e := range entries {
				p := path.Join(dir, e.Name())
				data, err := files.ReadFile(p)
				if err != nil {
					panic(err)
				}
				d, err := Parse("drills/"+p, data)
				if err != nil {
					panic(fmt.Sprintf("drills: built-in drill: %v", err))
				}
				if d.Section != s.ID {
					panic(fmt.Sprintf("drills: %s is in folder %s but says section %s", p, s.ID, d.Section))
				}
				d.Builtin = true
				registry = append(registry, d)
			}
		}
	})
	return registry
}

// Source returns the text of a drill's file: a built-in one's as the
// binary embeds it, any other's as it was parsed.
func Source(d *Drill) ([]byte, error) {
	if !d.Builtin && d.file != nil {
		return slices.Clone(d.file.data), nil
	}
	return files.ReadFile(strings.TrimPrefix(d.Path, "drills/"))
}

// Nearest returns up to n names within a small edit distance of name (or
// that contain it), closest first, ties in the given order.
func Nearest(name string, names []string, n int) []string {
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	for _, s := range names {
		d := levenshtein(name, s)
		if d <= max(2, len(name)/3) || (len(name) >= 3 && strings.Contains(s, name)) {
			cands = append(cands, cand{s, d})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.dist - b.dist })
	var out []string
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
