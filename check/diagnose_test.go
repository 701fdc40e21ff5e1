package check

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
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

// TestMistakesNameNoKeys: the checker decides on a step's call and
// outcome (harness.Op, harness.Outcome), never on the catalogue keys that
// word it, so renaming a text never changes a verdict. No code of check
// (its tests aside) reads a step's Action.Key or Result.Key, or holds a
// step's or a result's key. Comparing two recorded steps' words with each
// other (sameMsg, sameEffect) names no key, and stays.
func TestMistakesNameNoKeys(t *testing.T) {
	stepKey := regexp.MustCompile(`^([a-z]+\.)?(step|res)\.`) // step.mark, res.err, durable.step.store, student.res.…
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && stepKey.MatchString(v) {
					t.Errorf("%s: the catalogue key %q: decide on a step's Op or Outcome", fset.Position(n.Pos()), v)
				}
			case *ast.SelectorExpr:
				if msg, ok := n.X.(*ast.SelectorExpr); ok && n.Sel.Name == "Key" && (msg.Sel.Name == "Action" || msg.Sel.Name == "Result") {
					t.Errorf("%s: a step's %s.Key: decide on its Op or Outcome", fset.Position(n.Pos()), msg.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
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
		r := &harness.Recorder{} // as the harness records them: with their calls
		for _, k := range keys {
			actor := "consumer"
			if k == "step.deliver" {
				actor = "broker"
			}
			r.Step(actor, "", harness.M(k), harness.M(""), harness.Neutral)
		}
		return r.Steps
	}
	book := steps("step.deliver", "step.apply-once", "step.ack", "step.deliver", "step.apply-once", "step.ack")
	for _, m := range handlerMistakes {
		if m.In(book) {
			t.Errorf("the book's handler matches mistake %s", m.Key)
		}
	}
}

// TestPassCountsEveryFault: a pass names how many schedules each fault
// class of its scope struck, every one above zero but for a class met
// only at a call the code may never make (the lease's claim, which the
// book never makes); a pass where a class never struck is not a pass.
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
			if f.N == 0 && !harness.NeedsCall(f.Name) || f.N > r.Walked {
				t.Errorf("%s: fault %s struck %d of %d schedules", e.Name, f.Name, f.N, r.Walked)
			}
		}
	}
}

// TestUnfiredFaultIsNotAPass: a scope in which some fault class never
// struck cannot pass, however clean its schedules.
func TestUnfiredFaultIsNotAPass(t *testing.T) {
	e := &Exercise{Name: "lucky", Section: &harness.InboxSection, plugged: func(*harness.Students) bool { return true },
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
