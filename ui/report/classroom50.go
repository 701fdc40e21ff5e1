package report

import (
	"archlab/check"
)

// Classroom 50 (foundation50/classroom50), the open-source successor of
// GitHub Classroom, grades each submission in GitHub Actions with an
// autograder that writes ./result.json, as its wiki documents it
// (Advanced Autograding, "The result.json contract"): the schema
// classroom50/result/v1, the submission's identity as its runner gives
// it in the environment, the score and one entry per test. --format
// classroom50 writes that file; its tests are exercism's, one point each,
// as Gradescope's are.

// Classroom50Schema is the only schema the contract allows.
const Classroom50Schema = "classroom50/result/v1"

// Submission is the submission being graded, as Classroom 50's runner
// describes it in the autograder's environment (CLASSROOM, ASSIGNMENT,
// SUBMISSION_TAG, COMMIT_URL, RELEASE_URL, REVIEW_URL), and when it was
// submitted: the graded commit's committer date, in UTC, which a regrade
// does not move.
type Submission struct {
	Classroom, Assignment, Tag, Commit, Release, Review string
	Datetime                                            string
}

// Classroom50 is a result.json. The runner stamps owner and
// assignment_type itself; graded_at is optional and left out, so the
// same code graded twice writes the same bytes.
type Classroom50 struct {
	Schema     string            `json:"schema"`
	Classroom  string            `json:"classroom"`
	Assignment string            `json:"assignment"`
	Submission string            `json:"submission"`
	Commit     string            `json:"commit"`
	Release    string            `json:"release"`
	Review     string            `json:"review"`
	Datetime   string            `json:"datetime"`
	Score      int               `json:"score"`
	MaxScore   int               `json:"max-score"`
	Tests      []Classroom50Test `json:"tests"`
}

// Classroom50Test is one test of a result.json. Message is a diagnostic
// field of archlab's own, which the contract keeps verbatim: why a test
// failed.
type Classroom50Test struct {
	Name     string `json:"test-name"`
	Passed   bool   `json:"passed"`
	Score    int    `json:"score"`
	MaxScore int    `json:"max-score"`
	Message  string `json:"message,omitempty"`
}

// Classroom50 is the results as Classroom 50's result.json for sub.
func (r *Report) Classroom50(results []*check.Result, sub Submission) (Classroom50, error) {
	tests, err := r.tests(results)
	if err != nil {
		return Classroom50{}, err
	}
	review := sub.Review
	if review == "" {
		review = sub.Commit // as the contract's own templates do
	}
	c := Classroom50{Schema: Classroom50Schema, Classroom: sub.Classroom, Assignment: sub.Assignment, Submission: sub.Tag,
		Commit: sub.Commit, Release: sub.Release, Review: review, Datetime: sub.Datetime, Tests: []Classroom50Test{}}
	for _, t := range tests {
		ct := Classroom50Test{Name: t.Name, MaxScore: 1, Message: t.Message}
		if t.Status == ExPass {
			ct.Passed, ct.Score = true, 1
		}
		c.Score += ct.Score
		c.MaxScore += ct.MaxScore
		c.Tests = append(c.Tests, ct)
	}
	return c, nil
}
