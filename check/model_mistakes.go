package check

import "slices"

// The mechanism exercises' known mistakes, as the model sees them: each
// is the clause a difference breaks and the harm it does there. A mistake
// is named only when both match, so its words always describe what the
// shortest run shows.
type modelMistake struct {
	key     string
	clauses []string // nil: any clause
	harms   []string
}

// unwrapped is every mechanism's mistake of an error that wraps none of
// the book's sentinels, which errors.Is then cannot find.
var unwrapped = modelMistake{"error-not-wrapped", nil, []string{harmUnwrapped}}

// mistake is the known mistake a difference shows, "" for none.
func (m *machine) mistake(clause, harm string) string {
	for _, mm := range m.mistakes {
		if (mm.clauses == nil || slices.Contains(mm.clauses, clause)) && slices.Contains(mm.harms, harm) {
			return mm.key
		}
	}
	return ""
}

var (
	ledgerModelMistakes = []modelMistake{
		{"no-key", []string{"duplicate"}, []string{harmDouble}},
		{"counts-duplicates", []string{"duplicate"}, []string{harmTooMany}},
		{"key-without-producer", []string{"key-producer"}, []string{harmLost}},
		{"key-concatenation", []string{"key-separator"}, []string{harmLost}},
		{"window-by-arrival", []string{"prune-out-of-order"}, []string{harmTooFew, harmTooMany, harmLost, harmDouble}},
		{"prune-too-much", []string{"prune-keeps-newer", "prune-shared-seq"}, []string{harmTooMany, harmDouble}},
		{"prune-too-little", []string{"prune-at-max", "prune-shared-seq"}, []string{harmTooFew, harmLost}},
		{"prune-too-little", []string{"pruned-applies-again"}, []string{harmTooFew, harmLost, harmTooMany}},
		{"old-seq-refused", []string{"below-window"}, []string{harmLost}},
		{"prune-undoes-effects", []string{"prune-keeps-effects"}, []string{harmTooFew, harmLost}},
		{"check-then-write", []string{atomicClause}, []string{harmAtomicity}},
	}
	projectionModelMistakes = []modelMistake{
		{"gap-applied", []string{"gap"}, []string{harmAccepted, string(outcomeApplied)}},
		{"version-back", []string{"older"}, []string{harmDouble, string(outcomeApplied)}},
		{"duplicate-as-conflict", []string{"duplicate", "older"}, []string{harmRefused, string(outcomeRetry), string(outcomeDead)}},
		{"poison-as-conflict", []string{"poison-type", "poison-version"}, []string{harmWrongErr, harmAccepted}},
		{"poison-retried", []string{"handle-dead-poison"}, []string{string(outcomeRetry)}},
		{"past-budget", []string{"handle-dead-budget"}, []string{string(outcomeRetry)}},
		{"dead-before-budget", []string{"handle-retry"}, []string{string(outcomeDead)}},
		{"no-default-budget", []string{"default-budget"}, []string{harmTooFew, harmTooMany}},
		{"duplicates-counted", []string{"applied-count"}, []string{harmTooMany}},
		{"repair-forgotten", []string{"after-repair"}, []string{harmAccepted, harmDouble, harmLost, harmRefused, string(outcomeApplied), string(outcomeRetry), string(outcomeDead)}},
		{"dlq-lost", []string{"dlq", "dlq-order"}, []string{harmTooFew}},
		{"projection-unlocked", []string{atomicClause}, []string{harmAtomicity}},
		unwrapped,
	}
	runnerModelMistakes = []modelMistake{
		{"commit-ahead", nil, []string{harmCommitAhead}},
		{"cadence-from-zero", []string{"run-every-from-resume"}, []string{harmCommitEarly, harmCommitLate}},
		{"resume-from-zero", []string{"run-from-checkpoint", "run-every-from-resume", "run-done"}, []string{harmTooMany, harmOtherItems}},
		{"runs-on-after-refusal", []string{"run-refused"}, []string{harmTooMany, harmOtherItems}},
		{"stale-epoch-accepted", []string{"stale-epoch", "stale-epoch-ahead", "run-refused"}, []string{harmAccepted}},
		{"stale-offset-accepted", []string{"stale-offset"}, []string{harmAccepted}},
		{"equal-offset-refused", []string{"commit-equal", "run-done", "run-end"}, []string{harmRefused}},
		{"new-owner-refused", []string{"higher-epoch", "higher-epoch-lower-offset"}, []string{harmRefused}},
		{"epoch-not-kept", []string{"epoch-stored"}, []string{harmTooFew}},
		{"fence-then-write", []string{atomicClause}, []string{harmAtomicity}},
		unwrapped,
	}
)
