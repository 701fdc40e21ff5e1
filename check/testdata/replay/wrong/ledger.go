package exercises

import (
	"sync"

	"archlab/internal/inbox"
)

// Ledger joins producer and ID without a separator: wrong (key-separator).
type Ledger struct {
	mu       sync.Mutex
	keys     map[string]int64
	balances map[string]int64
	applies  int
}

func NewLedger() *Ledger {
	return &Ledger{keys: map[string]int64{}, balances: map[string]int64{}}
}

func (l *Ledger) ApplyOnce(m inbox.Message) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := m.Producer + m.ID // the mistake: no separator
	if _, dup := l.keys[key]; dup {
		return false, nil
	}
	l.keys[key] = m.Seq
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil
}

func (l *Ledger) Prune(maxSeq int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for k, seq := range l.keys {
		if seq <= maxSeq {
			delete(l.keys, k)
			n++
		}
	}
	return n
}

func (l *Ledger) Balance(orderID string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balances[orderID]
}

func (l *Ledger) Applies() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.applies
}
