package term

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"archlab/drills"
	"archlab/i18n"
)

// JSONSchema is the version of the --json output; it grows when a field
// changes meaning. 2: counters are numbers or booleans where the book
// prints one, and params lists the run's parameters.
const JSONSchema = 2

// JSONDrill is one drill in --json output. A counter's value is a JSON
// number or boolean when the book prints one, else the book's text; Book
// and Match are null when the run was not compared with the book.
type JSONDrill struct {
	Schema   int           `json:"schema"`
	Drill    string        `json:"drill"`
	Section  string        `json:"section"`
	Title    string        `json:"title"`
	Pass     bool          `json:"pass"`
	Expected string        `json:"expected"` // "book", "lab" for a drill the book does not print, "file" for a drill file's own
	Broker   string        `json:"broker"`   // "memory" (the model), "nats (embedded)", "kafka host:9092"
	Params   []JSONParam   `json:"params"`
	Counters []JSONCounter `json:"counters"`
	Checks   []JSONCheck   `json:"checks"`
	Error    string        `json:"error,omitempty"`
}

type JSONCounter struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	Book  any    `json:"book"`
	Match *bool  `json:"match"`
}

// JSONParam is one parameter of the run beside the book's default.
type JSONParam struct {
	Name    string `json:"name"`
	Value   int    `json:"value"`
	Default int    `json:"default"`
}

// Typed is a counter's text as the JSON value it is: a number, a boolean,
// or the text itself ("v2/PAID", "1/1").
func Typed(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(n, 10) == s {
		return n
	}
	if s == "true" || s == "false" {
		return s == "true"
	}
	return s
}

type JSONCheck struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Shows bool   `json:"shows"` // the check demonstrates a failure: ok means the harm happened
}

type JSONAll struct {
	Schema int         `json:"schema"`
	Broker string      `json:"broker"`
	Drills []JSONDrill `json:"drills"`
	Passed int         `json:"passed"`
	Failed int         `json:"failed"`
}

func DrillJSON(lang i18n.Lang, res *drills.Result, broker string) JSONDrill {
	j := JSONDrill{
		Schema:   JSONSchema,
		Drill:    res.Drill.Name,
		Section:  res.Drill.Section,
		Title:    res.Drill.Title(lang),
		Pass:     res.Pass,
		Expected: "book",
		Broker:   broker,
		Params:   []JSONParam{},
		Counters: []JSONCounter{},
		Checks:   []JSONCheck{},
	}
	switch {
	case !res.Drill.Builtin:
		j.Expected = "file"
	case res.Drill.LabOnly:
		j.Expected = "lab"
	}
	for _, p := range res.Params {
		j.Params = append(j.Params, JSONParam(p))
	}
	for _, c := range res.Counters {
		jc := JSONCounter{Name: c.Name, Value: Typed(c.Value), Match: c.Match}
		if c.Book != nil {
			jc.Book = Typed(*c.Book)
		}
		j.Counters = append(j.Counters, jc)
	}
	for _, c := range res.Checks {
		// The check's name is its catalogue key without "check.": stable
		// across languages.
		j.Checks = append(j.Checks, JSONCheck{Name: strings.TrimPrefix(c.Key, "check."), OK: c.OK, Shows: c.Shows})
	}
	if res.Err != nil {
		j.Error = res.Err.Error()
	}
	return j
}

func DrillsJSON(lang i18n.Lang, results []*drills.Result, broker string) JSONAll {
	all := JSONAll{Schema: JSONSchema, Broker: broker, Drills: []JSONDrill{}}
	for _, res := range results {
		all.Drills = append(all.Drills, DrillJSON(lang, res, broker))
		if res.Pass {
			all.Passed++
		} else {
			all.Failed++
		}
	}
	return all
}

func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
