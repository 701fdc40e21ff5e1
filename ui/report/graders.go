package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"

	"archlab/check"
	"archlab/ui/status"
	"archlab/ui/term"
)

// The graders a class already uses read archlab's results in their own
// formats: Gradescope's autograder results.json (--format gradescope) and
// JUnit XML (--format junit), which GitLab, Jenkins and GitHub's test
// reporters read. Their tests are exercism's, named the same, in the same
// order (exercism.go): for a mechanism exercise one per clause of its doc
// comment, then the book's unit cases, one per drill, and the explorer's
// scope. Each file says which archlab judged which sources: its version
// and the SHA-256 of the exercises it was built with (check.Fingerprint),
// so a class can tell results made from other code apart.

// Gradescope is an autograder's results.json, as Gradescope documents it
// (autograder specifications, "Output format"): the score, and one entry
// per test. Every test is worth one point.
type Gradescope struct {
	Score      float64          `json:"score"`
	MaxScore   float64          `json:"max_score"`
	Output     string           `json:"output"`
	Visibility string           `json:"visibility"`
	Tests      []GradescopeTest `json:"tests"`
	// ExtraData is free for the autograder's own use: which archlab
	// judged which sources, and each exercise's verdict in the words
	// archlab class counts by.
	ExtraData GradescopeExtra `json:"extra_data"`
}

// GradescopeExtra is a results.json's extra_data.
type GradescopeExtra struct {
	GraderInfo
	Exercises []Summary `json:"exercises"`
}

// Summary is one exercise's verdict in the words archlab class counts
// by: its status, the IDs of the lessons it broke (check.Lesson.ID) and
// the known mistake named, if any.
type Summary struct {
	Name      string   `json:"name"`
	Status    string   `json:"status"`
	LessonIDs []string `json:"lesson_ids"`
	Mistake   string   `json:"mistake,omitempty"`
}

// summary is res's Summary.
func summary(res *check.Result) Summary {
	s := Summary{Name: res.Exercise.Name, Status: string(res.Status), LessonIDs: []string{}, Mistake: res.Mistake}
	for _, l := range res.Lessons {
		s.LessonIDs = append(s.LessonIDs, l.ID())
	}
	return s
}

// GradescopeTest is one test of a results.json.
type GradescopeTest struct {
	Name       string  `json:"name"`
	Number     string  `json:"number"`
	Status     string  `json:"status"` // passed or failed
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Output     string  `json:"output,omitempty"`
	Visibility string  `json:"visibility"`
}

// GraderInfo is which archlab judged which exercises.
type GraderInfo struct {
	ArchlabVersion string `json:"archlab_version"`
	SourcesSHA256  string `json:"sources_sha256"`
}

// tests are every result's tests in exercism's form, each named with its
// exercise: "ledger: clause new-key".
func (r *Report) tests(results []*check.Result) ([]ExercismTest, error) {
	var out []ExercismTest
	for _, res := range results {
		ex, err := r.exercism(res)
		if err != nil {
			return nil, err
		}
		for _, t := range ex.Tests {
			t.Name = res.Exercise.Name + ": " + t.Name
			if ex.Status == ExError && t.Message == "" {
				t.Message = ex.Message
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// Gradescope is the results as Gradescope's results.json.
func (r *Report) Gradescope(results []*check.Result, done int) (Gradescope, error) {
	tests, err := r.tests(results)
	if err != nil {
		return Gradescope{}, err
	}
	g := Gradescope{Visibility: "visible", Tests: []GradescopeTest{}, ExtraData: GradescopeExtra{GraderInfo: r.Info, Exercises: []Summary{}},
		Output: r.t("check.progress", done, len(results))}
	for _, res := range results {
		g.ExtraData.Exercises = append(g.ExtraData.Exercises, summary(res))
	}
	for i, t := range tests {
		gt := GradescopeTest{Name: t.Name, Number: fmt.Sprint(i + 1), Status: "failed", MaxScore: 1, Output: t.Message, Visibility: "visible"}
		if t.Status == ExPass {
			gt.Status, gt.Score = "passed", 1
		}
		g.Score += gt.Score
		g.MaxScore += gt.MaxScore
		g.Tests = append(g.Tests, gt)
	}
	return g, nil
}

// JUnitSuites is a JUnit XML report: one suite per exercise.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one exercise.
type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Properties []JUnitProperty `xml:"properties>property"`
	Cases      []JUnitCase     `xml:"testcase"`
}

// JUnitProperty is one name=value of a suite.
type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitCase is one test: passed (no child), failed, or in error.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *JUnitMessage `xml:"failure,omitempty"`
	Error     *JUnitMessage `xml:"error,omitempty"`
}

// JUnitMessage is a failure's or an error's message: its first line as
// the attribute, all of it as the text.
type JUnitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// JUnit is the results as JUnit XML.
func (r *Report) JUnit(results []*check.Result) (JUnitSuites, error) {
	out := JUnitSuites{Name: "archlab check"}
	for _, res := range results {
		ex, err := r.exercism(res)
		if err != nil {
			return out, err
		}
		sum := summary(res)
		s := JUnitSuite{Name: res.Exercise.Name, Properties: []JUnitProperty{
			{"section", res.Exercise.Section.ID}, {"status", sum.Status},
			{"lessons", strings.Join(sum.LessonIDs, " ")}, {"mistake", sum.Mistake},
			{"archlab_version", r.Info.ArchlabVersion}, {"sources_sha256", r.Info.SourcesSHA256}}}
		for _, t := range ex.Tests {
			c := JUnitCase{Name: t.Name, ClassName: "archlab." + res.Exercise.Name}
			msg := t.Message
			if msg == "" {
				msg = ex.Message
			}
			first, _, _ := bytes.Cut([]byte(msg), []byte("\n"))
			switch t.Status {
			case ExFail:
				c.Failure = &JUnitMessage{Message: string(first), Text: msg}
				s.Failures++
			case ExError:
				c.Error = &JUnitMessage{Message: string(first), Text: msg}
				s.Errors++
			}
			s.Cases = append(s.Cases, c)
			s.Tests++
		}
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	return out, nil
}

// Grader writes the results in format (gradescope: DIR/results.json;
// junit: DIR/junit.xml; classroom50: DIR/result.json), whole or not at all, and names the file on
// stdout. A file that cannot be written is exit 3.
func (r *Report) Grader(format string, results []*check.Result, done int, dir string) error {
	var b bytes.Buffer
	var name string
	switch format {
	case "gradescope":
		g, err := r.Gradescope(results, done)
		if err != nil {
			return err
		}
		if err := term.WriteJSON(&b, g); err != nil {
			return err
		}
		name = "results.json"
	case "classroom50":
		c, err := r.Classroom50(results, r.Submission)
		if err != nil {
			return err
		}
		if err := term.WriteJSON(&b, c); err != nil {
			return err
		}
		name = "result.json"
	case "junit":
		j, err := r.JUnit(results)
		if err != nil {
			return err
		}
		b.WriteString(xml.Header)
		enc := xml.NewEncoder(&b)
		enc.Indent("", "  ")
		if err := enc.Encode(j); err != nil {
			return err
		}
		b.WriteString("\n")
		name = "junit.xml"
	default:
		return fmt.Errorf("no grader format %q", format)
	}
	path := filepath.Join(dir, name)
	var made term.Made
	if err := made.Dir(dir); err != nil {
		return &status.CouldNotRun{Msg: r.t("check.exercism.err.write", path, term.OSReason(r.Lang, err))}
	}
	if err := writeWhole(path, b.Bytes(), 0o644); err != nil {
		made.Undo() // the folders this run made, and nothing else
		return &status.CouldNotRun{Msg: r.t("check.exercism.err.write", path, term.OSReason(r.Lang, err))}
	}
	state := ExPass
	if done < len(results) {
		state = ExFail
	}
	_, err := fmt.Fprintln(r.Out, r.t("check.exercism.wrote", path, state))
	return err
}
