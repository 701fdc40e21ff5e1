package harness

import (
	"fmt"

	"archlab/internal/inbox"
)

// The §8.2 mechanism exercise: the student writes the book's Ledger, and
// the book's inbox.Consume runs over it exactly as it runs over the book's.
// Nothing of the run changes but the store: the broker, the faults of the
// table, the recorder and the counters are the ones every §8.2 drill uses,
// and they read the student's ledger through the same inbox.Store the
// book's Ledger satisfies.

// LedgerExercise is the exercise's name, as a drill file of strategy
// student names it: "exercise ledger".
const LedgerExercise = "ledger"

// Ledger is the book's Ledger as the exercise asks for it: the dedup
// table (ApplyOnce, Prune) and the two readings the drills' counters take
// (Balance, Applies).
type Ledger interface {
	// ApplyOnce records the dedup key and applies the effect in one local
	// transaction; a duplicate returns false, nil and changes nothing.
	ApplyOnce(inbox.Message) (bool, error)
	// Prune forgets the keys with Seq <= maxSeq and reports how many.
	Prune(maxSeq int64) int
	// Balance returns the cents applied to an order.
	Balance(orderID string) int64
	// Applies reports how many effects were applied.
	Applies() int
}

// studentLedger is the student's Ledger as the inbox.Store that Consume
// takes. The exercise asks for the safe design only: NaiveApply and
// MarkBeforeEffect are the book's wrong designs, and Mark and Effect the
// protocol exercise's verbs, so a student should not write them for
// nothing. The book's Consume never calls them, and the harness runs
// nothing else over the student's ledger; were one called all the same,
// it would fail the run with an error that says so (Err, as a store that
// can fail does), never do something the student did not write.
type studentLedger struct {
	Ledger
	err   error
	watch *Watch
}

// The exercise's calls, each told to the Watch first, so that a ledger
// that hangs is reported with its last call.
func (s *studentLedger) ApplyOnce(m inbox.Message) (bool, error) {
	s.watch.Call("l.ApplyOnce")
	return s.Ledger.ApplyOnce(m)
}
func (s *studentLedger) Prune(maxSeq int64) int {
	s.watch.Call("l.Prune")
	return s.Ledger.Prune(maxSeq)
}
func (s *studentLedger) Balance(orderID string) int64 {
	s.watch.Call("l.Balance")
	return s.Ledger.Balance(orderID)
}
func (s *studentLedger) Applies() int {
	s.watch.Call("l.Applies")
	return s.Ledger.Applies()
}

var _ inbox.Store = (*studentLedger)(nil)

func (s *studentLedger) refuse(call string) error {
	err := fmt.Errorf("the ledger exercise has no %s: only the book's Consume (ApplyOnce, then the ack) runs over it", call)
	if s.err == nil {
		s.err = err
	}
	return err
}

func (s *studentLedger) NaiveApply(inbox.Message) { s.refuse("NaiveApply") }
func (s *studentLedger) MarkBeforeEffect(inbox.Message, bool) error {
	return s.refuse("MarkBeforeEffect")
}
func (s *studentLedger) Mark(inbox.Message) (bool, error) { return false, s.refuse("Mark") }
func (s *studentLedger) Effect(inbox.Message) error       { return s.refuse("Effect") }

// Err is the first call the exercise does not have, or nil.
func (s *studentLedger) Err() error { return s.err }

// NewStudentLedgerInbox starts a §8.2 run of the book's Consume (strategy
// effect-then-ack) over a fresh ledger of the student's, s.Ledger(). Like
// the protocol exercise it runs in this process, on the model broker.
func NewStudentLedgerInbox(s *Students, env InboxEnv, rec *Recorder) (*Inbox, error) {
	switch {
	case env.Consumer != nil || env.Open != nil:
		return nil, scenarioErr("harness.err.student-real")
	case env.Broker != nil:
		return nil, scenarioErr("harness.err.student-broker")
	case s == nil || s.Ledger == nil:
		return nil, ErrNoStudent
	}
	l := s.Ledger()
	if l == nil {
		return nil, fmt.Errorf("the student's NewLedger returned nil")
	}
	env.Open = func(func(Statement)) (inbox.Store, error) { return &studentLedger{Ledger: l, watch: s.Watch}, nil }
	return NewInbox(EffectThenAck, env, rec)
}

// LedgerStore is l as the inbox.Store the book's Consume takes, as every
// run of the exercise hands it over: the checker's unit cases (the book's
// own tests) call Consume over it too.
func LedgerStore(l Ledger) inbox.Store { return &studentLedger{Ledger: l} }
