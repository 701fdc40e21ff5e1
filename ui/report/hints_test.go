package report

import (
	"testing"

	"archlab/check"
)

// TestHintForInProgress: --hint without a name is for the exercise the
// student is working on: the first started and not done, before any not
// started; none when every one is done.
func TestHintForInProgress(t *testing.T) {
	ex := func(name string) *check.Exercise {
		e, err := check.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	results := []*check.Result{
		{Exercise: ex("consumer-handler"), Status: check.NotStarted},
		{Exercise: ex("ledger"), Status: check.NotDone},
		{Exercise: ex("projection-decision"), Status: check.Done},
	}
	if got := HintFor(results); got.Exercise.Name != "ledger" {
		t.Errorf("hint for %s, want ledger (in progress)", got.Exercise.Name)
	}
	results[1].Status = check.Done
	if got := HintFor(results); got.Exercise.Name != "consumer-handler" {
		t.Errorf("hint for %s, want consumer-handler (nothing in progress: the first not started)", got.Exercise.Name)
	}
	results[0].Status = check.Done
	if got := HintFor(results); got != nil {
		t.Errorf("hint for %s, want none", got.Exercise.Name)
	}
	for _, s := range []check.Status{check.Failed, check.Hung} {
		results[2].Status = s
		if got := HintFor(results); got == nil || got.Exercise.Name != "projection-decision" {
			t.Errorf("%s: hint for %v, want projection-decision", s, got)
		}
	}
}
