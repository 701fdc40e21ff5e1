package harness

import (
	"fmt"
	"testing"

	"archlab/internal/inbox"
	"archlab/internal/ordering"
)

var pay = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

// TestHandleStopsAtEveryPoint: each handler, crashed at each point, leaves
// exactly these writes behind, and passes exactly these points.
func TestHandleStopsAtEveryPoint(t *testing.T) {
	tests := []struct {
		strategy Strategy
		crash    Point
		applies  int // effects in the ledger afterwards
		marked   bool
		crashed  Point
		passed   string
	}{
		{EffectThenAck, "", 1, false, "", "[before-writes before-ack]"},
		{EffectThenAck, BeforeWrites, 0, false, BeforeWrites, "[before-writes]"},
		{EffectThenAck, BetweenWrites, 0, false, BetweenWrites, "[before-writes]"}, // one transaction: nothing commits
		{EffectThenAck, BeforeAck, 1, false, BeforeAck, "[before-writes before-ack]"},
		{Naive, "", 1, false, "", "[before-writes before-ack]"},
		{Naive, BetweenWrites, 0, false, BetweenWrites, "[before-writes]"},
		{MarkBeforeEffect, "", 1, true, "", "[before-writes between-writes before-ack]"},
		{MarkBeforeEffect, BetweenWrites, 0, true, BetweenWrites, "[before-writes between-writes]"},
		{MarkBeforeEffect, BeforeAck, 1, true, BeforeAck, "[before-writes between-writes before-ack]"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.strategy, "/", tt.crash), func(t *testing.T) {
			l := inbox.NewLedger()
			var passed []Point
			h, err := Handle(l, tt.strategy, pay, tt.crash, func(p Point) { passed = append(passed, p) })
			if err != nil {
				t.Fatal(err)
			}
			if l.Applies() != tt.applies || h.Marked != tt.marked || h.Crashed != tt.crashed || fmt.Sprint(passed) != tt.passed {
				t.Fatalf("applies=%d marked=%v crashed=%q passed=%v; want %d %v %q %s",
					l.Applies(), h.Marked, h.Crashed, passed, tt.applies, tt.marked, tt.crashed, tt.passed)
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
	h, err := Handle(l, MarkBeforeEffect, pay, BetweenWrites, nil)
	if err != nil || h.Crashed != BeforeAck || h.Applied || l.Applies() != 0 {
		t.Fatalf("%+v %v applies=%d", h, err, l.Applies())
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
	for _, f := range []FaultKind{AckLost, CrashAfter, ""} {
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
		if _, err := s.Run(Run{Shard: "shard-0", Epoch: 1, Every: 10, CrashAfter: 15, ZombieAt: -1, Named: true}); err != nil {
			t.Fatal(err)
		}
		if fence {
			if err := s.Fence("shard-0", 2); err != nil {
				t.Fatal(err)
			}
		}
		ran, err := s.Run(Run{Shard: "shard-0", Epoch: 2, Every: 10, ZombieAt: 0, Named: true})
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
	if _, err := s.Run(Run{Shard: "shard-0", Epoch: 1, ZombieAt: -1}); err != nil {
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
