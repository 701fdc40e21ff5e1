package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/joshdk/go-junit"

	"archlab/check"
)

// exercismNames are every exercise's tests as --format exercism names
// them, "EXERCISE: TEST", in its order: the names every grader format
// must use too.
func exercismNames(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, e := range check.Exercises {
		r, _, _ := readResults(t, dir, e.Name)
		for _, tc := range r.Tests {
			out = append(out, e.Name+": "+tc.Name)
		}
	}
	return out
}

// TestGradescopeResults: --format gradescope writes DIR/results.json read
// back against the fields Gradescope documents for an autograder's output
// (score, max_score, tests with name, score, max_score, status passed or
// failed, output, visibility visible|hidden|after_due_date|after_published),
// and nothing it does not know but extra_data; a test per exercism test,
// named the same; the score the passed tests. (Issue 35.)
func TestGradescopeResults(t *testing.T) {
	exDir := t.TempDir()
	runWith(t, ackBeforeEffect, "check", "--format", "exercism", "--output-dir", exDir)
	names := exercismNames(t, exDir)
	dir := t.TempDir()
	out, _, code := runWith(t, ackBeforeEffect, "check", "--format", "gradescope", "--output-dir", dir)
	if code != exitMismatch || out != filepath.Join(dir, "results.json")+": fail\n" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Gradescope's documented fields, written here apart from archlab's
	// own types.
	type test struct {
		Score      *float64 `json:"score"`
		MaxScore   *float64 `json:"max_score"`
		Status     string   `json:"status"`
		Name       string   `json:"name"`
		Number     string   `json:"number"`
		Output     string   `json:"output"`
		Visibility string   `json:"visibility"`
	}
	var doc struct {
		Score      *float64        `json:"score"`
		MaxScore   float64         `json:"max_score"`
		Output     string          `json:"output"`
		Visibility string          `json:"visibility"`
		Tests      []test          `json:"tests"`
		ExtraData  json.RawMessage `json:"extra_data"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("results.json has a field Gradescope does not document: %v\n%s", err, b)
	}
	visible := []string{"visible", "hidden", "after_due_date", "after_published"}
	var score, max float64
	var got []string
	for _, tc := range doc.Tests {
		if tc.Score == nil || tc.MaxScore == nil || *tc.Score > *tc.MaxScore || !slices.Contains([]string{"passed", "failed"}, tc.Status) ||
			!slices.Contains(visible, tc.Visibility) || (tc.Status == "passed") != (*tc.Score == *tc.MaxScore) {
			t.Errorf("test %+v", tc)
			continue
		}
		score += *tc.Score
		max += *tc.MaxScore
		got = append(got, tc.Name)
	}
	if doc.Score == nil || *doc.Score != score || doc.MaxScore != max || !slices.Contains(visible, doc.Visibility) {
		t.Errorf("score %v of %v, the tests say %v of %v; visibility %q", doc.Score, doc.MaxScore, score, max, doc.Visibility)
	}
	if score == 0 || score == max {
		t.Errorf("score %v of %v: want some tests passed and some failed (one exercise wrong)", score, max)
	}
	if !slices.Equal(got, names) {
		t.Errorf("tests named\n%v\nexercism names them\n%v", got, names)
	}
	var info struct {
		Version   string `json:"archlab_version"`
		SHA256    string `json:"sources_sha256"`
		Exercises []struct {
			Name, Status string
		} `json:"exercises"`
	}
	if err := json.Unmarshal(doc.ExtraData, &info); err != nil || info.Version == "" || len(info.SHA256) != 64 || len(info.Exercises) == 0 {
		t.Errorf("extra_data %s: want the archlab version, the sources' SHA-256 and each exercise's verdict", doc.ExtraData)
	}
}

// TestJUnitResults: --format junit writes DIR/junit.xml that a JUnit reader
// (encoding/xml into the schema's own elements, written here) parses: one
// testsuite per exercise, its counts the cases', a case per exercism test
// named the same, a failure or an error on each test that did not pass,
// and the version and sources as properties. (Issue 35.)
func TestJUnitResults(t *testing.T) {
	exDir := t.TempDir()
	runWith(t, ackBeforeEffect, "check", "--format", "exercism", "--output-dir", exDir)
	names := exercismNames(t, exDir)
	dir := t.TempDir()
	if _, _, code := runWith(t, ackBeforeEffect, "check", "--format", "junit", "--output-dir", dir); code != exitMismatch {
		t.Fatalf("exit %d", code)
	}
	b, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	type failure struct {
		Message string `xml:"message,attr"`
		Body    string `xml:",chardata"`
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Tests   int      `xml:"tests,attr"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   int    `xml:"errors,attr"`
			Props    []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Name    string   `xml:"name,attr"`
				Failure *failure `xml:"failure"`
				Error   *failure `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, b)
	}
	var got []string
	total := 0
	for _, s := range doc.Suites {
		f, e := 0, 0
		for _, c := range s.Cases {
			got = append(got, s.Name+": "+c.Name)
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e {
			t.Errorf("suite %s: tests %d failures %d errors %d, its cases say %d %d %d", s.Name, s.Tests, s.Failures, s.Errors, len(s.Cases), f, e)
		}
		props := map[string]string{}
		for _, p := range s.Props {
			props[p.Name] = p.Value
		}
		if props["archlab_version"] == "" || len(props["sources_sha256"]) != 64 {
			t.Errorf("suite %s: properties %v", s.Name, props)
		}
		total += len(s.Cases)
	}
	if doc.Tests != total || !slices.Equal(got, names) {
		t.Errorf("%d tests (%d cases), named\n%v\nexercism names them\n%v", doc.Tests, total, got, names)
	}
	// A reader of JUnit written by others (joshdk/go-junit, what several
	// CI report tools build on) reads the same tests and statuses.
	suites, err := junit.Ingest(b)
	if err != nil {
		t.Fatalf("go-junit: %v", err)
	}
	var theirs []string
	for i, s := range suites {
		if i >= len(doc.Suites) || s.Name != doc.Suites[i].Name || s.Properties["status"] == "" {
			t.Errorf("go-junit reads suite %d as %q, properties %v", i, s.Name, s.Properties)
			continue
		}
		if tot := s.Totals; tot.Tests != doc.Suites[i].Tests || tot.Failed != doc.Suites[i].Failures || tot.Error != doc.Suites[i].Errors {
			t.Errorf("go-junit counts suite %s as %+v", s.Name, tot)
		}
		for _, c := range s.Tests {
			theirs = append(theirs, s.Name+": "+c.Name)
		}
	}
	if !slices.Equal(theirs, names) {
		t.Errorf("go-junit reads the tests as\n%v\nwant\n%v", theirs, names)
	}
}
