package drills

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"archlab/harness"
)

// The lab's durable inbox, a design unlike the book's, passes every §8.2
// drill it can run: each is judged by the harm it does beside the book's
// design, and where the book's design applies a pruned replay again
// (prune-window, prune-keeps-newer, prune-out-of-order) the durable inbox
// is safer, not wrong (issue 45). A handler with no dedup key (the book's
// NaiveApply, as a student's code) does a harm the book's design does not
// in ack-lost, and fails.
func TestDurableInboxJudgedByHarm(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("files/8.2/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatal(err, files)
	}
	strategy := regexp.MustCompile(`(?m)^strategy .*\n`)
	harnessLine := regexp.MustCompile(`(?m)^harness inbox\n`)
	safer := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = strategy.ReplaceAll(data, nil)
		data = harnessLine.ReplaceAll(data, []byte("harness inbox\nstrategy durable-inbox\n"))
		d, err := Parse(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		res, err := d.Run(d.Defaults())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !res.ByHarm || !res.Pass || len(res.Extra) > 0 {
			t.Errorf("%s under durable-inbox: by harm %t, pass %t, harms the book's design does not do %v", d.Name, res.ByHarm, res.Pass, res.Extra)
		}
		if len(res.Safer) > 0 {
			safer++
		}
	}
	if safer == 0 {
		t.Error("the durable inbox is safer than the book's design in no drill; prune-window's replay should be one")
	}

	naive := &harness.Students{Inbox: func(d *harness.Delivery) error {
		if err := d.NaiveApply(); err != nil {
			return err
		}
		return d.Ack()
	}}
	d, err := Lookup("ack-lost")
	if err != nil {
		t.Fatal(err)
	}
	res, err := ForExercise(d, "").RunIn(d.Defaults(), harness.Env{Student: naive})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || len(res.Extra) == 0 || res.Extra[0] != "not-doubled" {
		t.Errorf("no dedup key, as a student's code: pass %t, harms %v; want a double apply the book's design does not do", res.Pass, res.Extra)
	}
}
