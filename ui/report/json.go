package report

import (
	"bytes"
	"encoding/json"
	"fmt"

	"archlab/check"
	"archlab/explore"
)

// JSONAll is `archlab check --json`.
type JSONAll struct {
	Exercises []JSONExercise `json:"exercises"`
	Done      int            `json:"done"`
	Total     int            `json:"total"`
	// Hint is the hint --hint gave, absent without --hint or when no
	// exercise needs one.
	Hint *Hint `json:"graduated_hint,omitempty"`
	// Which archlab judged which exercises (the SHA-256 of their sources):
	// a class tells results made from other code apart (archlab class).
	GraderInfo
}

type JSONExercise struct {
	Name    string   `json:"name"`
	Section string   `json:"section"`
	File    string   `json:"file"`
	Status  string   `json:"status"`
	Lessons []string `json:"lessons"`
	// LessonIDs are the lessons' IDs (check.Lesson.ID), in the same
	// order: the same in every language, for a class to count by.
	LessonIDs    []string `json:"lesson_ids"`
	Drills       int      `json:"drills"`
	DrillsPassed int      `json:"drills_passed"`
	Schedules    uint64   `json:"schedules"`
	// WideSkipped: the wide scope was left out (a durable inbox); the
	// schedules are the small scope's, each run from the start.
	WideSkipped bool `json:"wide_skipped,omitempty"`
	// Differences are the drills' checks and counters that differ from
	// the book's with no harm seen; Safer the harms the book's design
	// does in a drill and the code does not. They inform, never decide.
	Differences    []string `json:"differences,omitempty"`
	Safer          []string `json:"safer,omitempty"`
	Counterexample string   `json:"counterexample,omitempty"`
	DrillFile      string   `json:"drill_file,omitempty"`
	Hint           string   `json:"hint,omitempty"`
	Error          string   `json:"error,omitempty"`
	// Faults is how many schedules each fault class struck, in the
	// section's order (a pass requires every one above 0).
	Faults JSONFaults `json:"faults,omitempty"`
	// Timeout is where the code was when its time ran out.
	Timeout *JSONHang `json:"timeout,omitempty"`
	// Diagnosis is where the shortest run parts from the book's.
	Diagnosis *JSONDiagnosis `json:"diagnosis,omitempty"`
	// Printed is what the code printed while checked: the first lines and
	// the count.
	Printed *JSONPrinted `json:"printed,omitempty"`
	// Clauses is how many of the model's calls reached each clause of the
	// doc comment, in its order (a mechanism exercise).
	Clauses JSONFaults `json:"clauses,omitempty"`
	// Calls is the model's counterexample, GoTest the test that replays it.
	Calls  []JSONCall `json:"calls,omitempty"`
	GoTest string     `json:"go_test,omitempty"`
	// Race is calls made at once that no order of them explains.
	Race *check.RaceRun `json:"race,omitempty"`
	// Mistake is the known mistake the failure shows, and its words.
	Mistake     string `json:"mistake,omitempty"`
	MistakeText string `json:"mistake_text,omitempty"`
}

// JSONCall is one call of the model's counterexample: each answer (the
// call's, then the reads after it) on both sides.
type JSONCall struct {
	Call    string         `json:"call"`
	Clauses []string       `json:"clauses"`
	Book    []check.Answer `json:"the_book"`
	Yours   []check.Answer `json:"yours"`
}

// JSONPrinted is the student's code's own output in --json.
type JSONPrinted struct {
	Lines int      `json:"lines"`
	First []string `json:"first"`
}

// JSONDiagnosis is check.Diagnosis in --json, in words.
type JSONDiagnosis struct {
	Step        int    `json:"step"`
	At          string `json:"at"`
	Book        string `json:"the_book"`
	Yours       string `json:"yours"`
	Mistake     string `json:"mistake,omitempty"`
	MistakeText string `json:"mistake_text,omitempty"`
}

// JSONHang is a hung exercise in --json.
type JSONHang struct {
	Seconds  float64 `json:"limit_seconds"`
	Where    string  `json:"where"`
	LastCall string  `json:"last_call"`
}

// JSONFaults is an object whose keys keep the section's order, which a Go
// map would sort.
type JSONFaults []explore.Count

func (f JSONFaults) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(c.Name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s:%d", k, c.N)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object back in its order (a tool reading
// --json in Go, and the tests).
func (f *JSONFaults) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	*f = nil
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var n uint64
		if err := dec.Decode(&n); err != nil {
			return err
		}
		*f = append(*f, explore.Count{Name: k.(string), N: n})
	}
	return nil
}

// clauseCounts are clause counts in the faults' shape, for one ordered
// object.
func clauseCounts(cs []check.ClauseCount) []explore.Count {
	var out []explore.Count
	for _, c := range cs {
		out = append(out, explore.Count{Name: c.Name, N: c.N})
	}
	return out
}

// JSON is the results as `check --json` prints them (without the hint,
// which cmd adds when --hint asked for one).
func (r *Report) JSON(results []*check.Result, done int) JSONAll {
	out := JSONAll{Done: done, Total: len(results), Exercises: []JSONExercise{}, GraderInfo: r.Info}
	for _, res := range results {
		j := JSONExercise{Name: res.Exercise.Name, Section: res.Exercise.Section.ID, File: res.Exercise.File, Status: string(res.Status),
			Lessons: []string{}, LessonIDs: []string{}, Drills: res.Drills, DrillsPassed: res.Passed, Schedules: res.Schedules, WideSkipped: res.WideSkipped, Hint: res.Hint(r.Lang)}
		for _, l := range res.Lessons {
			j.Lessons = append(j.Lessons, check.LessonText(r.Lang, l))
			j.LessonIDs = append(j.LessonIDs, l.ID())
		}
		for _, l := range res.Differences {
			j.Differences = append(j.Differences, check.DifferenceText(r.Lang, l))
		}
		for _, l := range res.Safer {
			j.Safer = append(j.Safer, check.DifferenceText(r.Lang, l))
		}
		if res.Err != nil {
			j.Error = res.Err.Error()
		}
		j.Faults = JSONFaults(res.Faults)
		if res.PrintedLines > 0 {
			j.Printed = &JSONPrinted{Lines: res.PrintedLines, First: res.Printed}
		}
		if d := res.Diagnosis; d != nil {
			at, book, yours := r.diagnosisTexts(d)
			j.Diagnosis = &JSONDiagnosis{Step: d.Step, At: at, Book: book, Yours: yours, Mistake: d.Mistake}
			if d.Mistake != "" {
				j.Diagnosis.MistakeText = check.MistakeText(r.Lang, d.Mistake)
			}
		}
		j.Clauses = JSONFaults(clauseCounts(res.Clauses))
		if c := res.Calls; c != nil {
			for _, call := range c.Calls {
				j.Calls = append(j.Calls, JSONCall{Call: call.Text, Clauses: call.Clauses, Book: call.Book, Yours: call.Yours})
			}
			j.GoTest = c.GoTest
		}
		j.Race = res.Race
		if res.Mistake != "" {
			j.Mistake, j.MistakeText = res.Mistake, check.MistakeText(r.Lang, res.Mistake)
		}
		if h := res.Hang; h != nil {
			j.Timeout = &JSONHang{Seconds: h.Limit.Seconds(), Where: h.Where, LastCall: h.Verb}
		}
		if res.Shortest != nil {
			j.Counterexample = res.Shortest.Line(r.Lang, res.Lessons[0])
			if file, err := res.Shortest.File(r.Lang); err == nil {
				j.DrillFile = file
			}
		}
		out.Exercises = append(out.Exercises, j)
	}
	return out
}
