package check

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"archlab/harness"
	"archlab/internal/inbox"
)

// Sound designs unlike the book's (issue 45): each does no harm, so each
// is done, whatever the book's counters and descriptive checks say; where
// it differs from the book's design, the report says so beside the book's
// values, and where the book's design does a harm it does not, that it is
// safer.
func TestSoundDesignsAreDone(t *testing.T) {
	if raceOn {
		t.Skip("three whole checks: tens of seconds each under the race detector, which watches the same code in TestModelBookPasses and the scripts")
	}
	t.Parallel()
	// kafka-go's documented loop: commit after every message.
	everyItem := func(w *harness.Worker) error {
		start, err := w.Fence()
		if err != nil {
			return err
		}
		items := w.Items()
		for i := start; i < len(items); i++ {
			if _, err := w.Apply(items[i]); err != nil {
				return err
			}
			if err := w.Commit(w.Epoch(), i+1); err != nil {
				return err
			}
		}
		return nil
	}
	// A durable inbox that returns a lost ack's error at once and leaves
	// its rows to the recovery, which processes every stored row.
	lab := harness.LabStudents(harness.DurableInbox)
	ackErrorFirst := func(d *harness.Delivery) error {
		if _, err := d.Store(); err != nil {
			return err
		}
		if err := d.Ack(); err != nil {
			return err
		}
		return processPending(d)
	}
	for _, c := range []struct {
		name, exercise string
		s              *harness.Students
		differs        string // a difference the report must show, "" for none
		safer          string // a harm the book's design does and the code does not
	}{
		{"commits-every-item", "shard-loop", &harness.Students{Shardjob: everyItem}, "checkpoint", ""},
		{"lab-durable-inbox", "consumer-handler", lab, "prune-window", "prune-window: "},
		{"durable-ack-error-first", "consumer-handler", &harness.Students{Inbox: ackErrorFirst, Recover: lab.Recover}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Lookup(c.exercise)
			if err != nil {
				t.Fatal(err)
			}
			r := checked(e, c.name, c.s)
			if r.Status != Done {
				t.Fatalf("status %s (%v), lessons %v: a sound design is accused", r.Status, r.Err, r.Lessons)
			}
			var diffs, safer []string
			for _, l := range r.Differences {
				diffs = append(diffs, DifferenceText("en", l))
			}
			for _, l := range r.Safer {
				safer = append(safer, DifferenceText("en", l))
			}
			if c.differs != "" && !slices.ContainsFunc(diffs, func(s string) bool { return strings.Contains(s, c.differs) }) {
				t.Errorf("differences %q: none names %s", diffs, c.differs)
			}
			if c.safer != "" && !slices.ContainsFunc(safer, func(s string) bool { return strings.HasPrefix(s, c.safer) }) {
				t.Errorf("safer %q: none in %s", safer, c.safer)
			}
		})
	}
}

// A key claimed with a lease (issue 45): the lab's lease design claims,
// applies and completes as separate writes, and the lease running out
// while its holder is slow applies the payment twice, which check names
// as the harm it is; a lease design whose effect and key are one
// transaction, the lease guarding only the call outside the store, is
// done.
func TestLeaseThatExpires(t *testing.T) {
	e := handlerChecks(t)
	oneTransaction := func(d *harness.Delivery) error {
		claimed, err := d.Claim()
		if err != nil {
			return err
		}
		if claimed {
			if err := d.Notify(d.Message()); err != nil {
				return err
			}
			if _, err := d.ApplyOnce(); err != nil {
				return err
			}
			if err := d.Complete(); err != nil {
				return err
			}
		}
		return d.Ack()
	}
	if r := checked(e, "lab-lease", harness.LabStudents(harness.Lease)); r.Status != NotDone || r.Lessons[0].Check != "not-doubled" {
		t.Errorf("the lab's lease design: status %s, lessons %v; want not done, not-doubled first", r.Status, r.Lessons)
	}
	r := checked(e, "lease-one-transaction", &harness.Students{Inbox: oneTransaction})
	if r.Status != Done {
		t.Fatalf("a lease over one transaction: status %s (%v), lessons %v", r.Status, r.Err, r.Lessons)
	}
	for _, f := range r.Faults {
		if f.Name == "lease-expires" && f.N == 0 {
			t.Errorf("the lease never ran out in the scope: %v", r.Faults)
		}
	}
}

// Code that keeps state outside its store (issue 45): a handler that
// remembers in a package-level map which messages it notified, and one
// that deduplicates in memory instead of in the store. A real consumer's
// restart loses the map; in check's one process it outlives every crash
// the harness models, so the second handler's duplicates never applied
// twice and the first one's counterexample did not replay. Both are not
// done, with the lesson that names the state kept.
func TestStateKeptIsNamed(t *testing.T) {
	e := handlerChecks(t)
	for name, handler := range map[string]func(*harness.Delivery) error{
		"notified-in-memory": notifiedInMemory,
		"dedup-in-memory":    dedupInMemory,
	} {
		r := checked(e, name, &harness.Students{Inbox: handler})
		if r.Status != NotDone || len(r.Lessons) != 1 || r.Lessons[0].Check != "state-kept" {
			t.Errorf("%s: status %s, lessons %v; want not done, state-kept alone", name, r.Status, r.Lessons)
		}
	}
}

var (
	notified = map[inbox.Message]bool{}
	seen     = map[inbox.Message]bool{}
	memoryMu sync.Mutex
)

// notifiedInMemory is the book's handler, calling the outside service for
// a message it has not notified yet, by its own memory.
func notifiedInMemory(d *harness.Delivery) error {
	if _, err := d.ApplyOnce(); err != nil {
		return err
	}
	memoryMu.Lock()
	call := !notified[d.Message()]
	notified[d.Message()] = true
	memoryMu.Unlock()
	if call {
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
	}
	return d.Ack()
}

// dedupInMemory keeps the messages it applied in memory, not in the store.
func dedupInMemory(d *harness.Delivery) error {
	memoryMu.Lock()
	dup := seen[d.Message()]
	seen[d.Message()] = true
	memoryMu.Unlock()
	if !dup {
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		if err := d.NaiveApply(); err != nil {
			return err
		}
	}
	return d.Ack()
}

// handlerChecks is the consumer-handler exercise for a test of whole
// checks of it, which runs beside the others; under the race detector
// such a check takes tens of seconds, and the test is skipped.
func handlerChecks(t *testing.T) *Exercise {
	t.Helper()
	if raceOn {
		t.Skip("whole checks: tens of seconds each under the race detector, which watches the same code in TestModelBookPasses")
	}
	t.Parallel()
	e, err := Lookup("consumer-handler")
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDifferencesOnlyWithoutHarm: the report calls a drill's differing
// checks and counters a difference of design "with no harm seen", so a
// drill that did a harm lists none (issue 42, the walk again: "ack-lost:
// effects 2 where the book's design gives 1, with no harm seen" under
// "no message is applied twice").
func TestDifferencesOnlyWithoutHarm(t *testing.T) {
	t.Parallel()
	seen := 0
	for _, v := range wrong {
		if !inRaceSample(v) {
			continue
		}
		if e, err := Lookup(v.exercise); err != nil || e.Tier == TierMechanism {
			continue // judged call by call: no drill runs
		}
		r := checkedVariant(v)
		harmed := map[string]bool{}
		for _, l := range r.Lessons {
			harmed[l.Drill] = true
		}
		for _, l := range r.Differences {
			if harmed[l.Drill] {
				t.Errorf("%s/%s: %q listed as a difference with no harm, beside the drill's harm", v.exercise, v.name, DifferenceText("en", l))
			}
			seen++
		}
		seen += len(r.Lessons)
	}
	if seen == 0 {
		t.Fatal("no lesson or difference: the test no longer sees what it checks")
	}
}
