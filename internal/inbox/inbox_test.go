package inbox

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// pay is the payment the book's 8.2 tests deliver: 25.99 for order o-1.
var pay = Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

// TestSideEffectThenAckLost: the effect commits, the ack is lost, the broker
// redelivers; the dedup key suppresses the second delivery.
func TestSideEffectThenAckLost(t *testing.T) {
	l, ack := NewLedger(), NewMemoryAck()
	ack.LoseNext()
	deliveries := 0

	deliveries++
	applied, err := Consume(l, pay, ack)
	if !applied || !errors.Is(err, ErrAckLost) {
		t.Fatalf("first delivery: applied=%v err=%v, want true and ErrAckLost", applied, err)
	}
	if ack.Acked(pay) {
		t.Fatal("a lost ack must leave the message unacked, so the broker redelivers")
	}
	deliveries++
	applied, err = Consume(l, pay, ack)
	if applied || err != nil {
		t.Fatalf("redelivery: applied=%v err=%v, want false, nil", applied, err)
	}
	if !ack.Acked(pay) {
		t.Fatal("redelivery must be acked")
	}
	if deliveries != 2 || l.Applies() != 1 || l.Balance("o-1") != 2599 || ack.Acks() != 2 {
		t.Fatalf("got deliveries=%d effects=%d balance=%d acks=%d", deliveries, l.Applies(), l.Balance("o-1"), ack.Acks())
	}
	t.Logf("ack-lost: deliveries=%d effects=%d balance=%d acks=%d", deliveries, l.Applies(), l.Balance("o-1"), ack.Acks())
}

// TestNaiveRedeliveryDoubleApplies: without a dedup key the redelivery
// charges the order twice.
func TestNaiveRedeliveryDoubleApplies(t *testing.T) {
	l := NewLedger()
	deliveries := 0
	for range 2 {
		deliveries++
		l.NaiveApply(pay)
	}
	if l.Applies() != 2 || l.Balance("o-1") != 2*2599 {
		t.Fatalf("got effects=%d balance=%d, want 2 and 5198", l.Applies(), l.Balance("o-1"))
	}
	t.Logf("naive-redelivery: deliveries=%d effects=%d balance=%d", deliveries, l.Applies(), l.Balance("o-1"))
}

// TestDedupKeyIncludesProducer: two producers reuse evt-1; both effects
// apply because the key is scoped by producer.
func TestDedupKeyIncludesProducer(t *testing.T) {
	l := NewLedger()
	a := Message{Producer: "checkout", ID: "evt-1", Seq: 1, OrderID: "o-2", AmountCents: 250}
	b := Message{Producer: "refund", ID: "evt-1", Seq: 1, OrderID: "o-2", AmountCents: 350}
	if DedupKey(a) == DedupKey(b) {
		t.Fatalf("keys collide: %q", DedupKey(a))
	}
	for _, m := range []Message{a, b} {
		if ok, err := l.ApplyOnce(m); !ok || err != nil {
			t.Fatalf("ApplyOnce(%s) = %v, %v; want true, nil", m, ok, err)
		}
	}
	if l.Applies() != 2 || l.Balance("o-2") != 600 {
		t.Fatalf("got effects=%d balance=%d, want 2 and 600", l.Applies(), l.Balance("o-2"))
	}
	t.Logf("dedup-scope: producers=2 same_event_id=%s effects=%d balance=%d", a.ID, l.Applies(), l.Balance("o-2"))
}

// TestPruneOpensReplayWindow: once a key is pruned, a replay of that old
// message is applied again.
func TestPruneOpensReplayWindow(t *testing.T) {
	l := NewLedger()
	old := Message{Producer: "pay", ID: "evt-7", Seq: 7, OrderID: "o-3", AmountCents: 1200}
	if ok, _ := l.ApplyOnce(old); !ok {
		t.Fatal("first apply must succeed")
	}
	if ok, _ := l.ApplyOnce(old); ok {
		t.Fatal("inside the window the replay must be a duplicate")
	}
	pruned := l.Prune(old.Seq)
	replayed, err := l.ApplyOnce(old)
	if pruned != 1 || !replayed || err != nil || l.Balance("o-3") != 2400 {
		t.Fatalf("got pruned=%d replay_applied=%v err=%v balance=%d", pruned, replayed, err, l.Balance("o-3"))
	}
	t.Logf("prune-window: pruned=%d replay_applied=%v balance=%d", pruned, replayed, l.Balance("o-3"))
}

// TestMarkBeforeEffectLosesMessage: the key is marked, the handler crashes
// before the effect, and the redelivery is taken for a duplicate.
func TestMarkBeforeEffectLosesMessage(t *testing.T) {
	l := NewLedger()
	if err := l.MarkBeforeEffect(pay, true); !errors.Is(err, ErrSimulatedCrash) {
		t.Fatalf("crash run: err=%v, want ErrSimulatedCrash", err)
	}
	before := l.Applies()
	if err := l.MarkBeforeEffect(pay, false); err != nil {
		t.Fatalf("redelivery: %v", err)
	}
	redeliveryApplied := l.Applies() > before
	if l.Balance("o-1") != 0 || l.Applies() != 0 || redeliveryApplied {
		t.Fatalf("got balance=%d effects=%d redelivery_applied=%v", l.Balance("o-1"), l.Applies(), redeliveryApplied)
	}
	t.Logf("mark-before-effect: balance=%d effects=%d redelivery_applied=%v", l.Balance("o-1"), l.Applies(), redeliveryApplied)
}

// failingAck is an AckStore that always fails with err.
type failingAck struct{ err error }

func (f failingAck) Ack(Message) error { return f.err }

func TestConsumeWrapsAckErrorWithKey(t *testing.T) {
	l := NewLedger()
	applied, err := Consume(l, pay, failingAck{ErrAckLost})
	if !applied {
		t.Fatal("the effect commits before the ack, so it must report applied")
	}
	if !errors.Is(err, ErrAckLost) || err.Error() != "inbox: ack pay:evt-1: ack lost" {
		t.Fatalf("err = %v", err)
	}
}

func TestMarkBeforeEffectWithoutCrashApplies(t *testing.T) {
	l := NewLedger()
	if err := l.MarkBeforeEffect(pay, false); err != nil {
		t.Fatal(err)
	}
	if err := l.MarkBeforeEffect(pay, false); err != nil {
		t.Fatal(err)
	}
	if l.Applies() != 1 || l.Balance("o-1") != 2599 {
		t.Fatalf("effects=%d balance=%d, want 1 and 2599", l.Applies(), l.Balance("o-1"))
	}
}

func TestPruneBoundaries(t *testing.T) {
	tests := []struct {
		name   string
		seqs   []int64
		maxSeq int64
		want   int
	}{
		{"empty table", nil, 10, 0},
		{"below every key", []int64{5, 6, 7}, 4, 0},
		{"inclusive bound", []int64{5, 6, 7}, 6, 2},
		{"out of order seqs", []int64{9, 2, 7, 1, 8}, 7, 3},
		{"everything", []int64{3, 1, 2}, 100, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLedger()
			for i, s := range tt.seqs {
				l.ApplyOnce(Message{Producer: "p", ID: fmt.Sprint(i), Seq: s, OrderID: "o", AmountCents: 1})
			}
			if got := l.Prune(tt.maxSeq); got != tt.want {
				t.Fatalf("Prune(%d) = %d, want %d", tt.maxSeq, got, tt.want)
			}
			if again := l.Prune(tt.maxSeq); again != 0 {
				t.Fatalf("second Prune(%d) = %d, want 0", tt.maxSeq, again)
			}
			// Kept keys are still duplicates; pruned ones apply again.
			for i, s := range tt.seqs {
				ok, _ := l.ApplyOnce(Message{Producer: "p", ID: fmt.Sprint(i), Seq: s, OrderID: "o", AmountCents: 1})
				if ok != (s <= tt.maxSeq) {
					t.Fatalf("key %d seq %d: reapplied=%v", i, s, ok)
				}
			}
		})
	}
}

// TestConsumeConcurrentRedeliveries: many goroutines deliver the same
// messages, some acks are lost and redelivered; each effect lands once.
func TestConsumeConcurrentRedeliveries(t *testing.T) {
	const messages, workers = 50, 8
	l, ack := NewLedger(), NewMemoryAck()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range messages {
				m := Message{Producer: "pay", ID: fmt.Sprint("evt-", i), Seq: int64(i), OrderID: fmt.Sprint("o-", i%5), AmountCents: 100}
				if (i+w)%7 == 0 {
					ack.LoseNext()
				}
				for {
					if _, err := Consume(l, m, ack); err == nil {
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	if l.Applies() != messages {
		t.Fatalf("effects = %d, want %d", l.Applies(), messages)
	}
	var total int64
	for o := range 5 {
		total += l.Balance(fmt.Sprint("o-", o))
	}
	if total != messages*100 {
		t.Fatalf("total balance = %d, want %d", total, messages*100)
	}
}

// TestApplyOnceAnyDuplicateInterleaving is the property behind 8.2: however
// duplicates are interleaved, each message's effect is applied exactly once.
func TestApplyOnceAnyDuplicateInterleaving(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "messages")
		msgs := make([]Message, n)
		var want int64
		for i := range msgs {
			amount := rapid.Int64Range(1, 10_000).Draw(t, "amount")
			msgs[i] = Message{Producer: rapid.SampledFrom([]string{"pay", "refund"}).Draw(t, "producer"),
				ID: fmt.Sprint("evt-", i), Seq: int64(i), OrderID: "o", AmountCents: amount}
			want += amount
		}
		// A delivery schedule: every message at least once, in any order.
		schedule := rapid.Permutation(append(rapid.SliceOf(rapid.IntRange(0, n-1)).Draw(t, "redeliveries"), seq(n)...)).Draw(t, "order")
		l := NewLedger()
		for _, i := range schedule {
			if _, err := l.ApplyOnce(msgs[i]); err != nil {
				t.Fatal(err)
			}
		}
		if l.Applies() != n || l.Balance("o") != want {
			t.Fatalf("effects=%d balance=%d, want %d and %d", l.Applies(), l.Balance("o"), n, want)
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
