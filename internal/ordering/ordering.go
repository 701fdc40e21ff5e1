package ordering

import (
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
)

var (
	// ErrConflict means the event arrived before the version it builds on.
	// It is worth retrying: the missing event may still arrive.
	ErrConflict = errors.New("event version conflict")
	// ErrPoison means the event can never be applied as written (unknown
	// type, or a version its type never has). Retrying cannot help.
	ErrPoison = errors.New("poison event")
)

// Status is the state of an order in the projection.
type Status string

// The order state machine: created, then reserved (v1), paid (v2) and
// fulfilled (v3).
const (
	StatusCreated   Status = "CREATED"
	StatusReserved  Status = "INVENTORY_RESERVED"
	StatusPaid      Status = "PAID"
	StatusFulfilled Status = "FULFILLED"
)

// Event is one order event. Version is the projection version it produces.
type Event struct {
	ID      string
	OrderID string
	Version int64
	Type    string
}

// String is the event's canonical text form, with the order it belongs
// to: "evt-2(o-1 pay v2)".
func (e Event) String() string {
	return fmt.Sprintf("%s(%s %s v%d)", e.ID, e.OrderID, e.Type, e.Version)
}

// OrderState is the projection row of one order.
type OrderState struct {
	Version int64
	Status  Status
}

// String is the row's canonical text form, as the book prints it: "v2/PAID".
// A row no event has reached yet has no status and prints as "v0".
func (s OrderState) String() string {
	if s.Status == "" {
		return fmt.Sprintf("v%d", s.Version)
	}
	return fmt.Sprintf("v%d/%s", s.Version, s.Status)
}

// target returns the status and version an event type produces, or ErrPoison
// for a type the state machine does not know.
func target(e Event) (Status, int64, error) {
	switch e.Type {
	case "reserve":
		return StatusReserved, 1, nil
	case "pay":
		return StatusPaid, 2, nil
	case "fulfill":
		return StatusFulfilled, 3, nil
	}
	return "", 0, fmt.Errorf("ordering: event %s has type %q: %w", e.ID, e.Type, ErrPoison)
}

// Projection is the read model: one row per order, advanced one version at
// a time.
type Projection struct {
	mu      sync.Mutex
	orders  map[string]OrderState
	applied int
}

// NewProjection returns an empty projection.
func NewProjection() *Projection {
	return &Projection{orders: make(map[string]OrderState)}
}

// Apply advances the order to e.Version. The checks come in the book's order:
//   - a malformed event (unknown type, wrong version for its type) is
//     ErrPoison;
//   - a version at or below the current one is a duplicate: false, nil;
//   - a version that skips one is ErrConflict (an earlier event is missing);
//   - otherwise the row moves to e.Version and Apply returns true.
func (p *Projection) Apply(e Event) (bool, error) {
	status, want, err := target(e)
	if err != nil {
		return false, err
	}
	if e.Version != want {
		return false, fmt.Errorf("ordering: %s expects v%d, got v%d: %w", e.Type, want, e.Version, ErrPoison)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	cur := p.orders[e.OrderID]
	if e.Version <= cur.Version {
		return false, nil
	}
	if e.Version != cur.Version+1 {
		return false, fmt.Errorf("ordering: order %s at v%d, got v%d: %w", e.OrderID, cur.Version, e.Version, ErrConflict)
	}
	p.orders[e.OrderID] = OrderState{Version: e.Version, Status: status}
	p.applied++
	return true, nil
}

// Get returns the row of one order and whether it exists.
func (p *Projection) Get(orderID string) (OrderState, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.orders[orderID]
	return st, ok
}

// AppliedCount reports how many version advances Apply made. Repairs by
// Reconcile are not counted: they are not events.
func (p *Projection) AppliedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied
}

// Partition maps an order ID to one of partitions partitions by FNV-1a, so
// every event of one order lands on the same partition and keeps its order.
// A non-positive partition count maps everything to partition 0.
func Partition(orderID string, partitions int) int {
	if partitions <= 0 {
		return 0
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(orderID)) // a hash.Hash never returns an error
	return int(h.Sum32() % uint32(partitions))
}

// Outcome tells the dispatcher what to do with a delivery.
type Outcome string

// The four outcomes of Consumer.Handle.
const (
	OutcomeApplied   Outcome = "applied"
	OutcomeDuplicate Outcome = "duplicate"
	OutcomeRetry     Outcome = "retry"
	OutcomeDead      Outcome = "dead"
)

// DLQEntry is one dead-lettered event with the attempt it died on.
type DLQEntry struct {
	Event    Event
	Attempts int
	Reason   string
}

// Consumer applies the events of one partition to a projection and decides,
// for each failure, between retrying and dead-lettering.
type Consumer struct {
	mu          sync.Mutex
	proj        *Projection
	MaxAttempts int // retry budget for a conflict, counted in deliveries
	dlq         []DLQEntry
}

// NewConsumer returns a consumer with a retry budget of maxAttempts
// deliveries per event; a non-positive budget means the default, 3.
func NewConsumer(p *Projection, maxAttempts int) *Consumer {
	if maxAttempts <= 0 {
		maxAttempts = 3
	}
	return &Consumer{proj: p, MaxAttempts: maxAttempts}
}

// Handle classifies one delivery. attempt is the broker's 1-based delivery
// count for this event; the caller redelivers when the outcome is
// OutcomeRetry. Poison goes to the DLQ at once; a conflict is retried until
// attempt reaches MaxAttempts, then dead-lettered.
func (c *Consumer) Handle(e Event, attempt int) Outcome {
	applied, err := c.proj.Apply(e)
	switch {
	case err == nil && applied:
		return OutcomeApplied
	case err == nil:
		return OutcomeDuplicate
	case errors.Is(err, ErrConflict) && attempt < c.MaxAttempts:
		return OutcomeRetry
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dlq = append(c.dlq, DLQEntry{Event: e, Attempts: attempt, Reason: err.Error()})
	return OutcomeDead
}

// LastDead returns the newest dead letter, without copying the queue: a
// broker that keeps the DLQ elsewhere (a topic) takes each entry as it
// comes.
func (c *Consumer) LastDead() (DLQEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.dlq) == 0 {
		return DLQEntry{}, false
	}
	return c.dlq[len(c.dlq)-1], true
}

// DLQ returns a copy of the dead-letter queue, oldest first.
func (c *Consumer) DLQ() []DLQEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]DLQEntry(nil), c.dlq...)
}

// Source is the authoritative order store that reconciliation trusts.
type Source interface {
	Status(orderID string) (OrderState, bool)
}

// MapSource is an in-memory Source for tests and drills.
type MapSource map[string]OrderState

// Status implements Source.
func (m MapSource) Status(orderID string) (OrderState, bool) {
	st, ok := m[orderID]
	return st, ok
}

// Fix is one repair made by Reconcile.
type Fix struct {
	OrderID string
	From    OrderState
	To      OrderState
}

// Reconcile compares the projection with the source of truth for the given
// orders, in the given order, and overwrites every row that differs. It
// repairs what replay cannot: events that were dead-lettered or never
// produced. Orders the source does not know are left alone. It holds the
// projection's lock for the whole pass, so no Apply lands between a row's
// comparison and its repair.
func Reconcile(p *Projection, src Source, orderIDs []string) []Fix {
	p.mu.Lock()
	defer p.mu.Unlock()
	return reconcile(lockedRows{p}, src, orderIDs)
}

// Rows is a read model as reconciliation sees it: a row read, and a row
// overwritten from the source of truth. A repair is not an event: it
// bypasses the version gate and is not counted as applied.
type Rows interface {
	Get(orderID string) (OrderState, bool)
	Repair(orderID string, st OrderState)
}

// ReconcileRows is Reconcile over any read model with Rows, such as a
// projection written outside this package (the lab's exercises): the same
// comparison and repairs, one row at a time.
func ReconcileRows(p Rows, src Source, orderIDs []string) []Fix {
	return reconcile(p, src, orderIDs)
}

// reconcile is the loop both share.
func reconcile(p Rows, src Source, orderIDs []string) []Fix {
	var fixes []Fix
	for _, id := range orderIDs {
		want, ok := src.Status(id)
		if !ok {
			continue
		}
		if got, _ := p.Get(id); got != want {
			p.Repair(id, want)
			fixes = append(fixes, Fix{OrderID: id, From: got, To: want})
		}
	}
	return fixes
}

// lockedRows is a Projection's rows read and written under a lock its
// caller already holds.
type lockedRows struct{ p *Projection }

func (r lockedRows) Get(orderID string) (OrderState, bool) {
	st, ok := r.p.orders[orderID]
	return st, ok
}

func (r lockedRows) Repair(orderID string, st OrderState) { r.p.orders[orderID] = st }
