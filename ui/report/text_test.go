package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"archlab/check"
	"archlab/i18n"
	"archlab/ui/term"
)

// TestWideSkippedIsSaid: a handler done by the small scope alone (a
// durable inbox, whose table the wide scope's states cannot key) is told
// so under its line, in both languages, and --json carries it; a pass
// through both scopes says nothing of it.
func TestWideSkippedIsSaid(t *testing.T) {
	e, err := check.Lookup("consumer-handler")
	if err != nil {
		t.Fatal(err)
	}
	for _, skipped := range []bool{true, false} {
		res := &check.Result{Exercise: e, Status: check.Done, Drills: 13, Schedules: 6726, WideSkipped: skipped}
		for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
			var out bytes.Buffer
			r := &Report{Renderer: &term.Renderer{Out: &out, Err: &out, Lang: lang, Width: 80, P: term.NewPalette(false)}}
			if err := r.Text([]*check.Result{res}, 1); err != nil {
				t.Fatal(err)
			}
			want := strings.TrimSpace(i18n.T(lang, "check.detail.wide-skipped"))
			said := strings.Contains(strings.Join(strings.Fields(out.String()), ""), strings.Join(strings.Fields(want), ""))
			if said != skipped {
				t.Errorf("%s, wide scope skipped %t: the report says so %t:\n%s", lang, skipped, said, out.String())
			}
		}
		b, err := json.Marshal((&Report{Renderer: &term.Renderer{Lang: i18n.EN}}).JSON([]*check.Result{res}, 1))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `"wide_skipped":true`); got != skipped {
			t.Errorf("wide scope skipped %t: --json says so %t: %s", skipped, got, b)
		}
	}
}
