package main

import (
	"context"
	"strings"
	"testing"

	"archlab/explore"
	"archlab/ui/view"
)

// TestScopeFlagsRoundTrip: the scope the page and the terminal print as
// flags (view.ScopeFlags) is one a reader can type back: explore takes it
// and reports the same scope and count. The page printed "--poison 0",
// which explore refuses with exit 2 (issue 34, point 4); the terminal's
// rerun line "--notify 1" (issue 43, point 11).
func TestScopeFlagsRoundTrip(t *testing.T) {
	ctx := context.Background()
	reports := map[string]func() (*explore.Report, error){
		"inbox": func() (*explore.Report, error) { return explore.Inbox(ctx, explore.DefaultInbox, explore.Options{}) },
		"ordering": func() (*explore.Report, error) {
			return explore.Ordering(ctx, explore.DefaultOrdering, explore.Options{})
		},
		"ordering-poison": func() (*explore.Report, error) {
			sc := explore.DefaultOrdering
			sc.Poison = true
			return explore.Ordering(ctx, sc, explore.Options{})
		},
		"inbox-notify": func() (*explore.Report, error) {
			sc := explore.DefaultInbox
			sc.Notify = true
			return explore.Inbox(ctx, sc, explore.Options{})
		},
		"shardjob": func() (*explore.Report, error) {
			return explore.Shardjob(ctx, explore.DefaultShardjob, explore.Options{})
		},
	}
	for name, report := range reports {
		rep, err := report()
		if err != nil {
			t.Fatal(err)
		}
		flags := view.ScopeFlags(rep.Scope)
		if strings.Contains(flags, "--poison 0") || strings.Contains(flags, "--poison 1") || strings.Contains(flags, "--notify 1") {
			t.Errorf("%s: %q: --poison and --notify are switches", name, flags)
		}
		out, errOut, code := runCLI(t, nil, append([]string{"explore", rep.Mechanism, "--json"}, strings.Fields(flags)...)...)
		if code != 0 {
			t.Fatalf("%s: explore %s %s: exit %d: %s", name, rep.Mechanism, flags, code, errOut)
		}
		if want := `"schedules": ` + view.GroupDigits(rep.Schedules); !strings.Contains(out, strings.ReplaceAll(want, ",", "")) {
			t.Errorf("%s: typed back, the scope is another: want %s in\n%.300s", name, want, out)
		}
	}
}
