package drills

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"archlab/harness"
)

// files holds the built-in drills: one drill file each, in a folder per
// section, numbered in the book's order.
//
//go:embed files
var files embed.FS

// builtinFile is one embedded drill file, parsed the first time its drill
// is asked for: `archlab drill ack-lost` parses ack-lost's file alone,
// and `archlab version` none (parsing all 29 was a tenth of every
// command's start-up, issue 27).
type builtinFile struct {
	section    *harness.Section
	name, path string
	once       sync.Once
	drill      *Drill
}

// index lists the embedded drill files in book order, without parsing
// them: a file's name is its drill's, after its number (1-ack-lost.txtar
// holds drill ack-lost). The numbers are compared as numbers: ReadDir's
// order puts 10-effect-fails before 2-naive-redelivery.
var index = sync.OnceValue(func() []*builtinFile {
	var out []*builtinFile
	for _, s := range harness.Sections {
		dir := path.Join("files", s.ID)
		entries, err := fs.ReadDir(files, dir)
		if err != nil {
			panic(fmt.Sprintf("drills: no folder %s: %v", dir, err))
		}
		slices.SortStableFunc(entries, func(a, b fs.DirEntry) int { return fileNumber(a.Name()) - fileNumber(b.Name()) })
		for _, e := range entries {
			_, name, _ := strings.Cut(strings.TrimSuffix(e.Name(), ".txtar"), "-")
			out = append(out, &builtinFile{section: s, name: name, path: path.Join(dir, e.Name())})
		}
	}
	return out
})

// fileNumber is the number a drill file's name starts with (9 for
// 9-prune-keeps-newer.txtar); a name without one is a bug of this
// repository, which TestBookOrder finds.
func fileNumber(name string) int {
	num, _, _ := strings.Cut(name, "-")
	n, err := strconv.Atoi(num)
	if err != nil {
		return -1
	}
	return n
}

// parse parses the file once. A file that does not parse, or whose drill
// or section is not the one its name and folder say, is a bug of this
// repository; the tests read every one.
func (f *builtinFile) parse() *Drill {
	f.once.Do(func() {
		data, err := files.ReadFile(f.path)
		if err != nil {
			panic(err)
		}
		d, err := Parse("drills/"+f.path, data)
		if err != nil {
			panic(fmt.Sprintf("drills: built-in drill: %v", err))
		}
		if d.Sec() != f.section || d.Name != f.name {
			panic(fmt.Sprintf("drills: %s is in folder %s and named %s but says drill %s, section %s", f.path, f.section.ID, f.name, d.Name, d.Section))
		}
		d.Builtin = true
		f.drill = d
	})
	return f.drill
}

// builtin parses every embedded drill file, in book order.
func builtin() []*Drill {
	var out []*Drill
	for _, f := range index() {
		out = append(out, f.parse())
	}
	return out
}

// Names lists the built-in drills' names in book order, without parsing
// their files.
func Names() []string {
	var out []string
	for _, f := range index() {
		out = append(out, f.name)
	}
	return out
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
