package explore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// TestEmitReplays: every strategy's shortest counterexample in the default
// scopes, emitted as a drill file, parses, and replayed by package drills
// reaches the same violation: exactly the checks of the invariants the
// explorer found broken fail, every other check passes, and the counters
// equal the file's expected ones. The file's opening
// comment is in the language asked for; its texts are in both.
func TestEmitReplays(t *testing.T) {
	ctx := context.Background()
	reports := []func() (*explore.Report, error){
		func() (*explore.Report, error) { return explore.Inbox(ctx, explore.DefaultInbox, explore.Options{}) },
		func() (*explore.Report, error) {
			return explore.Ordering(ctx, explore.DefaultOrdering, explore.Options{})
		},
		func() (*explore.Report, error) {
			return explore.Shardjob(ctx, explore.DefaultShardjob, explore.Options{})
		},
	}
	emitted := 0
	for _, run := range reports {
		rep, err := run()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Strategies {
			ce := s.Shortest
			if ce == nil {
				continue
			}
			emitted++
			t.Run(ce.Name(), func(t *testing.T) {
				// The counterexample's own trace (--show, the web page).
				steps, err := ce.Trace()
				if err != nil {
					t.Fatal(err)
				}
				if err := harness.CheckPhases(steps); err != nil {
					t.Errorf("--show: %v", err)
				}
				for _, lang := range i18n.Langs {
					text, err := ce.Emit(lang)
					if err != nil {
						t.Fatal(err)
					}
					if !strings.HasPrefix(text, "# ") || !strings.Contains(text, "-- en --\n") || !strings.Contains(text, "-- zh --\n") {
						t.Fatalf("%s: not a commented drill file with both languages:\n%s", lang, text)
					}
					d, err := drills.Parse(ce.Name()+".txtar", []byte(text))
					if err != nil {
						t.Fatalf("%s: parse: %v\n%s", lang, err, text)
					}
					res, err := d.Run(nil)
					if err != nil {
						t.Fatalf("%s: run: %v\n%s", lang, err, text)
					}
					if res.Err != nil {
						t.Fatalf("%s: the replay failed: %v\n%s", lang, res.Err, text)
					}
					if err := harness.CheckPhases(res.Steps); err != nil {
						t.Errorf("%s: the replayed file's trace: %v", lang, err)
					}
					// The expected counters are the explorer's run: the
					// replay gives the same values.
					for _, c := range res.Counters {
						if c.Match == nil || !*c.Match {
							t.Errorf("%s: counter %s = %s, the file expects %v", lang, c.Name, c.Value, c.Book)
						}
					}
					names, broken, err := ce.Checks()
					if err != nil {
						t.Fatal(err)
					}
					// Every check holds: a broken invariant's is a
					// "shows" check, which the replay demonstrates.
					var want, got []string
					for i, name := range names {
						want = append(want, checkLine("check."+ce.Name()+"."+name, true, broken[i]))
					}
					for _, c := range res.Checks {
						got = append(got, checkLine(c.Key, c.OK, c.Shows))
					}
					if !res.Pass {
						t.Errorf("%s: the replay of a counterexample does not pass", lang)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %s breaks %v; the replayed checks\n got %v\nwant %v\n%s", lang, ce.Schedule, ce.Broken, got, want, text)
					}
				}
			})
		}
	}
	// naive, mark-before-effect, early-prune, retry-only, fence-at-first-commit.
	if emitted != 5 {
		t.Fatalf("emitted %d counterexamples, want one per unsafe strategy (5)", emitted)
	}
}

func checkLine(key string, ok, shows bool) string {
	if shows {
		key = "shows " + key
	}
	if ok {
		return key + " ok"
	}
	return key + " FAIL"
}

// TestKeysTranslated: every catalogue key an explorer run shows (the
// counterexample's outcome, each step its trace records, the actors, the
// emitted file's title and checks) has its text in every language, so
// --lang zh shows no English prose.
func TestKeysTranslated(t *testing.T) {
	ctx := context.Background()
	scopes := []func() (*explore.Report, error){
		func() (*explore.Report, error) {
			return explore.Inbox(ctx, explore.InboxScope{Messages: 3, Faults: 3}, explore.Options{})
		},
		func() (*explore.Report, error) {
			return explore.Ordering(ctx, explore.OrderingScope{Duplicates: 2, Poison: true, MaxAttempts: 3}, explore.Options{})
		},
		func() (*explore.Report, error) {
			return explore.Shardjob(ctx, explore.DefaultShardjob, explore.Options{})
		},
	}
	for _, run := range scopes {
		rep, err := run()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Strategies {
			ce := s.Shortest
			if ce == nil {
				continue
			}
			keys := []string{"explore.line", "explore.line.sep", "explore.emit.comment", "explore.emit.title"}
			for _, m := range ce.Outcome {
				keys = append(keys, m.Key)
			}
			steps, err := ce.Trace()
			if err != nil {
				t.Fatal(err)
			}
			// The renderer names shard-N by "actor.shard".
			actor := func(role string) string {
				if strings.HasPrefix(role, "shard-") {
					return "actor.shard"
				}
				return "actor." + role
			}
			for _, st := range steps {
				keys = append(keys, st.Action.Key, st.Result.Key, actor(st.Actor), actor(st.Target))
			}
			names, _, err := ce.Checks()
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				keys = append(keys, "explore.emit.check."+name)
			}
			for _, lang := range i18n.Langs {
				for _, k := range keys {
					if !i18n.Has(lang, k) {
						t.Errorf("%s: %s %s: no %q", rep.Mechanism, s.Name, lang, k)
					}
				}
			}
		}
	}
}
