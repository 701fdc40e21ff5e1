package inbox

import (
	"errors"
	"fmt"
	"sync"
)

var (
	// ErrAckLost is returned by an AckStore whose ack never reached the
	// broker: the local commit happened, the broker will redeliver.
	ErrAckLost = errors.New("ack lost")
	// ErrSimulatedCrash is returned by MarkBeforeEffect when the caller asks
	// it to die between writing the dedup key and applying the effect.
	ErrSimulatedCrash = errors.New("simulated crash")
)

// Message is one broker delivery. Seq is the producer's outbox sequence; it
// is what the dedup retention window (Prune) is measured in.
type Message struct {
	Producer    string
	ID          string
	Seq         int64
	OrderID     string
	AmountCents int64
}

// String is the message's canonical text form, used by traces and errors.
func (m Message) String() string { return DedupKey(m) }

// DedupKey is the identity of a message for deduplication. The event ID alone
// is not enough: two producers may both emit "evt-1", so the key is scoped by
// producer.
func DedupKey(m Message) string {
	return m.Producer + ":" + m.ID
}

// Ledger applies payment amounts to orders. The balances and the dedup keys
// live in the same store and change under the same lock, which is how this
// in-memory model stands for "one local transaction".
type Ledger struct {
	mu       sync.Mutex
	balances map[string]int64 // order ID -> cents applied
	keys     map[string]int64 // dedup key -> producer Seq, for Prune
	window   seqWindow        // the same keys ordered by Seq, so Prune is O(removed)
	applies  int              // effects applied, duplicates excluded
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger {
	return &Ledger{
		balances: make(map[string]int64),
		keys:     make(map[string]int64),
	}
}

// ApplyOnce records the dedup key and applies the effect atomically. A
// duplicate is not an error: it returns false, nil and changes nothing.
func (l *Ledger) ApplyOnce(m Message) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := DedupKey(m)
	if _, dup := l.keys[key]; dup {
		return false, nil
	}
	l.remember(key, m.Seq)
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil
}

// NaiveApply applies every delivery, duplicates included. It is the baseline
// that shows what at-least-once delivery does without a dedup table; it is
// not a safe handler.
func (l *Ledger) NaiveApply(m Message) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
}

// MarkBeforeEffect records the dedup key before applying the effect. The
// order is wrong on purpose: with crash set it dies between the two writes,
// the key says "done" though nothing was applied, and the redelivery is
// dropped as a duplicate. The message is lost.
func (l *Ledger) MarkBeforeEffect(m Message, crash bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := DedupKey(m)
	if _, dup := l.keys[key]; dup {
		return nil
	}
	l.remember(key, m.Seq)
	if crash {
		return ErrSimulatedCrash
	}
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return nil
}

// Mark is the lab's, not the book's: MarkBeforeEffect's first write on its
// own, for the student's handler (package exercises), which may call the
// two writes separately. It records the dedup key and reports whether the
// key was new.
func (l *Ledger) Mark(m Message) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := DedupKey(m)
	if _, dup := l.keys[key]; dup {
		return false, nil
	}
	l.remember(key, m.Seq)
	return true, nil
}

// Effect is the lab's, not the book's: MarkBeforeEffect's second write on
// its own. It applies the payment, with no key check.
func (l *Ledger) Effect(m Message) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return nil
}

// Prune forgets every dedup key whose Seq is <= maxSeq and reports how many
// it forgot. It models a retention window: a message older than the window
// that is replayed afterwards is applied again.
func (l *Ledger) Prune(maxSeq int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	removed := 0
	for l.window.len() > 0 && l.window.minSeq() <= maxSeq {
		delete(l.keys, l.window.pop())
		removed++
	}
	return removed
}

// Balance returns the cents applied to an order.
func (l *Ledger) Balance(orderID string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balances[orderID]
}

// Applies reports how many effects were applied.
func (l *Ledger) Applies() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.applies
}

// remember records key with its Seq. The caller holds l.mu.
func (l *Ledger) remember(key string, seq int64) {
	l.keys[key] = seq
	l.window.push(key, seq)
}

// AckStore acknowledges a delivery to the broker.
type AckStore interface {
	Ack(Message) error
}

// MemoryAck is an in-memory broker ack store. Setting Lost (or calling
// LoseNext) makes exactly the next Ack fail with ErrAckLost.
type MemoryAck struct {
	mu    sync.Mutex
	acked map[string]bool
	// Lost loses the next ack, then resets itself. Set it before handing the
	// store to other goroutines, or use LoseNext.
	Lost bool
	acks int
}

// NewMemoryAck returns an empty ack store.
func NewMemoryAck() *MemoryAck {
	return &MemoryAck{acked: make(map[string]bool)}
}

// LoseNext arranges for exactly the next Ack to be lost.
func (a *MemoryAck) LoseNext() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.Lost = true
}

// Ack counts an ack attempt and records it, unless this is the one ack to
// lose.
func (a *MemoryAck) Ack(m Message) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.acks++
	if a.Lost {
		a.Lost = false
		return ErrAckLost
	}
	a.acked[DedupKey(m)] = true
	return nil
}

// Acked reports whether the broker received an ack for m.
func (a *MemoryAck) Acked(m Message) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.acked[DedupKey(m)]
}

// Acks returns the number of ack attempts, lost ones included.
func (a *MemoryAck) Acks() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.acks
}

// Consume handles one delivery: effect first (ApplyOnce), ack second. That
// order is the whole argument of 8.2. A crash or lost ack after the effect
// only causes a redelivery, which ApplyOnce suppresses; the opposite order
// would lose the message. It reports whether this delivery applied the
// effect; on a lost ack it still reports true with the wrapped error. l is
// any Store: the book's Ledger or a real database.
func Consume(l Store, m Message, ack AckStore) (bool, error) {
	applied, err := l.ApplyOnce(m)
	if err != nil {
		return false, fmt.Errorf("inbox: apply %s: %w", m, err)
	}
	if err := ack.Ack(m); err != nil {
		return applied, fmt.Errorf("inbox: ack %s: %w", m, err)
	}
	return applied, nil
}
