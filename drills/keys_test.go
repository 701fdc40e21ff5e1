package drills

import (
	"testing"

	"archlab/harness"
	"archlab/i18n"
)

// TestEveryKillPointHasWords: a drill file may kill a real consumer at any
// harness point (crash-before, crash-mid, crash-after, ack-lost), so each
// point's SIGKILL step has its words in both languages, not only the ones
// the built-in drills reach.
func TestEveryKillPointHasWords(t *testing.T) {
	for _, p := range []harness.Point{harness.BeforeWrites, harness.BetweenWrites, harness.BeforeAck} {
		for _, lang := range i18n.Langs {
			if key := "step.kill." + string(p); !i18n.Has(lang, key) {
				t.Errorf("%s: no %q", lang, key)
			}
		}
	}
}
