package exercises

import (
	"errors"
	"fmt"
	"sync"

	"archlab/internal/ordering"
)

// Projection takes an older version for a conflict: wrong (older).
type Projection struct {
	mu      sync.Mutex
	orders  map[string]ordering.OrderState
	applied int
}

func NewProjection() *Projection {
	return &Projection{orders: make(map[string]ordering.OrderState)}
}

func (p *Projection) Apply(e ordering.Event) (bool, error) {
	status, want, err := target(e)
	if err != nil {
		return false, err
	}
	if e.Version != want {
		return false, fmt.Errorf("%s is always v%d: %w", e.Type, want, ordering.ErrPoison)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	cur := p.orders[e.OrderID].Version
	switch {
	case e.Version < cur: // the mistake: an older version is no conflict, it is done
		return false, fmt.Errorf("order %s at v%d, got v%d: %w", e.OrderID, cur, e.Version, ordering.ErrConflict)
	case e.Version == cur:
		return false, nil
	case e.Version > cur+1:
		return false, fmt.Errorf("order %s at v%d, got v%d: %w", e.OrderID, cur, e.Version, ordering.ErrConflict)
	}
	p.orders[e.OrderID] = ordering.OrderState{Version: e.Version, Status: status}
	p.applied++
	return true, nil
}

func (p *Projection) Get(orderID string) (ordering.OrderState, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.orders[orderID]
	return st, ok
}

func (p *Projection) AppliedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied
}

func (p *Projection) Repair(orderID string, st ordering.OrderState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.orders[orderID] = st
}

func target(e ordering.Event) (ordering.Status, int64, error) {
	switch e.Type {
	case "reserve":
		return ordering.StatusReserved, 1, nil
	case "pay":
		return ordering.StatusPaid, 2, nil
	case "fulfill":
		return ordering.StatusFulfilled, 3, nil
	}
	return "", 0, fmt.Errorf("ordering: event %s has type %q: %w", e.ID, e.Type, ordering.ErrPoison)
}

type Consumer struct {
	mu          sync.Mutex
	proj        *Projection
	MaxAttempts int
	dlq         []ordering.DLQEntry
}

func NewConsumer(p *Projection, maxAttempts int) *Consumer {
	if maxAttempts <= 0 {
		maxAttempts = 3
	}
	return &Consumer{proj: p, MaxAttempts: maxAttempts}
}

func (c *Consumer) Handle(e ordering.Event, attempt int) ordering.Outcome {
	applied, err := c.proj.Apply(e)
	switch {
	case err == nil && applied:
		return ordering.OutcomeApplied
	case err == nil:
		return ordering.OutcomeDuplicate
	case errors.Is(err, ordering.ErrConflict) && attempt < c.MaxAttempts:
		return ordering.OutcomeRetry
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dlq = append(c.dlq, ordering.DLQEntry{Event: e, Attempts: attempt, Reason: err.Error()})
	return ordering.OutcomeDead
}

func (c *Consumer) DLQ() []ordering.DLQEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ordering.DLQEntry(nil), c.dlq...)
}
