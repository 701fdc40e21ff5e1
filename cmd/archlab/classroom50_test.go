package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// classroom50Env is what Classroom 50's runner sets for its autograder
// (its wiki, Advanced Autograding, "Contract"), REVIEW_URL left unset.
var classroom50Env = map[string]string{
	"CLASSROOM":      "dcl-2026",
	"ASSIGNMENT":     "archlab",
	"SUBMISSION_TAG": "submit/2026-12-01T14-32-05Z-a1b2c3d",
	"COMMIT_URL":     "https://github.com/dcl/archlab-ada/commit/a1b2c3d",
	"RELEASE_URL":    "https://github.com/dcl/archlab-ada/releases/tag/submit%2F2026-12-01T14-32-05Z-a1b2c3d",
}

// runEnv is runWith with the environment env, the checks run anew.
func runEnv(env map[string]string, args ...string) (stdout, stderr string, code int) {
	var out, errb strings.Builder
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }, Students: ackBeforeEffect}
	code = run(io, args)
	return out.String(), errb.String(), code
}

// TestClassroom50Result: --format classroom50 writes DIR/result.json as
// Classroom 50's result.json contract documents it (read back here into
// the contract's own fields, nothing else allowed): the schema
// classroom50/result/v1, the submission's identity from the runner's
// environment (review falling back to the commit, as the contract's
// templates do), the graded commit's date in UTC, a test per exercism
// test named the same, one point each, and the score their sum. Outside
// the runner, a variable unset is exit 3 naming it, and nothing is
// written. (Issue 42.)
func TestClassroom50Result(t *testing.T) {
	t.Parallel()
	exDir := t.TempDir()
	runEnv(nil, "check", "consumer-handler", "--format", "exercism", "--output-dir", exDir)
	r, _, _ := readResults(t, exDir, "consumer-handler")
	var names []string
	for _, tc := range r.Tests {
		names = append(names, "consumer-handler: "+tc.Name)
	}

	dir := t.TempDir()
	partial := map[string]string{"CLASSROOM": "dcl-2026", "ASSIGNMENT": "archlab"}
	out, errOut, code := runEnv(partial, "check", "consumer-handler", "--format", "classroom50", "--output-dir", dir)
	if code != exitCouldNotRun || out != "" || !strings.Contains(errOut, "not set here: SUBMISSION_TAG, COMMIT_URL, RELEASE_URL") {
		t.Errorf("outside the runner: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("outside the runner, %d files written", len(entries))
	}

	out, errOut, code = runEnv(classroom50Env, "check", "consumer-handler", "--format", "classroom50", "--output-dir", dir)
	if code != exitMismatch || out != filepath.Join(dir, "result.json")+": fail\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	type test struct {
		Name     string `json:"test-name"`
		Passed   *bool  `json:"passed"`
		Score    *int   `json:"score"`
		MaxScore *int   `json:"max-score"`
		Message  string `json:"message"` // a diagnostic field, kept verbatim by the contract
	}
	var doc struct {
		Schema     string `json:"schema"`
		Classroom  string `json:"classroom"`
		Assignment string `json:"assignment"`
		Submission string `json:"submission"`
		Commit     string `json:"commit"`
		Release    string `json:"release"`
		Review     string `json:"review"`
		Datetime   string `json:"datetime"`
		Score      *int   `json:"score"`
		MaxScore   *int   `json:"max-score"`
		Tests      []test `json:"tests"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("result.json has a field the contract does not document: %v\n%s", err, b)
	}
	e := classroom50Env
	if doc.Schema != "classroom50/result/v1" || doc.Classroom != e["CLASSROOM"] || doc.Assignment != e["ASSIGNMENT"] ||
		doc.Submission != e["SUBMISSION_TAG"] || doc.Commit != e["COMMIT_URL"] || doc.Release != e["RELEASE_URL"] || doc.Review != e["COMMIT_URL"] {
		t.Errorf("identity %+v, want the runner's %v", doc, e)
	}
	git, err := exec.Command("git", "log", "-1", "--format=%ct").Output()
	if err != nil {
		t.Fatalf("git log: %v", err)
	}
	secs, _ := strconv.ParseInt(strings.TrimSpace(string(git)), 10, 64)
	if want := time.Unix(secs, 0).UTC().Format(time.RFC3339); doc.Datetime != want {
		t.Errorf("datetime %q, want the commit's date %q", doc.Datetime, want)
	}
	score, max := 0, 0
	var got []string
	for _, tc := range doc.Tests {
		if tc.Passed == nil || tc.Score == nil || tc.MaxScore == nil || *tc.MaxScore != 1 || *tc.Passed != (*tc.Score == 1) || (*tc.Passed) != (tc.Message == "") {
			t.Errorf("test %+v", tc)
			continue
		}
		score += *tc.Score
		max += *tc.MaxScore
		got = append(got, tc.Name)
	}
	if doc.Score == nil || doc.MaxScore == nil || *doc.Score != score || *doc.MaxScore != max || score == 0 || score == max {
		t.Errorf("score %v of %v, the tests say %d of %d: want some passed and some failed", doc.Score, doc.MaxScore, score, max)
	}
	if strings.Join(got, "\n") != strings.Join(names, "\n") {
		t.Errorf("tests named\n%v\nexercism names them\n%v", got, names)
	}
}
