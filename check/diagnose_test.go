package check

import (
	"context"
	"slices"
	"testing"

	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// TestDiagnosisNamesTheMistake: every wrong variant's shortest run parts
// from the book's at a step where the two answers differ, and the §8.2
// variants are each named as the mistake they are.
func TestDiagnosisNamesTheMistake(t *testing.T) {
	named := map[string]string{
		"naive":              "no-key",
		"mark-before-effect": "mark-before-effect",
		"ack-before-effect":  "ack-first",
		"effect-before-mark": "two-transactions",
		"no-ack":             "no-ack",
		"no-epoch-fence":     "no-fence",
		"retry-poison":       "poison-retried",
		// The mechanism tier, named from the model's difference.
		"ledger-no-key":            "no-key",
		"ledger-counts-duplicates": "counts-duplicates",
		"ledger-event-id-key":      "key-without-producer",
		"ledger-prune-all":         "prune-too-much",
		"ledger-prune-exclusive":   "prune-too-little",
		"resume-from-zero":         "resume-from-zero",
		"stale-epoch-accepted":     "stale-epoch-accepted",
		"offset-back-accepted":     "stale-offset-accepted",
		"equal-offset-refused":     "equal-offset-refused",
		"gap-applied":              "gap-applied",
		"version-moves-back":       "version-back",
		"poison-retried":           "poison-retried",
		"conflict-past-budget":     "past-budget",
		"conflict-straight-to-dlq": "dead-before-budget",
		"durable-no-recovery":      "no-recovery",
		"durable-ack-before-store": "ack-first",
		"notify-only-when-new":     "notify-only-when-new",
	}
	for _, v := range wrong {
		t.Run(v.exercise+"/"+v.name, func(t *testing.T) {
			e, err := Lookup(v.exercise)
			if err != nil {
				t.Fatal(err)
			}
			if !inRaceSample(v) {
				t.Skip("under -race, one wrong variant of each protocol exercise (inRaceSample)")
			}
			r := checkedVariant(v)
			if want, ok := named[v.name]; ok && r.Mistake != want {
				t.Errorf("mistake %q, want %q", r.Mistake, want)
			}
			if e.Tier == TierMechanism {
				return // the model's calls say where it parts: TestEveryClauseBrokenIsCaught
			}
			d := r.Diagnosis
			if d == nil {
				t.Fatalf("no diagnosis (status %s)", r.Status)
			}
			if d.Step < 1 || slices.EqualFunc(d.Book, d.Yours, sameStep) {
				t.Errorf("step %d: the book's answer %+v and yours %+v do not differ", d.Step, d.Book, d.Yours)
			}
			if d.Mistake != "" {
				for _, lang := range i18n.Langs {
					if !i18n.Has(lang, "check.mistake."+d.Mistake) {
						t.Errorf("%s: no text for mistake %q", lang, d.Mistake)
					}
				}
			}
		})
	}
}

// TestBookHasNoDiagnosis: the book's own run never parts from itself, and
// no known mistake matches it.
func TestBookHasNoDiagnosis(t *testing.T) {
	for _, e := range Exercises {
		r := checkedBook(e)
		if r.Diagnosis != nil {
			t.Errorf("%s: diagnosed %+v", e.Name, r.Diagnosis)
		}
	}
	steps := func(keys ...string) []harness.Step {
		var out []harness.Step
		for _, k := range keys {
			actor := "consumer"
			if k == "step.deliver" {
				actor = "broker"
			}
			out = append(out, harness.Step{Actor: actor, Action: harness.M(k)})
		}
		return out
	}
	book := steps("step.deliver", "step.apply-once", "step.ack", "step.deliver", "step.apply-once", "step.ack")
	for _, m := range handlerMistakes {
		if m.In(book) {
			t.Errorf("the book's handler matches mistake %s", m.Key)
		}
	}
}

// TestPassCountsEveryFault: a pass names how many schedules each fault
// class of its scope struck, every one above zero; a pass where a class
// never struck is not a pass.
func TestPassCountsEveryFault(t *testing.T) {
	for _, e := range Exercises {
		r := checkedBook(e)
		if r.Status != Done {
			t.Fatalf("%s: %s", e.Name, r.Status)
		}
		if len(r.Faults) == 0 || r.Walked == 0 {
			t.Fatalf("%s: no fault counts", e.Name)
		}
		for _, f := range r.Faults {
			if f.N == 0 || f.N > r.Walked {
				t.Errorf("%s: fault %s struck %d of %d schedules", e.Name, f.Name, f.N, r.Walked)
			}
		}
	}
}

// TestUnfiredFaultIsNotAPass: a scope in which some fault class never
// struck cannot pass, however clean its schedules.
func TestUnfiredFaultIsNotAPass(t *testing.T) {
	e := &Exercise{Name: "lucky", Section: "8.2", plugged: func(*harness.Students) bool { return true },
		explore: func(context.Context, *harness.Students) (*explore.Report, error) {
			return &explore.Report{Strategies: []explore.Strategy{{Schedules: 5,
				Faults: []explore.Count{{Name: "crash-before", N: 5}, {Name: "replay", N: 0}}}}}, nil
		}}
	r := Run(ctx, e, Book())
	if r.Status != NotDone || len(r.Lessons) != 1 || r.Lessons[0].Check != "unfired" {
		t.Fatalf("status %s, lessons %+v", r.Status, r.Lessons)
	}
	if got := LessonText(i18n.EN, r.Lessons[0]); got != "no schedule struck with the fault replay: the scope never tested it" {
		t.Errorf("lesson %q", got)
	}
}
