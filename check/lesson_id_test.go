package check

import (
	"testing"

	"archlab/i18n"
)

// TestLessonTextByID: every lesson the book's verdicts and the known-wrong
// variants break is named back from its ID alone, in both languages, with
// the text the result itself gave (a unit's and a counter's excepted:
// their texts carry values); an ID no archlab has is not given a text.
func TestLessonTextByID(t *testing.T) {
	if raceOn {
		t.Skip("words, checked in the plain run; every mechanism variant's whole check takes minutes under the race detector")
	}
	seen := 0
	for _, v := range WrongVariants() {
		e, err := Lookup(v.Exercise)
		if err != nil {
			t.Fatal(err)
		}
		if e.Tier != TierMechanism { // the model's lessons: fast, and every kind but a drill's
			continue
		}
		for _, l := range checked(e, v.Name, v.Students).Lessons {
			for _, lang := range i18n.Langs {
				text, ok := LessonTextByID(lang, e.Name, l.ID())
				if want := LessonText(lang, l); l.Unit == "" && l.Counter == "" && (!ok || text != want) {
					t.Errorf("%s %s: %q, %v; want %q", lang, l.ID(), text, ok, want)
				}
			}
			seen++
		}
	}
	for _, id := range []string{"drill/ack-lost/effects-once", "explore/not-lost", "unfired/crash-mid"} {
		if text, ok := LessonTextByID(i18n.ZH, "consumer-handler", id); !ok || text == "" {
			t.Errorf("%s: %q, %v", id, text, ok)
		}
	}
	for _, id := range []string{"drill/no-such-drill/x", "drill/ack-lost/no-such-check", "clause/no-such-clause", "explore/nothing", "unit/TestX", "counter/ack-lost/effects", "weird"} {
		if text, ok := LessonTextByID(i18n.EN, "ledger", id); ok {
			t.Errorf("%s: named %q", id, text)
		}
	}
	if seen == 0 {
		t.Fatal("no lesson seen")
	}
}
