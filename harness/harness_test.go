package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"archlab/internal/inbox"
	"archlab/internal/ordering"
	"archlab/internal/shardjob"
)

var pay = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

// TestFaultsAroundTheBooksHandlers: each handler, under each row of the
// fault table, leaves exactly these effects and this ack behind. The
// handlers are the book's functions; the fault is the environment's.
func TestFaultsAroundTheBooksHandlers(t *testing.T) {
	tests := []struct {
		strategy Strategy
		fault    FaultKind
		applies  int  // effects in the ledger afterwards
		key      bool // the dedup key is held afterwards
		acked    bool
		acks     int // ack attempts
	}{
		{EffectThenAck, "", 1, true, true, 1},
		{EffectThenAck, "crash-before", 0, false, false, 0},
		{EffectThenAck, "crash-mid", 0, false, false, 0}, // one transaction: nothing commits
		{EffectThenAck, "crash-after", 1, true, false, 0},
		{EffectThenAck, "ack-lost", 1, true, false, 1},
		{EffectThenAck, "duplicate", 1, true, true, 2},
		{Naive, "", 1, false, true, 1},
		{Naive, "crash-mid", 0, false, false, 0},
		{Naive, "duplicate", 2, false, true, 2},
		{MarkBeforeEffect, "", 1, true, true, 1},
		{MarkBeforeEffect, "crash-mid", 0, true, false, 0}, // the book's crash argument: key, no effect
		{MarkBeforeEffect, "crash-after", 1, true, false, 0},
		{EarlyPrune, "", 1, false, true, 1},
		{EarlyPrune, "ack-lost", 1, true, false, 1},  // Consume failed: no prune
		{EarlyPrune, "duplicate", 2, false, true, 2}, // the second copy finds the key pruned
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.strategy, "/", tt.fault), func(t *testing.T) {
			l := inbox.NewLedger()
			h, err := NewInbox(tt.strategy, InboxEnv{Open: func(func(Statement)) (inbox.Store, error) { return l, nil }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			i := h.Declare(pay)
			if _, err := h.Deliver(i, tt.fault); err != nil {
				t.Fatal(err)
			}
			fresh, _ := l.Mark(pay)
			if l.Applies() != tt.applies || !fresh != tt.key || h.Acks().Acked(pay) != tt.acked || h.Acks().Acks() != tt.acks {
				t.Fatalf("applies=%d key=%v acked=%v acks=%d; want %d %v %v %d",
					l.Applies(), !fresh, h.Acks().Acked(pay), h.Acks().Acks(), tt.applies, tt.key, tt.acked, tt.acks)
			}
		})
	}
}

// TestMarkBeforeEffectDuplicateDiesAfter: a key already there means
// mark-before-effect never reaches the point between its writes; a crash
// asked for there strikes at the next point, before the ack.
func TestMarkBeforeEffectDuplicateDiesAfter(t *testing.T) {
	l := inbox.NewLedger()
	l.Mark(pay)
	h, err := NewInbox(MarkBeforeEffect, InboxEnv{Open: func(func(Statement)) (inbox.Store, error) { return l, nil }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := h.Declare(pay)
	d, err := h.Deliver(i, "crash-mid")
	if err != nil || d.Applied || l.Applies() != 0 || h.Acks().Acks() != 0 {
		t.Fatalf("%+v %v applies=%d acks=%d", d, err, l.Applies(), h.Acks().Acks())
	}
}

// TestConsumeReportsAppliedOnALostAck: the book's Consume reports the
// effect it committed even when its ack is lost; the harness hands that
// report on, beside what it measured on the store.
func TestConsumeReportsAppliedOnALostAck(t *testing.T) {
	h, err := NewInbox(EffectThenAck, InboxEnv{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := h.Declare(pay)
	d, err := h.Deliver(i, "ack-lost")
	if err != nil || !d.Applied || !d.Reported {
		t.Fatalf("%+v %v: want applied and reported", d, err)
	}
}

// TestTheTable: every row of §8.2's table spends a fault or settles its
// message, so no schedule is endless; names are unique; Doc words exist in
// both languages.
func TestTheTable(t *testing.T) {
	seen := map[FaultKind]bool{}
	for k, f := range InboxFaults {
		if seen[f.Name] {
			t.Errorf("row %d: %q twice", k, f.Name)
		}
		seen[f.Name] = true
		if !f.Fault() && !(f.On == Unacked && f.Settles()) {
			t.Errorf("row %q neither spends a fault nor settles its message", f.Name)
		}
		if f.Copies < 1 || f.Doc.En == "" || f.Doc.Zh == "" || (f.Step.En == "") != (f.StepPID.En == "") {
			t.Errorf("row %q: copies %d, words %+v", f.Name, f.Copies, f)
		}
		if (k == 0) != (f.Name == "") {
			t.Errorf("row %d: the plain delivery must be row 0 and only it", k)
		}
	}
}

// TestInboxBrokerCounts: the broker's counts after ack-lost's schedule.
func TestInboxBrokerCounts(t *testing.T) {
	rec := &Recorder{}
	h, err := NewInbox(EffectThenAck, InboxEnv{}, rec)
	if err != nil {
		t.Fatal(err)
	}
	i := h.Declare(pay)
	for _, f := range []FaultKind{"ack-lost", "crash-after", ""} {
		if _, err := h.Deliver(i, f); err != nil {
			t.Fatal(err)
		}
	}
	if h.Deliveries() != 3 || h.Acks().Acks() != 2 || !h.Acks().Acked(pay) || h.Applied(i) != 1 || h.Lost() != 0 || h.Doubled() != 0 {
		t.Fatalf("deliveries=%d acks=%d applied=%d", h.Deliveries(), h.Acks().Acks(), h.Applied(i))
	}
	// Each fault opens a fault phase of its own, with the bad tone, even
	// the second one, which strikes during recovery.
	var bad []string
	for _, s := range rec.Steps {
		if s.Tone == Bad {
			bad = append(bad, fmt.Sprint(s.Phase, s.Result.Key))
		}
	}
	if got := fmt.Sprint(bad); got != "[1res.ack-lost 1res.crashed]" {
		t.Fatalf("bad steps %s", got)
	}
}

// TestDispatchRequeuesAtTheBack: a conflict goes to the back of the queue
// with its attempt raised; the budget dead-letters it.
func TestDispatchRequeuesAtTheBack(t *testing.T) {
	rec := &Recorder{}
	o := NewOrdering(rec)
	o.Declare(ordering.Event{ID: "evt-2", OrderID: "o-1", Version: 2, Type: "pay"}, false)
	o.Declare(ordering.Event{ID: "evt-1", OrderID: "o-1", Version: 1, Type: "reserve"}, false)
	o.Consumer(3)
	o.Publish(0)
	o.Publish(1)
	if err := o.Dispatch(); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range rec.Steps {
		if s.Action.Key == "step.deliver" {
			order = append(order, fmt.Sprint(s.Action.Args...))
		}
	}
	if got := fmt.Sprint(order); got != "[evt-2(o-1 pay v2) 1 evt-1(o-1 reserve v1) 1 evt-2(o-1 pay v2) 2]" {
		t.Fatalf("deliveries %s", got)
	}
	if st, _ := o.Observe("state", []any{"o-1"}); fmt.Sprint(st) != "v2/PAID" || len(o.DLQ()) != 0 || o.Deliveries() != 3 {
		t.Fatalf("state %v dlq %d deliveries %d", st, len(o.DLQ()), o.Deliveries())
	}
}

// TestZombieWindow: without a fence, the zombie's commit before the new
// owner's first commit is accepted (the book's Runner.Run); with the fence
// it is rejected.
func TestZombieWindow(t *testing.T) {
	for _, fence := range []bool{false, true} {
		s := NewShardjob(nil)
		if err := s.Split(30, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Run(Run{Shard: "shard-0", Epoch: 1, Every: 10, Stop: row("crash-after"), StopAt: 15, Named: true}); err != nil {
			t.Fatal(err)
		}
		if fence {
			if err := s.Fence("shard-0", 2); err != nil {
				t.Fatal(err)
			}
		}
		ran, err := s.Run(Run{Shard: "shard-0", Epoch: 2, Every: 10, Zombie: row("zombie-at"), ZombieAt: 0, Named: true})
		if err != nil {
			t.Fatal(err)
		}
		wantAccepted := 1
		if fence {
			wantAccepted = 0
		}
		if s.ZombieAccepted() != wantAccepted || s.Applied() != 30 || ran.From != 10 && fence {
			t.Fatalf("fence=%v: zombie accepted %d, applied %d, from %d", fence, s.ZombieAccepted(), s.Applied(), ran.From)
		}
	}
}

// TestDeliverIsDispatchStepwise: publishing a delivery order and
// dispatching it is the same run as delivering each event in turn and then
// dispatching the retries they queued, which is how the explorer walks it:
// the same deliveries, counters and Snapshot, for every order of three
// events and a duplicate under budgets 1 to 3.
func TestDeliverIsDispatchStepwise(t *testing.T) {
	events := []ordering.Event{
		{ID: "evt-1", OrderID: "o-1", Version: 1, Type: "reserve"},
		{ID: "evt-2", OrderID: "o-1", Version: 2, Type: "pay"},
		{ID: "evt-3", OrderID: "o-1", Version: 3, Type: "fulfill"},
	}
	orders := [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2, 1}, {2, 2, 0, 1}, {1, 2, 0, 0}}
	for budget := 1; budget <= 3; budget++ {
		for _, order := range orders {
			run := func(stepwise bool) (*Ordering, []string) {
				rec := &Recorder{}
				o := NewOrdering(rec)
				for _, e := range events {
					o.Declare(e, false)
				}
				o.Consumer(budget)
				for _, i := range order {
					if stepwise {
						if err := o.Deliver(i); err != nil {
							t.Fatal(err)
						}
					} else if err := o.Publish(i); err != nil {
						t.Fatal(err)
					}
				}
				if err := o.Dispatch(); err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, s := range rec.Steps {
					got = append(got, fmt.Sprint(s.Action, s.Result))
				}
				return o, got
			}
			a, stepsA := run(false)
			b, stepsB := run(true)
			if fmt.Sprint(stepsA) != fmt.Sprint(stepsB) || a.Snapshot() != b.Snapshot() ||
				a.Deliveries() != b.Deliveries() || len(a.DLQ()) != len(b.DLQ()) {
				t.Errorf("budget %d, order %v:\n published: %v\n %s\n delivered: %v\n %s", budget, order, stepsA, a.Snapshot(), stepsB, b.Snapshot())
			}
		}
	}
}

// TestSplitIsShared: runs share a split of the same keys, and a student's
// worker gets a copy of its shard, so what it does to it reaches no other
// run.
func TestSplitIsShared(t *testing.T) {
	students := &Students{Shardjob: func(w *Worker) error {
		items := w.Items()
		items[0] = "scribbled"
		return w.Commit(w.Epoch(), len(items))
	}}
	s := NewStudentShardjob(students, nil)
	if err := s.Split(4, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(Run{Shard: "shard-0", Epoch: 1}); err != nil {
		t.Fatal(err)
	}
	fresh := NewShardjob(nil)
	if err := fresh.Split(4, 1); err != nil {
		t.Fatal(err)
	}
	items, err := fresh.items("shard-0")
	if err != nil || items[0] != "order-0" {
		t.Fatalf("a fresh run's shard starts %q (err %v), want order-0", items[0], err)
	}
}

// TestZombieCommitsTheOffsetItReached: a zombie commits the offset it got
// to, where it resumed plus the items it touched, not the count of items.
// Here epoch 2 resumed at 20 and touched 15: its zombie commits 35.
func TestZombieCommitsTheOffsetItReached(t *testing.T) {
	h := NewShardjob(nil)
	if err := h.Split(100, 1); err != nil {
		t.Fatal(err)
	}
	for _, r := range []Run{
		{Shard: "shard-0", Epoch: 1, Every: 10, Stop: row("crash-after"), StopAt: 25},
		{Shard: "shard-0", Epoch: 2, Every: 10, Stop: row("stall-after"), StopAt: 15, Named: true},
		{Shard: "shard-0", Epoch: 3, Every: 10, Zombie: row("zombie-at"), ZombieAt: 0, Named: true},
	} {
		if _, err := h.Run(r); err != nil {
			t.Fatal(err)
		}
	}
	if from, to, moved := h.ZombieMove(); !moved || from != 30 || to != 35 {
		t.Fatalf("zombie move %d -> %d (moved %v), want 30 -> 35: the offset epoch 2 reached", from, to, moved)
	}
}

// TestFenceMakesTheOldEpochAZombie: after a fence, the old epoch's commit
// is a zombie's, refused, even before the new owner has run.
func TestFenceMakesTheOldEpochAZombie(t *testing.T) {
	h := NewShardjob(nil)
	if err := h.Split(100, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Run(Run{Shard: "shard-0", Epoch: 1, Every: 10, Stop: row("stall-after"), StopAt: 25, Named: true}); err != nil {
		t.Fatal(err)
	}
	if err := h.Fence("shard-0", 2); err != nil {
		t.Fatal(err)
	}
	_ = h.Commit("shard-0", 1, 25)
	commits, _ := h.Observe("zombie_commits", nil)
	rejected, _ := h.Observe("rejected", nil)
	if commits != 1 || rejected != 1 || h.ZombieAccepted() != 0 {
		t.Fatalf("zombie_commits=%v rejected=%v accepted=%d, want 1 1 0", commits, rejected, h.ZombieAccepted())
	}
}

// TestZombieRefusedAsStaleOffsetIsNotAccepted: a zombie's commit the
// checkpoint refuses with ErrStaleOffset (its own epoch is still the
// checkpoint's, its offset behind) is refused, not accepted.
func TestZombieRefusedAsStaleOffsetIsNotAccepted(t *testing.T) {
	h := NewShardjob(nil)
	if err := h.Split(100, 1); err != nil {
		t.Fatal(err)
	}
	for _, r := range []Run{
		{Shard: "shard-0", Epoch: 1, Every: 10, Stop: row("stall-after"), StopAt: 25, Named: true},
		// The new owner stalls before its first commit: the checkpoint
		// still holds epoch 1 at 20.
		{Shard: "shard-0", Epoch: 2, Every: 10, Stop: row("stall-after"), StopAt: 5, Named: true},
	} {
		if _, err := h.Run(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Commit("shard-0", 1, 10); !errors.Is(err, shardjob.ErrStaleOffset) {
		t.Fatalf("zombie commit behind the checkpoint: %v, want ErrStaleOffset", err)
	}
	rejected, _ := h.Observe("rejected", nil)
	if h.ZombieAccepted() != 0 || h.ZombieMoved() != 0 || rejected != 1 {
		t.Fatalf("accepted=%d moved=%d rejected=%v, want 0 0 1", h.ZombieAccepted(), h.ZombieMoved(), rejected)
	}
}

// row is a §11.2 fault row's index, by name.
func row(name string) int {
	i, ok := ShardFaultByName(name)
	if !ok {
		panic("no §11.2 fault " + name)
	}
	return i
}

// TestSinkFailsForAStudentLoop: the student's Apply says ErrSinkFailed for
// the item the sink fails. A loop that returns it stops before a commit
// covers the item, and the rerun applies it; a loop that goes on, as the
// book's Runner.Run does with its false, commits past it and loses it.
func TestSinkFailsForAStudentLoop(t *testing.T) {
	loop := func(stopOnFailure bool) func(*Worker) error {
		return func(w *Worker) error {
			items, every := w.Items(), w.CommitEvery()
			start := w.Load()
			for i := start; i < len(items); i++ {
				if _, err := w.Apply(items[i]); err != nil && (stopOnFailure || !errors.Is(err, ErrSinkFailed)) {
					return err
				}
				if every > 0 && (i+1-start)%every == 0 {
					if err := w.Commit(w.Epoch(), i+1); err != nil {
						return err
					}
				}
			}
			return w.Commit(w.Epoch(), len(items))
		}
	}
	for _, tc := range []struct {
		stops   bool
		crashed bool
		applied int
	}{
		{stops: true, crashed: true, applied: 20},
		{stops: false, crashed: false, applied: 19},
	} {
		t.Run(fmt.Sprint("stops=", tc.stops), func(t *testing.T) {
			t.Parallel()
			h := NewStudentShardjob(&Students{Shardjob: loop(tc.stops)}, &Recorder{})
			if err := h.Split(20, 1); err != nil {
				t.Fatal(err)
			}
			first, err := h.Run(Run{Shard: "shard-0", Epoch: 1, Every: 3, Fail: row("sink-fails-at"), FailAt: 5})
			if err != nil {
				t.Fatal(err)
			}
			if first.Failed != 1 || first.Crashed != tc.crashed {
				t.Fatalf("first run: failed %d, crashed %v; want 1, %v", first.Failed, first.Crashed, tc.crashed)
			}
			if first.Crashed {
				rerun, err := h.Run(Run{Shard: "shard-0", Epoch: 1, Every: 3})
				if err != nil {
					t.Fatal(err)
				}
				if rerun.From != 3 {
					t.Fatalf("rerun from %d, want 3: the last commit below the failed item", rerun.From)
				}
			}
			if h.Applied() != tc.applied || h.cp.Load("shard-0") != 20 {
				t.Fatalf("applied %d, checkpoint %d; want %d, 20", h.Applied(), h.cp.Load("shard-0"), tc.applied)
			}
		})
	}
}

// TestCurrentEpochZombieIsAZombie: a zombie that commits under the
// owner's own epoch is accepted by the checkpoint, which cannot tell the
// two apart, and counted as a zombie's commit all the same: the
// environment knows who commits.
func TestCurrentEpochZombieIsAZombie(t *testing.T) {
	h := NewShardjob(nil)
	if err := h.Split(100, 1); err != nil {
		t.Fatal(err)
	}
	for _, r := range []Run{
		{Shard: "shard-0", Epoch: 1, Every: 10, Stop: row("stall-after"), StopAt: 25, Named: true},
		{Shard: "shard-0", Epoch: 2, Every: 10, Stop: row("crash-after"), StopAt: 1, Zombie: row("zombie-current-at"), ZombieAt: 0, Named: true},
		{Shard: "shard-0", Epoch: 2, Every: 10, Named: true},
	} {
		if _, err := h.Run(r); err != nil {
			t.Fatal(err)
		}
	}
	if from, to, moved := h.ZombieMove(); !moved || from != 20 || to != 26 {
		t.Fatalf("zombie move %d -> %d (moved %v), want 20 -> 26: one past what epoch 1 reached", from, to, moved)
	}
	if h.Applied() != 99 || h.cp.Epoch("shard-0") != 2 {
		t.Fatalf("applied %d, epoch %d; want 99 (item 25 lost), 2", h.Applied(), h.cp.Epoch("shard-0"))
	}
}

// TestSectionRows: each section's chapter is the first number of its ID
// and its package is a folder of the book's code, so `archlab list`
// never names a package that is not there.
func TestSectionRows(t *testing.T) {
	for _, s := range Sections {
		if !strings.HasPrefix(s.ID, strconv.Itoa(s.Chapter)+".") {
			t.Errorf("§%s: chapter %d", s.ID, s.Chapter)
		}
		if fi, err := os.Stat(filepath.Join("..", s.Package)); err != nil || !fi.IsDir() || !strings.HasPrefix(s.Package, "internal/") {
			t.Errorf("§%s: package %q is no folder of the book's code under internal/", s.ID, s.Package)
		}
	}
}
