package class

import (
	"fmt"
	"os"
	"path/filepath"
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
				what += "\n" + t(key, e.Steps, e.File)
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
// the summary names them; a file of the same name is replaced whole.
func Save(s *Summary, dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	n := 0
	done := map[string]bool{}
	for _, row := range s.Rows {
		e := row.Example
		if e == nil || done[e.File] {
			continue
		}
		done[e.File] = true
		tmp, err := os.CreateTemp(dir, ".class-*")
		if err != nil {
			return n, err
		}
		_, err = tmp.WriteString(e.Body)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(dir, e.File))
		}
		if err != nil {
			os.Remove(tmp.Name())
			return n, err
		}
		n++
	}
	return n, nil
}
