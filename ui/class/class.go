// Package class reads a class's results (one `archlab check --json`, or a
// folder of the graders' formats, per student) and counts them the way a
// teacher asks: how far each exercise is across the room, which of the
// book's rules and known mistakes the room still shows, with the shortest
// run among them for the projector, and which results came from another
// archlab. It runs nothing: it reads files (read.go), counts (this file)
// and lays the counts out (render.go); the page is ui/web's.
package class

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"archlab/check"
	"archlab/i18n"
)

// Summary is a class counted.
type Summary struct {
	Students  int             `json:"students"`
	Exercises []ExerciseCount `json:"exercises"`
	// Rows are the broken lessons and the known mistakes, the most shown
	// first.
	Rows []Row `json:"broken"`
	// Versions are the results judged by another archlab than most of
	// the class's; Shared, the students whose results judged the very
	// same sources (a copy, or a template handed in as it was).
	Versions []Odd      `json:"other_archlab,omitempty"`
	Shared   [][]string `json:"same_sources,omitempty"`
	Refused  []Refused  `json:"refused,omitempty"`
}

// ExerciseCount is how many students are where on one exercise.
type ExerciseCount struct {
	Name       string `json:"name"`
	Section    string `json:"section"`
	Done       int    `json:"done"`
	NotDone    int    `json:"not_done"`
	NotStarted int    `json:"not_started"`
	Timeout    int    `json:"timeout"`
	Error      int    `json:"error"`
	// Missing is students whose results do not have the exercise.
	Missing int `json:"missing,omitempty"`
}

// Row is one broken lesson or known mistake of one exercise.
type Row struct {
	Kind     string   `json:"kind"` // lesson or mistake
	Exercise string   `json:"exercise"`
	ID       string   `json:"id"` // the lesson's ID, or the mistake's key
	Text     string   `json:"text"`
	Students []string `json:"students"`
	// Example is the shortest run among the students whose run shows
	// it, nil when no result carries one.
	Example *Example `json:"shortest,omitempty"`
}

// Example is a counterexample of the class's: whose, how long, and the
// file that replays it in that student's repository.
type Example struct {
	Student string `json:"student"`
	Steps   int    `json:"steps"`
	File    string `json:"file"`
	// GoTest: the file is a Go test of calls (a mechanism exercise's
	// model), else a drill file of strategy student.
	GoTest   bool   `json:"go_test,omitempty"`
	TestName string `json:"test_name,omitempty"`
	Body     string `json:"-"`
}

// OtherArchlab lists the results judged by another archlab, "student
// (version)", "" for none: the terminal's line and the page's.
func (s *Summary) OtherArchlab() string {
	var out []string
	for _, o := range s.Versions {
		out = append(out, o.Student+" ("+o.Version+")")
	}
	return strings.Join(out, ", ")
}

// Odd is a result judged by another archlab.
type Odd struct {
	Student string `json:"student"`
	Version string `json:"archlab_version"`
}

// Count counts a class, in lang for the texts.
func Count(lang i18n.Lang, c *Class) *Summary {
	s := &Summary{Students: len(c.Students), Refused: c.Refused}
	for _, ex := range check.Exercises {
		n := ExerciseCount{Name: ex.Name, Section: ex.Section.ID}
		for _, st := range c.Students {
			e := st.exercise(ex.Name)
			if e == nil {
				n.Missing++
				continue
			}
			switch e.Status {
			case check.Done:
				n.Done++
			case check.NotDone:
				n.NotDone++
			case check.NotStarted:
				n.NotStarted++
			case check.Hung:
				n.Timeout++
			default:
				n.Error++
			}
		}
		s.Exercises = append(s.Exercises, n)
	}
	s.Rows = rows(lang, c)
	s.Versions = versions(c)
	s.Shared = shared(c)
	return s
}

func (st *Student) exercise(name string) *Exercise {
	for i := range st.Exercises {
		if st.Exercises[i].Name == name {
			return &st.Exercises[i]
		}
	}
	return nil
}

// rows are the lessons and mistakes, by the number of students who show
// them, then in check's order of exercises, lessons before mistakes, then
// by ID.
func rows(lang i18n.Lang, c *Class) []Row {
	type key struct{ kind, exercise, id string }
	at := map[key]*Row{}
	var out []*Row
	add := func(k key, text, student string, replay *Replay) {
		r := at[k]
		if r == nil {
			r = &Row{Kind: k.kind, Exercise: k.exercise, ID: k.id, Text: text}
			at[k] = r
			out = append(out, r)
		}
		if r.Text == "" {
			r.Text = text
		}
		// The students come one after another: a student already on the
		// row is its last (a search of the row made a class of 20,000
		// take 18 s, issue 43).
		if n := len(r.Students); n == 0 || r.Students[n-1] != student {
			r.Students = append(r.Students, student)
		}
		if replay != nil && replay.Steps > 0 && (r.Example == nil || replay.Steps < r.Example.Steps) {
			r.Example = example(student, replay)
		}
	}
	for _, st := range c.Students { // by name: the shortest tie goes to the first
		for _, e := range st.Exercises {
			for i, l := range e.Lessons {
				if strings.HasPrefix(l.ID, "counter/") && i > 0 {
					continue // a drill's counter: a symptom of the checks beside it
				}
				text := lessonText(lang, e.Name, l.ID)
				var replay *Replay
				if i == 0 { // the run shows the headline lesson
					replay = e.Replay
				}
				add(key{"lesson", e.Name, l.ID}, text, st.Name, replay)
			}
			if e.Mistake != "" {
				add(key{"mistake", e.Name, e.Mistake}, mistakeName(lang, e.Mistake), st.Name, e.Replay)
			}
		}
	}
	order := map[string]int{}
	for i, ex := range check.Exercises {
		order[ex.Name] = i
	}
	slices.SortStableFunc(out, func(a, b *Row) int {
		return cmp.Or(cmp.Compare(len(b.Students), len(a.Students)), cmp.Compare(order[a.Exercise], order[b.Exercise]),
			cmp.Compare(a.Kind, b.Kind), strings.Compare(a.ID, b.ID))
	})
	rs := make([]Row, len(out))
	for i, r := range out {
		if e := r.Example; e != nil {
			// Named by the row: short, and the same on the page.
			e.File = fmt.Sprintf("%d-%s.txtar", i+1, r.Exercise)
			if e.GoTest {
				e.File = fmt.Sprintf("row%d_%s_test.go", i+1, strings.ReplaceAll(r.Exercise, "-", "_"))
			}
			e.Body = savedAs(lang, i+1, e)
		}
		rs[i] = *r
	}
	return rs
}

// lessonText is a lesson's words, archlab's own: the catalogue's, or for
// a unit or a counter (whose words carry the student's values) a line
// that names it. A result's own text is never shown: it could say
// anything in archlab's voice (issue 43).
func lessonText(lang i18n.Lang, exercise, id string) string {
	kind, rest, _ := strings.Cut(id, "/")
	if text, ok := check.LessonTextByID(lang, exercise, id); ok {
		if kind == "drill" {
			// The same check in another drill, or the explorer's, reads
			// the same: the row names its drill (issue 42, the walk
			// again: "no message is applied twice" three times).
			drill, _, _ := strings.Cut(rest, "/")
			return i18n.T(lang, "class.lesson.drill", drill, text)
		}
		return text
	}
	if kind == "counter" {
		drill, name, _ := strings.Cut(rest, "/")
		return i18n.T(lang, "class.lesson.counter", drill, name)
	}
	return i18n.T(lang, "class.lesson.unit", rest)
}

// mistakeName is a known mistake's name: its text up to the colon.
func mistakeName(lang i18n.Lang, key string) string {
	text := check.MistakeText(lang, key)
	if i := strings.IndexAny(text, ":："); i > 0 {
		return text[:i]
	}
	return text
}

var testName = regexp.MustCompile(`func (Test\w+)\(t \*testing\.T\)`)

// example is a replay as a file a teacher saves (--save) and replays in
// the student's repository; rows names its file.
func example(student string, r *Replay) *Example {
	if r.GoTest != "" {
		e := &Example{Student: student, Steps: r.Steps, GoTest: true, Body: r.GoTest}
		if m := testName.FindStringSubmatch(r.GoTest); m != nil {
			e.TestName = m[1]
		}
		return e
	}
	return &Example{Student: student, Steps: r.Steps, Body: r.DrillFile}
}

// versions are the results whose archlab is not the one most of the
// class ran (the first in order on a tie).
func versions(c *Class) []Odd {
	n := map[string]int{}
	most := ""
	for _, st := range c.Students {
		n[st.Version]++
		if n[st.Version] > n[most] || n[st.Version] == n[most] && st.Version < most {
			most = st.Version
		}
	}
	var out []Odd
	for _, st := range c.Students {
		if st.Version != most {
			out = append(out, Odd{st.Name, st.Version})
		}
	}
	return out
}

// shared are the groups of students whose results judged the same
// sources, when at least one exercise in them is started (the untouched
// template is the same for everyone).
func shared(c *Class) [][]string {
	by := map[string][]string{}
	var hashes []string
	for _, st := range c.Students {
		started := slices.ContainsFunc(st.Exercises, func(e Exercise) bool { return e.Status != check.NotStarted })
		if !started {
			continue
		}
		if by[st.SHA256] == nil {
			hashes = append(hashes, st.SHA256)
		}
		by[st.SHA256] = append(by[st.SHA256], st.Name)
	}
	var out [][]string
	for _, h := range hashes {
		if len(by[h]) > 1 {
			out = append(out, by[h])
		}
	}
	return out
}

// Hide replaces the students' names with their numbers in the class's
// order ("#7"), for a projector: the counts stay, the names go. The
// files refused keep theirs: those lines are for the teacher, who has to
// find the file.
func (s *Summary) Hide(c *Class) {
	num := map[string]string{}
	for i, st := range c.Students {
		num[st.Name] = fmt.Sprintf("#%d", i+1)
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		for j, n := range r.Students {
			r.Students[j] = num[n]
		}
		if r.Example != nil {
			r.Example.Student = num[r.Example.Student]
		}
	}
	for i := range s.Versions {
		s.Versions[i].Student = num[s.Versions[i].Student]
	}
	for _, g := range s.Shared {
		for j, n := range g {
			g[j] = num[n]
		}
	}
}
