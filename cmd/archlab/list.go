package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"archlab/drills"
	"archlab/ui/cli"
	"archlab/ui/term"
)

func newListCmd(g *cli.Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   g.T("help.list.short"),
		Example: g.T("help.list.example"),
		Args:    cli.NoArgs(g),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return term.WriteJSON(g.IO.Out, listJSON(g))
			}
			p := term.NewPalette(g.Colour())
			nameW := 0
			for _, d := range drills.All() {
				nameW = max(nameW, len(d.Name))
			}
			w := g.Width()
			for i, s := range drills.Sections {
				if i > 0 {
					fmt.Fprintln(g.IO.Out)
				}
				// The section's title on lines of its own, then its
				// package; each drill's title wraps under itself.
				for _, l := range term.WrapText(g.T(s.TitleKey()), w) {
					fmt.Fprintln(g.IO.Out, p.Bold.Sprint(l))
				}
				fmt.Fprintln(g.IO.Out, p.Dim.Sprint(s.Package))
				list, _ := drills.InSection(s.ID)
				for _, d := range list {
					first := fmt.Sprintf("  %-*s  ", nameW, d.Name)
					if len(first)+16 > w { // a narrow screen: the title under the name
						fmt.Fprintln(g.IO.Out, "  "+d.Name)
						term.WriteHanging(g.IO.Out, "      ", "      ", d.Title(g.Lang), w)
						continue
					}
					term.WriteHanging(g.IO.Out, first, strings.Repeat(" ", len(first)), d.Title(g.Lang), w)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, g.T("help.flag.list-json"))
	return cmd
}

// jsonList is `archlab list --json`: the sections in the book's order,
// each with its drills: name, title, the counters the book prints (or the
// lab's, for a drill the book's log does not print) and the parameters.
type jsonList struct {
	Schema   int           `json:"schema"`
	Sections []jsonSection `json:"sections"`
}

type jsonSection struct {
	ID      string      `json:"id"`
	Title   string      `json:"title"`
	Package string      `json:"package"`
	Drills  []jsonEntry `json:"drills"`
}

type jsonEntry struct {
	Name     string         `json:"name"`
	Title    string         `json:"title"`
	Expected string         `json:"expected"` // "book", or "lab" where the book prints nothing
	Counters []jsonBookItem `json:"counters"`
	Params   []jsonListArg  `json:"params"`
}

type jsonBookItem struct {
	Name  string `json:"name"`
	Value any    `json:"value"` // as drill --json gives it: a number, a boolean or text
}

type jsonListArg struct {
	Name    string `json:"name"`
	Default int    `json:"default"`
	Min     int    `json:"min"`
	Max     *int   `json:"max"` // null: no fixed upper bound
}

func listJSON(g *cli.Env) jsonList {
	out := jsonList{Schema: term.JSONSchema, Sections: []jsonSection{}}
	for _, s := range drills.Sections {
		js := jsonSection{ID: s.ID, Title: g.T(s.TitleKey()), Package: s.Package, Drills: []jsonEntry{}}
		list, _ := drills.InSection(s.ID)
		for _, d := range list {
			e := jsonEntry{Name: d.Name, Title: d.Title(g.Lang), Expected: "book", Counters: []jsonBookItem{}, Params: []jsonListArg{}}
			if d.LabOnly {
				e.Expected = "lab"
			}
			for _, c := range d.Book {
				e.Counters = append(e.Counters, jsonBookItem{c.Name, term.Typed(c.Value)})
			}
			for _, p := range d.Params {
				a := jsonListArg{Name: p.Name, Default: p.Default, Min: p.Min}
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
