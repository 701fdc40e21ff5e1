package view_test

import (
	"strings"
	"testing"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/view"
)

// TestAckLost: the rows, the table and the diagram of the book's ack-lost
// run, in both languages, come from the same recording.
func TestAckLost(t *testing.T) {
	d, err := drills.Lookup("ack-lost")
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Run(d.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Langs {
		t.Run(string(lang), func(t *testing.T) {
			rows := view.Rows(lang, res.Steps)
			if len(rows) != len(res.Steps) || rows[0].N != 1 || !rows[0].PhaseStart {
				t.Fatalf("rows = %+v", rows)
			}
			for _, r := range rows {
				if strings.Contains(r.Action+r.Result+r.From+r.To+r.Phase, "[") {
					t.Errorf("untranslated text in row %+v", r)
				}
			}
			tab := view.Counters(lang, res)
			if !tab.Compared || len(tab.Header) != 3 || tab.Rows[0].Name != "deliveries" || tab.Rows[0].Expected != "2" {
				t.Errorf("table = %+v", tab)
			}
			if v := view.VerdictOf(lang, res); !v.Pass || v.Word != "PASS" {
				t.Errorf("verdict = %+v", v)
			}
			dg := view.DiagramOf(rows)
			msgs := 0
			for _, it := range dg.Items {
				if it.Note == "" {
					msgs++
					if it.Label != rows[it.Step-1].Label() {
						t.Errorf("item %d label %q, row says %q", it.Step, it.Label, rows[it.Step-1].Label())
					}
				}
			}
			if msgs != len(rows) || len(dg.Participants) < 2 {
				t.Errorf("diagram has %d messages and %d participants", msgs, len(dg.Participants))
			}
		})
	}
}

// TestSingular: a count of one reads in the singular, in the trace and
// the diagram: crash-resume with --crash-after 1 "crashes after 1 item".
func TestSingular(t *testing.T) {
	d, err := drills.Lookup("crash-resume")
	if err != nil {
		t.Fatal(err)
	}
	v := d.Defaults()
	v["crash-after"] = 1
	res, err := d.Run(v)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, r := range view.Rows(i18n.EN, res.Steps) {
		actions = append(actions, r.Action)
	}
	all := strings.Join(actions, "\n")
	if !strings.Contains(all, "crashes after 1 item") || strings.Contains(all, "1 items") {
		t.Fatalf("no singular in:\n%s", all)
	}
}

// TestActorAnyEpoch: a worker of any lease epoch has a name in both
// languages, never the raw key (issue 37: epoch 5 read [actor.worker-e5]).
func TestActorAnyEpoch(t *testing.T) {
	for _, c := range []struct {
		lang i18n.Lang
		role string
		want string
	}{
		{i18n.EN, "worker-e1", "worker e1"},
		{i18n.EN, "worker-e5", "worker e5"},
		{i18n.ZH, "worker-e12", "工作进程 e12"},
	} {
		if got := view.Actor(c.lang, c.role); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.lang, c.role, got, c.want)
		}
	}
}
