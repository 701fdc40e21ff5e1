package drills

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"archlab/harness"
	"archlab/i18n"
)

// TestBookDrillsMatchTheBook runs every drill with the book's parameters:
// each counter must equal the book's and every lesson must hold.
func TestBookDrillsMatchTheBook(t *testing.T) {
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			res, err := d.Run(d.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			if !res.Compared || res.Err != nil {
				t.Fatalf("compared=%v err=%v", res.Compared, res.Err)
			}
			if len(res.Counters) != len(d.Book) {
				t.Fatalf("%d counters, the book prints %d", len(res.Counters), len(d.Book))
			}
			for i, c := range res.Counters {
				if c.Name != d.Book[i].Name || c.Value != d.Book[i].Value {
					t.Errorf("counter %d: got %s=%s, book %s=%s", i, c.Name, c.Value, d.Book[i].Name, d.Book[i].Value)
				}
			}
			for _, c := range res.Checks {
				if !c.OK {
					t.Errorf("lesson does not hold: %s", c.Key)
				}
			}
			if !res.Pass {
				t.Fatal("drill did not pass")
			}
		})
	}
}

// TestLessonsHoldForAnyParameters is the drills' central claim: a lesson is
// not a property of the book's numbers. rapid draws parameters inside each
// flag's range and every check must still hold.
func TestLessonsHoldForAnyParameters(t *testing.T) {
	for _, d := range All() {
		if len(d.Params) == 0 {
			// One point in its range: the book's run, checked in full.
			t.Run(d.Name, func(t *testing.T) {
				res, err := d.Run(d.Defaults())
				if err != nil {
					t.Fatal(err)
				}
				if res.Err != nil {
					t.Fatal(res.Err)
				}
				for _, c := range res.Checks {
					if !c.OK {
						t.Fatalf("lesson does not hold: %s", c.Key)
					}
				}
			})
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				v := Values{}
				for _, p := range d.Params {
					hi := p.Max
					if hi == 0 || hi > 300 {
						hi = max(p.Min, 300) // keep runs small; the bounds are tested elsewhere
					}
					v[p.Name] = rapid.IntRange(p.Min, hi).Draw(t, p.Name)
				}
				res, err := d.Run(v)
				if err != nil {
					t.Skip("parameters outside a dependent bound:", err) // e.g. crash-after past shard 0
				}
				if res.Err != nil {
					t.Fatalf("%v: %v", v, res.Err)
				}
				for _, c := range res.Checks {
					if !c.OK {
						t.Fatalf("%v: lesson does not hold: %s", v, c.Key)
					}
				}
			})
		})
	}
}

// TestTraceAgreesWithCounters: every drill records at least three steps, in
// phase order, and the steps tell the same story as the counters.
func TestTraceAgreesWithCounters(t *testing.T) {
	count := func(res *Result, key string) int {
		n := 0
		for _, s := range res.Steps {
			if s.Action.Key == key {
				n++
			}
		}
		return n
	}
	counter := func(res *Result, name string) string {
		for _, c := range res.Counters {
			if c.Name == name {
				return c.Value
			}
		}
		t.Fatalf("%s has no counter %s", res.Drill.Name, name)
		return ""
	}
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			res, err := d.Run(d.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Steps) < 3 {
				t.Fatalf("only %d steps", len(res.Steps))
			}
			if err := harness.CheckPhases(res.Steps); err != nil {
				t.Fatal(err)
			}
			// Drill-specific agreement between the timeline and the counters.
			switch d.Name {
			case "ack-lost", "naive-redelivery":
				if got := fmt.Sprint(count(res, "step.deliver")); got != counter(res, "deliveries") {
					t.Fatalf("%s deliveries in the trace, counter says %s", got, counter(res, "deliveries"))
				}
			case "out-of-order", "retry-budget":
				if got := fmt.Sprint(count(res, "step.deliver")); got != counter(res, "attempts") {
					t.Fatalf("%s deliveries in the trace, counter says %s", got, counter(res, "attempts"))
				}
			case "poison":
				if got := fmt.Sprint(count(res, "step.dead-letter")); got != counter(res, "dead") {
					t.Fatalf("%s dead letters in the trace, counter says %s", got, counter(res, "dead"))
				}
			case "reconcile":
				if got := fmt.Sprint(count(res, "step.repair")); got != counter(res, "fixes") {
					t.Fatalf("%s repairs in the trace, counter says %s", got, counter(res, "fixes"))
				}
			case "partition-affinity":
				if got := fmt.Sprint(count(res, "step.route")); got != counter(res, "orders") {
					t.Fatalf("%s routes in the trace, counter says %s", got, counter(res, "orders"))
				}
			case "stale-epoch":
				rejected := 0
				for _, s := range res.Steps {
					if s.Actor == "worker-e1" && s.Result.Key == "res.err" {
						rejected++
					}
				}
				if fmt.Sprint(rejected) != counter(res, "rejected") {
					t.Fatalf("%d rejections in the trace, counter says %s", rejected, counter(res, "rejected"))
				}
			case "crash-resume":
				if count(res, "step.crash") != 1 || count(res, "step.resume") != 1 {
					t.Fatal("the trace must show one crash and one resume")
				}
			}
		})
	}
}

// TestEveryRecordedKeyIsTranslated runs every drill and looks up each key it
// recorded in both catalogues, so no step can show a raw key.
func TestEveryRecordedKeyIsTranslated(t *testing.T) {
	for _, d := range All() {
		res, err := d.Run(d.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		keys := []string{d.TitleKey(), "explain." + d.Name}
		for _, p := range d.Params {
			keys = append(keys, p.UsageKey(d.Name))
		}
		for _, s := range res.Steps {
			keys = append(keys, s.Action.Key, s.Result.Key, s.Phase.Key())
			for _, role := range []string{s.Actor, s.Target} {
				if !strings.HasPrefix(role, "shard-") {
					keys = append(keys, "actor."+role)
				}
			}
		}
		for _, c := range res.Checks {
			keys = append(keys, c.Key)
		}
		for _, k := range keys {
			for _, lang := range i18n.Langs {
				// The drill's own words are its file's, in this very
				// language (not the English fallback).
				has := i18n.Has(lang, k)
				if own, _, ok := d.ownKey(k); ok {
					_, has = d.file.texts[lang][own]
				}
				if !has {
					t.Errorf("%s: key %q missing in %s", d.Name, k, lang)
				}
			}
		}
	}
	for _, s := range harness.Sections {
		for _, lang := range i18n.Langs {
			if !i18n.Has(lang, s.TitleKey()) {
				t.Errorf("section %s: title missing in %s", s.ID, lang)
			}
		}
	}
}

// TestWrongBookFails: a drill whose counters disagree with its expected
// values must fail, so drill --all can catch a drifting mechanism.
func TestWrongBookFails(t *testing.T) {
	ackLost, err := Lookup("ack-lost")
	if err != nil {
		t.Fatal(err)
	}
	d := *ackLost // a copy: the registry entry is untouched
	d.Book = []Counter{{Name: "deliveries", Value: "2"}, {Name: "effects", Value: "2"}, {Name: "balance", Value: "2599"}, {Name: "acks", Value: "2"}}
	res, err := d.Run(d.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass {
		t.Fatal("a run with effects=1 against a book of effects=2 passed")
	}
	if m := res.Counters[1]; m.Match == nil || *m.Match {
		t.Fatalf("effects should be marked as a mismatch: %+v", m)
	}

	missing := *ackLost
	missing.Book = append([]Counter(nil), ackLost.Book...)
	missing.Book = append(missing.Book, Counter{Name: "extra", Value: "1"})
	if res, _ := missing.Run(missing.Defaults()); res.Pass {
		t.Fatal("a counter the book prints but the run lacks must fail the drill")
	}
}

func TestParamBounds(t *testing.T) {
	tests := []struct {
		drill string
		flag  string
		value int
	}{
		{"crash-resume", "shards", 0},
		{"crash-resume", "keys", 0},
		{"crash-resume", "commit-every", 0},
		{"crash-resume", "crash-after", -1},
		{"crash-resume", "crash-after", 251},
		{"partition-affinity", "orders", 0},
		{"partition-affinity", "partitions", 0},
		{"retry-budget", "max-attempts", -1},
		{"stale-epoch", "lease-expires-after", 101},
		{"zombie-window", "lease-expires-after", 101},
		{"rerun-commit", "behind", 100},
		{"reconcile-gaps", "max-attempts", 0},
		{"exactly-once-boundary", "deliveries", 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s --%s %d", tt.drill, tt.flag, tt.value), func(t *testing.T) {
			d, err := Lookup(tt.drill)
			if err != nil {
				t.Fatal(err)
			}
			v := d.Defaults()
			v[tt.flag] = tt.value
			_, err = d.Run(v)
			pe, ok := err.(*ParamError)
			if !ok || pe.Flag != tt.flag || pe.Value != tt.value {
				t.Fatalf("err = %v, want a ParamError for --%s", err, tt.flag)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("ack-lots"); err == nil {
		t.Fatal("unknown drill found")
	}
	if _, err := InSection("9.9"); err == nil {
		t.Fatal("unknown section found")
	}
	got := 0
	for _, s := range harness.Sections {
		list, err := InSection(s.ID)
		if err != nil {
			t.Fatal(err)
		}
		got += len(list)
	}
	if got != len(All()) {
		t.Fatalf("sections hold %d drills, registry %d", got, len(All()))
	}
}

// TestBookOrder: the drills come in the book's order, each section's
// files by their number as a number (1, 2, … 9, 10, 11), not as text,
// which put 10-effect-fails second (issue 42).
func TestBookOrder(t *testing.T) {
	last := map[*harness.Section]int{}
	for _, f := range index() {
		n := fileNumber(path.Base(f.path))
		if n <= last[f.section] {
			t.Errorf("%s comes after number %d of §%s", f.path, last[f.section], f.section.ID)
		}
		last[f.section] = n
	}
	if got := Names(); len(got) < 10 || got[1] != "naive-redelivery" || got[9] != "effect-fails" {
		t.Errorf("the drills in the order %v, want ack-lost, naive-redelivery, … effect-fails tenth", got)
	}
}
