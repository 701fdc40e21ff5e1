package check

import (
	"strings"
	"testing"

	"archlab/i18n"
)

// TestHintsGraduated: every exercise has at least three hints in every
// language, all different, and none names the verb that is the answer
// (a hint teaches the reasoning; the code stays the student's).
func TestHintsGraduated(t *testing.T) {
	answer := map[string][]string{
		"consumer-handler":    {"ApplyOnce"},
		"ledger":              {"DedupKey", "sync.Mutex", "map["},
		"projection-decision": {"OutcomeRetry", "OutcomeDead", "OutcomeDuplicate", "OutcomeApplied"},
		"projection":          {"OutcomeRetry", "OutcomeDead", "OutcomeDuplicate", "Version+1", "attempt <"},
		"shard-loop":          {"Fence"},
		"runner":              {"i+1-start", "epoch <", "offset <", "r.CP.Load"},
	}
	for _, e := range Exercises {
		for _, lang := range i18n.Langs {
			hints := e.Hints(lang)
			if len(hints) < 3 {
				t.Errorf("%s, %s: %d hints, want at least 3", e.Name, lang, len(hints))
			}
			if len(hints) != len(e.Hints(i18n.EN)) {
				t.Errorf("%s: %d hints in %s, %d in en", e.Name, len(hints), lang, len(e.Hints(i18n.EN)))
			}
			seen := map[string]bool{}
			for i, h := range hints {
				if seen[h] {
					t.Errorf("%s, %s: hint %d repeats an earlier one", e.Name, lang, i+1)
				}
				seen[h] = true
				for _, verb := range answer[e.Name] {
					if strings.Contains(h, verb) {
						t.Errorf("%s, %s: hint %d names %s, the answer", e.Name, lang, i+1, verb)
					}
				}
			}
		}
		if _, ok := answer[e.Name]; !ok {
			t.Errorf("%s: no answer verbs listed for this test", e.Name)
		}
	}
}
