package check

import (
	"errors"
	"strings"
	"testing"
)

// TestRebuildRun: a counterexample a result file carries is taken only
// when its calls are a run of the exercise's model, and the Go test is
// archlab's own, the same as check wrote (issue 43: a forged list of one
// call made a student's own test the class's shortest run).
func TestRebuildRun(t *testing.T) {
	t.Parallel()
	for _, v := range clauseVariants {
		if v.clause == atomicClause {
			continue // a race, not a run of calls
		}
		t.Run(v.name, func(t *testing.T) {
			ex, _ := Lookup(v.exercise)
			res, err := ex.model.check(v.students)
			if err != nil || res.Run == nil {
				t.Fatalf("no counterexample: %v", err)
			}
			calls := make([]ResultCall, len(res.Run.Calls))
			for i, c := range res.Run.Calls {
				calls[i] = ResultCall{Text: c.Text, Book: c.Book, Yours: c.Yours}
			}
			test, n, err := RebuildRun(v.exercise, calls)
			if err != nil || n != len(calls) || test != res.Run.GoTest {
				t.Fatalf("rebuilt %d calls, err %v, same test %t; want check's own", n, err, test == res.Run.GoTest)
			}
			forged := map[string][]ResultCall{
				"the first call alone": calls[:1],
				"no call parts":        append(calls[:len(calls)-1:len(calls)-1], ResultCall{calls[len(calls)-1].Text, calls[len(calls)-1].Book, calls[len(calls)-1].Book}),
				"a call of its own":    append([]ResultCall{{Text: `x"); init() { os.WriteFile("p", nil, 0) }; //`}}, calls...),
				"another book":         append(calls[:len(calls)-1:len(calls)-1], ResultCall{calls[len(calls)-1].Text, calls[len(calls)-1].Yours, calls[len(calls)-1].Yours}),
			}
			if len(calls) == 1 {
				delete(forged, "the first call alone")
			}
			for name, f := range forged {
				if _, _, err := RebuildRun(v.exercise, f); !errors.Is(err, ErrNotARun) {
					t.Errorf("%s: err %v, want ErrNotARun", name, err)
				}
			}
		})
	}
}

// TestEveryLessonIDIsKnown: every lesson a check of a known-wrong variant
// reports is one KnownLessonID takes, so a class refuses only IDs no
// archlab wrote (a unit's, a counter's, an unfired fault class's too).
func TestEveryLessonIDIsKnown(t *testing.T) {
	t.Parallel()
	kinds := map[string]bool{}
	for _, v := range wrong {
		if !inRaceSample(v) {
			continue
		}
		e, _ := Lookup(v.exercise)
		for _, l := range checked(e, v.name, v.students).Lessons {
			kind, _, _ := strings.Cut(l.ID(), "/")
			kinds[kind] = true
			if !KnownLessonID(e.Name, l.ID()) {
				t.Errorf("%s: %s's lesson %q is not known", e.Name, v.name, l.ID())
			}
		}
	}
	t.Logf("lesson kinds seen: %v", kinds)
}
