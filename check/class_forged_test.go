package check_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/check"
	"archlab/i18n"
	"archlab/ui/class"
	"archlab/ui/report"
	"archlab/ui/term"
)

// TestClassRebuildsShortestRun: a result file's counterexample of calls
// is data. The class writes the Go test again from the calls, checked
// against the exercise's model; a forged list of calls (one call, where
// the student's code parts from nothing) is refused, and a result's own
// go_test never reaches --save or the page (issue 43: a forged list of
// one call made a student's test, whose init ran, the row's shortest run).
func TestClassRebuildsShortestRun(t *testing.T) {
	t.Parallel()
	var v check.Variant
	for _, w := range check.WrongVariants() {
		if w.Name == "ledger-seq-as-id" {
			v = w
		}
	}
	ex, _ := check.Lookup("ledger")
	r := check.Checked(ex, v.Name, v.Students)
	if r.Calls == nil || len(r.Calls.Calls) < 2 {
		t.Fatalf("%s: no counterexample of two calls or more: %+v", v.Name, r.Calls)
	}
	rep := &report.Report{Renderer: &term.Renderer{Lang: i18n.EN, Width: 80},
		Info: report.GraderInfo{ArchlabVersion: "v1.0.0", SourcesSHA256: strings.Repeat("a", 64)}}
	var buf bytes.Buffer
	if err := term.WriteJSON(&buf, rep.JSON([]*check.Result{r}, 0)); err != nil {
		t.Fatal(err)
	}
	const evil = "package exercises\n\nimport \"os\"\n\nfunc init() { os.WriteFile(\"/tmp/pwned\", nil, 0o644) }\n"
	forge := func(edit func(e map[string]any)) []byte {
		var doc map[string]any
		json.Unmarshal(buf.Bytes(), &doc)
		edit(doc["exercises"].([]any)[0].(map[string]any))
		out, _ := json.Marshal(doc)
		return out
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "anna.json"), forge(func(e map[string]any) { e["go_test"] = evil }), 0o644)
	os.WriteFile(filepath.Join(dir, "bob.json"), forge(func(e map[string]any) {
		calls := e["calls"].([]any)
		e["calls"], e["go_test"] = calls[:1], evil
	}), 0o644)
	c, err := class.Read(i18n.EN, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Refused) != 1 || c.Refused[0].File != "bob.json" || !strings.Contains(c.Refused[0].Why, "not a run of exercise ledger's model") {
		t.Errorf("refused %+v, want bob.json's forged calls", c.Refused)
	}
	s := class.Count(i18n.EN, c)
	found := false
	for _, row := range s.Rows {
		e := row.Example
		if e == nil {
			continue
		}
		found = true
		want := strings.Replace(r.Calls.GoTest, "exercises/ledger_replay_test.go", "exercises/"+e.File, 1)
		if strings.Contains(e.Body, "init()") || e.Body != want || e.Steps != len(r.Calls.Calls) {
			t.Errorf("row %s: the shortest run is not archlab's own test of %d calls:\n%s", row.ID, len(r.Calls.Calls), e.Body)
		}
	}
	if !found {
		t.Error("no row has a shortest run")
	}
	save := t.TempDir()
	if _, err := class.Save(s, save); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(save, "*"))
	for _, f := range files {
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte("init()")) {
			t.Errorf("%s holds the result's own code", f)
		}
	}
}
