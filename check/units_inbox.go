package check

import (
	"errors"
	"fmt"
	"strings"

	"archlab/harness"
	"archlab/internal/inbox"
)

// The book's own §8.2 tests (the `go test -v` lines it prints), run on the
// student's Ledger before any drill. Each is the book's test as
// internal/inbox/inbox_test.go holds it, with the student's NewLedger in
// place of the book's; the book's Consume and MemoryAck stay the book's.
// Only the three tests of the safe design are here: the book's other two
// (TestNaiveRedeliveryDoubleApplies, TestMarkBeforeEffectLosesMessage)
// measure the wrong designs, which the exercise does not ask for.
var ledgerUnits = []Unit{
	{Name: "TestSideEffectThenAckLost", Run: unitAckLost},
	{Name: "TestDedupKeyIncludesProducer", Run: unitDedupScope},
	{Name: "TestPruneOpensReplayWindow", Run: unitPruneWindow},
}

// bookPay is the payment the book's tests deliver: 25.99 for order o-1.
var bookPay = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

// newLedger opens a fresh ledger of the student's, as the harness does.
func newLedger(s *harness.Students) (harness.Ledger, error) {
	l := s.Ledger()
	if l == nil {
		return nil, errors.New("the student's NewLedger returned nil")
	}
	return l, nil
}

// ownError is an error of the student's code that is not the book's
// outcome: the check stops on it (not started, or an error of its own)
// rather than call it a difference from the book.
func ownError(err error) bool {
	return err != nil && !errors.Is(err, inbox.ErrAckLost)
}

// unitAckLost: the effect commits, the ack is lost, the broker redelivers;
// the dedup key suppresses the second delivery.
// "ack-lost: deliveries=2 effects=1 balance=2599 acks=2"
func unitAckLost(s *harness.Students) error {
	l, err := newLedger(s)
	if err != nil {
		return err
	}
	store, ack := harness.LedgerStore(l), inbox.NewMemoryAck()
	ack.LoseNext()
	applied, err := inbox.Consume(store, bookPay, ack)
	if ownError(err) {
		return err
	}
	if !applied || !errors.Is(err, inbox.ErrAckLost) {
		return &UnitFailure{Key: "check.unit.ledger.first-delivery", Args: []any{applied}}
	}
	applied, err = inbox.Consume(store, bookPay, ack)
	if err != nil {
		return err
	}
	if applied {
		return &UnitFailure{Key: "check.unit.ledger.redelivery-applied", Args: []any{bookPay}}
	}
	if l.Applies() != 1 || l.Balance("o-1") != 2599 || ack.Acks() != 2 {
		return &UnitFailure{Key: "check.unit.ledger.ack-lost", Args: []any{l.Applies(), l.Balance("o-1"), ack.Acks()}}
	}
	return nil
}

// unitDedupScope: two producers reuse evt-1; both effects apply because the
// key is scoped by producer.
// "dedup-scope: producers=2 same_event_id=evt-1 effects=2 balance=600"
func unitDedupScope(s *harness.Students) error {
	l, err := newLedger(s)
	if err != nil {
		return err
	}
	a := inbox.Message{Producer: "checkout", ID: "evt-1", Seq: 1, OrderID: "o-2", AmountCents: 250}
	b := inbox.Message{Producer: "refund", ID: "evt-1", Seq: 1, OrderID: "o-2", AmountCents: 350}
	for _, m := range []inbox.Message{a, b} {
		ok, err := l.ApplyOnce(m)
		if err != nil {
			return err
		}
		if !ok {
			return &UnitFailure{Key: "check.unit.ledger.taken-for-duplicate", Args: []any{m}}
		}
	}
	if l.Applies() != 2 || l.Balance("o-2") != 600 {
		return &UnitFailure{Key: "check.unit.ledger.dedup-scope", Args: []any{l.Applies(), l.Balance("o-2")}}
	}
	return nil
}

// unitPruneWindow: once a key is pruned, a replay of that old message is
// applied again; inside the window it is a duplicate.
// "prune-window: pruned=1 replay_applied=true balance=2400"
func unitPruneWindow(s *harness.Students) error {
	l, err := newLedger(s)
	if err != nil {
		return err
	}
	old := inbox.Message{Producer: "pay", ID: "evt-7", Seq: 7, OrderID: "o-3", AmountCents: 1200}
	if ok, err := l.ApplyOnce(old); err != nil {
		return err
	} else if !ok {
		return &UnitFailure{Key: "check.unit.ledger.taken-for-duplicate", Args: []any{old}}
	}
	if ok, err := l.ApplyOnce(old); err != nil {
		return err
	} else if ok {
		return &UnitFailure{Key: "check.unit.ledger.redelivery-applied", Args: []any{old}}
	}
	pruned := l.Prune(old.Seq)
	replayed, err := l.ApplyOnce(old)
	if err != nil {
		return err
	}
	if pruned != 1 || !replayed || l.Balance("o-3") != 2400 {
		return &UnitFailure{Key: "check.unit.ledger.prune-window", Args: []any{pruned, replayed, l.Balance("o-3")}}
	}
	return nil
}

// inboxProbe is the handler's probe (keptState): two payments delivered
// once each, the first asking for a call outside the store, as the
// student's scope declares it; what each came to (applied, called,
// acked).
func inboxProbe(s *harness.Students) (string, error) {
	h, err := harness.NewStudentInbox(s, harness.InboxEnv{}, nil)
	if err != nil {
		return "", err
	}
	msgs := []inbox.Message{
		{Producer: "probe", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599},
		{Producer: "probe", ID: "evt-2", Seq: 2, OrderID: "o-2", AmountCents: 2599},
	}
	for _, m := range msgs {
		h.Declare(m)
	}
	h.Notify(0)
	for i := range msgs {
		if _, err := h.Deliver(i, ""); err != nil {
			return "", err
		}
	}
	if err := h.Settle(); err != nil {
		return "", err
	}
	var b strings.Builder
	for i, m := range msgs {
		fmt.Fprintf(&b, "%s applied %d called %d acked %v; ", m, h.Applied(i), h.Calls(i), h.Acks().Acked(m))
	}
	return b.String(), h.Finish()
}
