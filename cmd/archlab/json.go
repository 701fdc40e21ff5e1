package main

import (
	"encoding/json"
	"io"
	"strings"

	"archlab/drills"
	"archlab/internal/i18n"
)

// jsonDrill is one drill in --json output. Values are strings exactly as
// the book prints them; Book and Match are null when the run was not
// compared with the book.
type jsonDrill struct {
	Drill    string        `json:"drill"`
	Section  string        `json:"section"`
	Title    string        `json:"title"`
	Pass     bool          `json:"pass"`
	Expected string        `json:"expected"` // "book", or "lab" for a drill the book does not print
	Counters []jsonCounter `json:"counters"`
	Checks   []jsonCheck   `json:"checks"`
	Error    string        `json:"error,omitempty"`
}

type jsonCounter struct {
	Name  string  `json:"name"`
	Value string  `json:"value"`
	Book  *string `json:"book"`
	Match *bool   `json:"match"`
}

type jsonCheck struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
}

type jsonAll struct {
	Drills []jsonDrill `json:"drills"`
	Passed int         `json:"passed"`
	Failed int         `json:"failed"`
}

func jsonOf(lang i18n.Lang, res *drills.Result) jsonDrill {
	j := jsonDrill{
		Drill:    res.Drill.Name,
		Section:  res.Drill.Section,
		Title:    i18n.T(lang, res.Drill.TitleKey()),
		Pass:     res.Pass,
		Expected: "book",
		Counters: []jsonCounter{},
		Checks:   []jsonCheck{},
	}
	if res.Drill.LabOnly {
		j.Expected = "lab"
	}
	for _, c := range res.Counters {
		j.Counters = append(j.Counters, jsonCounter{Name: c.Name, Value: c.Value, Book: c.Book, Match: c.Match})
	}
	for _, c := range res.Checks {
		// The check's name is its catalogue key without "check.": stable
		// across languages.
		j.Checks = append(j.Checks, jsonCheck{Name: strings.TrimPrefix(c.Key, "check."), OK: c.OK})
	}
	if res.Err != nil {
		j.Error = res.Err.Error()
	}
	return j
}

func jsonOfAll(lang i18n.Lang, results []*drills.Result) jsonAll {
	all := jsonAll{Drills: []jsonDrill{}}
	for _, res := range results {
		all.Drills = append(all.Drills, jsonOf(lang, res))
		if res.Pass {
			all.Passed++
		} else {
			all.Failed++
		}
	}
	return all
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
