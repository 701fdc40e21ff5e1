package class

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/term"
)

// Text prints the summary for people: each exercise's counts, then what
// the class still breaks with the shortest run of each, then the results
// from another archlab and the shared sources. cmd is how the teacher runs
// archlab (for the replay command); saved is where --save wrote the
// shortest runs, "" when it did not.
func Text(r *term.Renderer, s *Summary, names bool, cmd, saved string) error {
	t := func(key string, args ...any) string { return i18n.T(r.Lang, key, args...) }
	fmt.Fprintln(r.Out, t(harness.Plural("class.head", s.Students), s.Students))
	fmt.Fprintln(r.Out)
	header := []any{t("class.col.exercise"), t("class.col.done"), t("class.col.not-done"), t("class.col.not-started"), t("class.col.timeout"), t("class.col.error")}
	missing := false
	for _, e := range s.Exercises {
		missing = missing || e.Missing > 0
	}
	if missing {
		header = append(header, t("class.col.missing"))
	}
	var rows [][]string
	for _, e := range s.Exercises {
		row := []string{e.Name, strconv.Itoa(e.Done), strconv.Itoa(e.NotDone), strconv.Itoa(e.NotStarted), strconv.Itoa(e.Timeout), strconv.Itoa(e.Error)}
		if missing {
			row = append(row, strconv.Itoa(e.Missing))
		}
		rows = append(rows, row)
	}
	if err := r.Table(header, rows, false); err != nil {
		return err
	}
	fmt.Fprintln(r.Out)
	if len(s.Rows) == 0 {
		fmt.Fprintln(r.Out, t("class.none-broken"))
	} else {
		fmt.Fprintln(r.Out, t("class.broken.head"))
		rows = nil
		for i, row := range s.Rows {
			what := row.Text
			if row.Kind == "mistake" {
				what = t("class.mistake", row.Text)
			}
			if e := row.Example; e != nil {
				key := "class.steps"
				if e.GoTest {
					key = "class.calls"
				}
				if e.Steps == 1 {
					key += ".one"
				}
				// The run is as the student's result gave it (its
				// answers are the student's to claim): said whose.
				what += "\n" + t(key, e.Steps, e.File) + " " + t("class.run-of", e.Student)
			}
			rows = append(rows, []string{strconv.Itoa(i + 1), strconv.Itoa(len(row.Students)), row.Exercise, what})
		}
		header = []any{"", t("class.col.students"), t("class.col.exercise"), t("class.col.broken")}
		if err := r.Table(header, rows, true); err != nil {
			return err
		}
		dir := saved
		if dir == "" {
			dir = "DIR"
		}
		replay := cmd + " drill --file " + filepath.Join(dir, "FILE.txtar")
		para(r, t("class.replay", replay), "")
		if saved != "" {
			para(r, t("class.saved", saved), "")
		}
		// Each row's students: their names with --names, else their
		// numbers (Hide), which the lines below the tables use too.
		fmt.Fprintln(r.Out)
		for i, row := range s.Rows {
			para(r, fmt.Sprintf("%d. %s", i+1, strings.Join(row.Students, ", ")), "   ")
		}
		if !names {
			para(r, t("class.names-hidden"), "")
		}
	}
	if odd := s.OtherArchlab(); odd != "" {
		fmt.Fprintln(r.Out)
		para(r, t("class.other-archlab", odd), "  ")
	}
	for _, g := range s.Shared {
		para(r, t("class.same-sources", strings.Join(g, ", ")), "  ")
	}
	return nil
}

// para prints text wrapped to the width, its lines after the first
// indented.
func para(r *term.Renderer, text, indent string) {
	for i, l := range term.WrapText(text, r.Width-len(indent)) {
		if i > 0 {
			l = indent + l
		}
		fmt.Fprintln(r.Out, l)
	}
}

// Refusals prints one line per file refused, to w (stderr).
func Refusals(r *term.Renderer, s *Summary) {
	for _, f := range s.Refused {
		fmt.Fprintln(r.Err, i18n.T(r.Lang, "class.refused", f.File, f.Why))
	}
}

// Save writes each row's shortest run into dir, one file each, named as
// the summary names them, 0644 as any file the teacher saves; a file of
// the same name is replaced whole. What an earlier save wrote (listed in
// dir's saveList) and this one does not is removed, so the folder holds
// this class's runs only; a save that fails takes back what it made.
func Save(s *Summary, dir string) (n int, err error) {
	var made term.Made
	defer func() {
		if err != nil {
			made.Undo()
		}
	}()
	if err := made.Dir(dir); err != nil {
		return 0, err
	}
	var wrote []string
	for _, row := range s.Rows {
		e := row.Example
		if e == nil || slices.Contains(wrote, e.File) {
			continue
		}
		path := filepath.Join(dir, e.File)
		fresh := term.Fresh(path)
		if err := writeWhole(path, e.Body); err != nil {
			return n, err
		}
		if fresh {
			made.File(path)
		}
		wrote = append(wrote, e.File)
		n++
	}
	old, _ := os.ReadFile(filepath.Join(dir, saveList))
	for _, name := range strings.Split(string(old), "\n") {
		if savedName.MatchString(name) && !slices.Contains(wrote, name) {
			os.Remove(filepath.Join(dir, name))
		}
	}
	return n, writeWhole(filepath.Join(dir, saveList), strings.Join(wrote, "\n")+"\n")
}

// saveList is the file in a --save folder that lists what the save wrote.
const saveList = ".archlab-class-save"

// savedName is a name Save writes; an earlier save's list is trusted for
// nothing else (a file of the teacher's beside them stays).
var savedName = regexp.MustCompile(`^(\d+-[a-z0-9-]+\.txtar|row\d+_[a-z0-9_]+_test\.go)$`)

// writeWhole writes body to path through a temporary file beside it,
// 0644: a reader sees the old file or the new one.
func writeWhole(path, body string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".class-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
