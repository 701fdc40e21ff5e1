package term

import (
	"fmt"
	"strings"

	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
)

// List is `archlab list`: each section's title on lines of its own, then
// its package, then its drills, each title wrapped under itself.
func (r *Renderer) List() error {
	p := r.P
	nameW := 0
	for _, d := range drills.All() {
		nameW = max(nameW, len(d.Name))
	}
	w := r.Width
	for i, s := range harness.Sections {
		if i > 0 {
			fmt.Fprintln(r.Out)
		}
		// The section's title on lines of its own, then its
		// package; each drill's title wraps under itself.
		for _, l := range WrapText(r.t(s.TitleKey()), w) {
			fmt.Fprintln(r.Out, p.Bold.Sprint(l))
		}
		fmt.Fprintln(r.Out, p.Dim.Sprint(s.Package))
		list, _ := drills.InSection(s.ID)
		for _, d := range list {
			first := fmt.Sprintf("  %-*s  ", nameW, d.Name)
			if len(first)+16 > w { // a narrow screen: the title under the name
				fmt.Fprintln(r.Out, "  "+d.Name)
				WriteHanging(r.Out, "      ", "      ", d.Title(r.Lang), w)
				continue
			}
			WriteHanging(r.Out, first, strings.Repeat(" ", len(first)), d.Title(r.Lang), w)
		}
	}
	return nil
}

// JSONList is `archlab list --json`: the sections in the book's order,
// each with its drills: name, title, the counters the book prints (or the
// lab's, for a drill the book's log does not print) and the parameters.
type JSONList struct {
	Schema   int           `json:"schema"`
	Sections []JSONSection `json:"sections"`
}

type JSONSection struct {
	ID      string      `json:"id"`
	Title   string      `json:"title"`
	Package string      `json:"package"`
	Drills  []JSONEntry `json:"drills"`
}

type JSONEntry struct {
	Name     string         `json:"name"`
	Title    string         `json:"title"`
	Expected string         `json:"expected"` // "book", or "lab" where the book prints nothing
	Counters []JSONBookItem `json:"counters"`
	Params   []JSONListArg  `json:"params"`
}

type JSONBookItem struct {
	Name  string `json:"name"`
	Value any    `json:"value"` // as drill --json gives it: a number, a boolean or text
}

type JSONListArg struct {
	Name    string `json:"name"`
	Default int    `json:"default"`
	Min     int    `json:"min"`
	Max     *int   `json:"max"` // null: no fixed upper bound
}

// ListJSON is `archlab list --json` in lang.
func ListJSON(lang i18n.Lang) JSONList {
	out := JSONList{Schema: JSONSchema, Sections: []JSONSection{}}
	for _, s := range harness.Sections {
		js := JSONSection{ID: s.ID, Title: i18n.T(lang, s.TitleKey()), Package: s.Package, Drills: []JSONEntry{}}
		list, _ := drills.InSection(s.ID)
		for _, d := range list {
			e := JSONEntry{Name: d.Name, Title: d.Title(lang), Expected: "book", Counters: []JSONBookItem{}, Params: []JSONListArg{}}
			if d.LabOnly {
				e.Expected = "lab"
			}
			for _, c := range d.Book {
				e.Counters = append(e.Counters, JSONBookItem{c.Name, Typed(c.Value)})
			}
			for _, p := range d.Params {
				a := JSONListArg{Name: p.Name, Default: p.Default, Min: p.Min}
				if p.Max > 0 {
					a.Max = &p.Max
				}
				e.Params = append(e.Params, a)
			}
			js.Drills = append(js.Drills, e)
		}
		out.Sections = append(out.Sections, js)
	}
	return out
}
