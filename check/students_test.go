package check

import (
	"errors"
	"fmt"
	"sync"

	"archlab/harness"
	"archlab/internal/inbox"
	"archlab/internal/ordering"
)

// The known-wrong variants the checker must catch. They live here, in a
// test file; the book's logic they are measured against is Book (book.go).

type variant struct {
	name     string
	exercise string
	students *harness.Students
}

// wrong lists the known-wrong variants, three or more per exercise.
var wrong = []variant{
	// §8.2
	{"naive", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		if err := d.NaiveApply(); err != nil {
			return err
		}
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		return d.Ack()
	}}},
	{"mark-before-effect", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		fresh, err := d.Mark()
		if err != nil {
			return err
		}
		if fresh {
			if err := d.Effect(); err != nil {
				return err
			}
		}
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		return d.Ack()
	}}},
	{"ack-before-effect", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		if err := d.Ack(); err != nil {
			return err
		}
		if _, err := d.ApplyOnce(); err != nil {
			return err
		}
		return d.Notify(d.Message())
	}}},
	// A durable inbox with no recovery: stored, acked, and processed
	// after the ack; a crash right after the ack leaves the row stored
	// and never processed (issue 33).
	{"durable-no-recovery", "consumer-handler", &harness.Students{Inbox: durableInbox}},
	// A durable inbox that acks before it stores, with a recovery: a crash
	// right after the ack loses the message, which no row holds (issue
	// 45: it was named no-recovery, though it has one).
	{"durable-ack-before-store", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		if err := d.Ack(); err != nil && !errors.Is(err, inbox.ErrAckLost) {
			return err
		}
		if _, err := d.Store(); err != nil {
			return err
		}
		return processPending(d)
	}, Recover: durableRecovery}},
	{"effect-before-mark", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		if err := d.Effect(); err != nil {
			return err
		}
		if _, err := d.Mark(); err != nil {
			return err
		}
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		return d.Ack()
	}}},
	// Safe under every crash (one transaction), wrong when the store
	// refuses the write: the error is swallowed and the message acked, so
	// the broker forgets a payment that never landed (issue 33).
	{"acks-a-failed-effect", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		if _, err := d.ApplyOnce(); err != nil && !errors.Is(err, harness.ErrEffectFailed) {
			return err
		}
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		return d.Ack()
	}}},
	{"no-ack", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		if _, err := d.ApplyOnce(); err != nil {
			return err
		}
		return d.Notify(d.Message())
	}}},
	// Right under every crash for the payment, wrong for the call outside
	// the store: made only when ApplyOnce reports a new payment, it is
	// lost when the consumer dies between the commit and the call, and the
	// redelivery finds the key (issue 33, point 4).
	{"notify-only-when-new", "consumer-handler", &harness.Students{Inbox: func(d *harness.Delivery) error {
		fresh, err := d.ApplyOnce()
		if err != nil {
			return err
		}
		if fresh {
			if err := d.Notify(d.Message()); err != nil {
				return err
			}
		}
		return d.Ack()
	}}},
	// §8.2, the mechanism: the book's Ledger with one classic mistake each
	// (wrongLedger, below).
	{"ledger-no-key", "ledger", ledgerWith(noKey)},
	{"ledger-event-id-key", "ledger", ledgerWith(eventIDKey)},
	{"ledger-duplicate-applies", "ledger", ledgerWith(duplicateApplies)},
	{"ledger-prune-all", "ledger", ledgerWith(pruneAll)},
	{"ledger-prune-exclusive", "ledger", ledgerWith(pruneExclusive)},
	{"ledger-counts-duplicates", "ledger", ledgerWith(countsDuplicates)},
	// §8.3
	{"retry-forever", "projection-decision", &harness.Students{Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		applied, err := d.Apply()
		switch {
		case err == nil && applied:
			return ordering.OutcomeApplied, nil
		case err == nil:
			return ordering.OutcomeDuplicate, nil
		case errors.Is(err, ordering.ErrConflict):
			return ordering.OutcomeRetry, nil
		}
		return ordering.OutcomeDead, nil
	}}},
	{"retry-poison", "projection-decision", &harness.Students{Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		applied, err := d.Apply()
		switch {
		case err == nil && applied:
			return ordering.OutcomeApplied, nil
		case err == nil:
			return ordering.OutcomeDuplicate, nil
		case d.Attempt() < d.MaxAttempts():
			return ordering.OutcomeRetry, nil
		}
		return ordering.OutcomeDead, nil
	}}},
	// A duplicate taken for a conflict: retried until the budget is spent,
	// then dead-lettered, though the projection already holds it.
	{"duplicate-as-conflict", "projection-decision", &harness.Students{Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		applied, err := d.Apply()
		switch {
		case err == nil && applied:
			return ordering.OutcomeApplied, nil
		case errors.Is(err, ordering.ErrPoison):
			return ordering.OutcomeDead, nil
		case d.Attempt() < d.MaxAttempts():
			return ordering.OutcomeRetry, nil
		}
		return ordering.OutcomeDead, nil
	}}},
	// A duplicate sent straight to the DLQ.
	{"duplicate-to-dlq", "projection-decision", &harness.Students{Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		applied, err := d.Apply()
		switch {
		case err == nil && applied:
			return ordering.OutcomeApplied, nil
		case errors.Is(err, ordering.ErrConflict) && d.Attempt() < d.MaxAttempts():
			return ordering.OutcomeRetry, nil
		}
		return ordering.OutcomeDead, nil
	}}},
	{"conflict-straight-to-dlq", "projection-decision", &harness.Students{Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		applied, err := d.Apply()
		switch {
		case err == nil && applied:
			return ordering.OutcomeApplied, nil
		case err == nil:
			return ordering.OutcomeDuplicate, nil
		}
		return ordering.OutcomeDead, nil
	}}},
	{"duplicate-as-applied", "projection-decision", &harness.Students{Ordering: func(d *harness.EventDelivery) (ordering.Outcome, error) {
		_, err := d.Apply()
		switch {
		case err == nil:
			return ordering.OutcomeApplied, nil
		case errors.Is(err, ordering.ErrConflict) && d.Attempt() < d.MaxAttempts():
			return ordering.OutcomeRetry, nil
		}
		return ordering.OutcomeDead, nil
	}}},
	// §11.2
	{"no-epoch-fence", "shard-loop", &harness.Students{Shardjob: func(w *harness.Worker) error {
		start := w.Load()
		return runFrom(w, start)
	}}},
	// The fence as two calls: a zombie's commit between the Load and the
	// Commit is accepted, and the fence then moves it back.
	{"two-call-fence", "shard-loop", &harness.Students{Shardjob: func(w *harness.Worker) error {
		start := w.Load()
		if err := w.Commit(w.Epoch(), start); err != nil {
			return err
		}
		return runFrom(w, start)
	}}},
	{"commit-before-apply", "shard-loop", &harness.Students{Shardjob: func(w *harness.Worker) error {
		start := w.Load()
		if err := w.Commit(w.Epoch(), start); err != nil {
			return err
		}
		items, every := w.Items(), w.CommitEvery()
		for i := start; i < len(items); i++ {
			if every > 0 && (i+1-start)%every == 0 {
				if err := w.Commit(w.Epoch(), i+1); err != nil {
					return err
				}
			}
			if _, err := w.Apply(items[i]); err != nil {
				return err
			}
		}
		return w.Commit(w.Epoch(), len(items))
	}}},
	// A worker pool's dispatcher: the checkpoint moves past an item as the
	// item is handed out, before its effect. It fences its takeover and
	// every crash right after an Apply finds the checkpoint where the
	// book's loop leaves it; a crash between that commit and the effect
	// loses the item (issue 33, a real worker's bug).
	{"commit-ahead", "shard-loop", &harness.Students{Shardjob: func(w *harness.Worker) error {
		start, err := w.Fence()
		if err != nil {
			return err
		}
		items, every := w.Items(), w.CommitEvery()
		for i := start; i < len(items); i++ {
			if every > 0 && (i+1-start)%every == 0 {
				if err := w.Commit(w.Epoch(), i+1); err != nil {
					return err
				}
			}
			if _, err := w.Apply(items[i]); err != nil {
				return err
			}
		}
		return w.Commit(w.Epoch(), len(items))
	}}},
	{"restart-from-zero", "shard-loop", &harness.Students{Shardjob: func(w *harness.Worker) error {
		if err := w.Commit(w.Epoch(), w.Load()); err != nil {
			return err
		}
		items, every := w.Items(), w.CommitEvery()
		for i := 0; i < len(items); i++ {
			if _, err := w.Apply(items[i]); err != nil {
				return err
			}
			if every > 0 && (i+1)%every == 0 {
				if err := w.Commit(w.Epoch(), i+1); err != nil {
					return err
				}
			}
		}
		return w.Commit(w.Epoch(), len(items))
	}}},
	{"commit-only-at-end", "shard-loop", &harness.Students{Shardjob: func(w *harness.Worker) error {
		start := w.Load()
		if err := w.Commit(w.Epoch(), start); err != nil {
			return err
		}
		items := w.Items()
		for i := start; i < len(items); i++ {
			if _, err := w.Apply(items[i]); err != nil {
				return err
			}
		}
		return w.Commit(w.Epoch(), len(items))
	}}},
}

// mistake is one of §8.2's classic mistakes in a ledger.
type mistake int

const (
	noKey            mistake = iota // ApplyOnce applies the effect and forgets to record the key
	eventIDKey                      // the key is the event ID alone: dedup-scope's mistake
	duplicateApplies                // a duplicate is reported false, yet its effect still lands
	pruneAll                        // Prune forgets every key, the window's newer ones too
	pruneExclusive                  // Prune keeps the key at maxSeq: Seq < maxSeq, not <=
	countsDuplicates                // Applies counts calls, duplicates included
)

// wrongLedger is the book's Ledger, written the plain way (a scan for
// Prune), with one mistake.
type wrongLedger struct {
	mistake  mistake
	mu       sync.Mutex
	balances map[string]int64
	keys     map[string]int64 // dedup key -> Seq
	applies  int
}

func ledgerWith(m mistake) *harness.Students {
	return &harness.Students{Ledger: func() harness.Ledger {
		return &wrongLedger{mistake: m, balances: map[string]int64{}, keys: map[string]int64{}}
	}}
}

func (l *wrongLedger) ApplyOnce(m inbox.Message) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := inbox.DedupKey(m)
	if l.mistake == eventIDKey {
		key = m.ID
	}
	if _, dup := l.keys[key]; dup {
		switch l.mistake {
		case duplicateApplies:
			l.balances[m.OrderID] += m.AmountCents
		case countsDuplicates:
			l.applies++
		}
		return false, nil
	}
	if l.mistake != noKey {
		l.keys[key] = m.Seq
	}
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil
}

func (l *wrongLedger) Prune(maxSeq int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	removed := 0
	for key, seq := range l.keys {
		if l.mistake == pruneAll || seq < maxSeq || seq == maxSeq && l.mistake != pruneExclusive {
			delete(l.keys, key)
			removed++
		}
	}
	return removed
}

func (l *wrongLedger) Balance(orderID string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balances[orderID]
}

func (l *wrongLedger) Applies() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.applies
}

// §8.3, the mechanism tier: the book's classic mistakes in the version
// gate and in the consumer's policy, each one flaw in an otherwise right
// projection (flawedProjection, below).
var wrongProjection = []struct {
	name string
	f    flaws
}{
	{"gap-applied", flaws{gapApplied: true}},                     // version n+2 accepted over n
	{"duplicate-as-conflict", flaws{dupConflict: true}},          // an old version is ErrConflict
	{"version-moves-back", flaws{backwards: true}},               // only an equal version is a duplicate
	{"poison-retried", flaws{retryPoison: true}},                 // poison spends the retry budget
	{"conflict-past-budget", flaws{pastBudget: true}},            // attempt <= MaxAttempts retries once more
	{"conflict-straight-to-dlq", flaws{noRetry: true}},           // a gap is dead-lettered at once
	{"duplicates-counted-applied", flaws{countDuplicates: true}}, // AppliedCount counts a duplicate
}

func init() {
	for _, v := range wrongProjection {
		wrong = append(wrong, variant{v.name, "projection", &harness.Students{Projection: v.f.mechanism()}})
	}
}

// flaws are the mistakes a flawedProjection makes; the zero value makes
// none, and is the book's logic.
type flaws struct {
	gapApplied, dupConflict, backwards, countDuplicates bool
	retryPoison, pastBudget, noRetry                    bool
}

func (f flaws) mechanism() *harness.ProjectionMechanism {
	return &harness.ProjectionMechanism{
		NewProjection: func() harness.StudentProjection {
			return &flawedProjection{f: f, rows: map[string]ordering.OrderState{}}
		},
		NewConsumer: func(p harness.StudentProjection, n int) harness.StudentConsumer {
			if n <= 0 {
				n = 3
			}
			return &flawedConsumer{f: f, p: p, max: n}
		},
	}
}

// flawedProjection is a student's projection, written apart from the book's.
type flawedProjection struct {
	f       flaws
	rows    map[string]ordering.OrderState
	applied int
}

var targets = map[string]struct {
	status  ordering.Status
	version int64
}{"reserve": {ordering.StatusReserved, 1}, "pay": {ordering.StatusPaid, 2}, "fulfill": {ordering.StatusFulfilled, 3}}

func (p *flawedProjection) Apply(e ordering.Event) (bool, error) {
	t, ok := targets[e.Type]
	if !ok || t.version != e.Version {
		return false, fmt.Errorf("%s cannot apply: %w", e, ordering.ErrPoison)
	}
	cur := p.rows[e.OrderID].Version
	switch {
	case e.Version == cur || e.Version < cur && !p.f.backwards:
		if p.f.dupConflict {
			return false, fmt.Errorf("%s at v%d: %w", e, cur, ordering.ErrConflict)
		}
		if p.f.countDuplicates {
			p.applied++
		}
		return false, nil
	case e.Version > cur+1 && !p.f.gapApplied:
		return false, fmt.Errorf("%s at v%d: %w", e, cur, ordering.ErrConflict)
	}
	p.rows[e.OrderID] = ordering.OrderState{Version: e.Version, Status: t.status}
	p.applied++
	return true, nil
}

func (p *flawedProjection) Get(id string) (ordering.OrderState, bool) {
	st, ok := p.rows[id]
	return st, ok
}

func (p *flawedProjection) AppliedCount() int { return p.applied }

func (p *flawedProjection) Repair(id string, st ordering.OrderState) { p.rows[id] = st }

type flawedConsumer struct {
	f   flaws
	p   harness.StudentProjection
	max int
	dlq []ordering.DLQEntry
}

func (c *flawedConsumer) Handle(e ordering.Event, attempt int) ordering.Outcome {
	applied, err := c.p.Apply(e)
	budget := attempt < c.max
	if c.f.pastBudget {
		budget = attempt <= c.max
	}
	switch {
	case err == nil && applied:
		return ordering.OutcomeApplied
	case err == nil:
		return ordering.OutcomeDuplicate
	case errors.Is(err, ordering.ErrConflict) && budget && !c.f.noRetry,
		errors.Is(err, ordering.ErrPoison) && budget && c.f.retryPoison:
		return ordering.OutcomeRetry
	}
	c.dlq = append(c.dlq, ordering.DLQEntry{Event: e, Attempts: attempt, Reason: err.Error()})
	return ordering.OutcomeDead
}

func (c *flawedConsumer) DLQ() []ordering.DLQEntry { return append([]ordering.DLQEntry(nil), c.dlq...) }

func (c *flawedConsumer) Budget() int { return c.max }

// durableInbox stores, acks, then processes every row not done yet: a
// durable inbox, right only with a recovery step (durableRecovery).
func durableInbox(d *harness.Delivery) error {
	if _, err := d.Store(); err != nil {
		return err
	}
	// A lost ack leaves the row stored: process it all the same.
	ackErr := d.Ack()
	if errors.Is(ackErr, harness.ErrCrashed) {
		return ackErr
	}
	for _, m := range d.Pending() {
		if err := d.Notify(m); err != nil {
			return err
		}
		if _, err := d.Process(m); err != nil {
			return err
		}
	}
	return ackErr
}

// durableRecovery processes, at the restart, the rows a crash left.
func durableRecovery(r *harness.Restart) error {
	for _, m := range r.Pending() {
		if err := r.Notify(m); err != nil {
			return err
		}
		if _, err := r.Process(m); err != nil {
			return err
		}
	}
	return nil
}

// processPending is a durable handler's last move: each row its inbox
// table holds, its outside call and then its processing.
func processPending(d *harness.Delivery) error {
	for _, m := range d.Pending() {
		if err := d.Notify(m); err != nil {
			return err
		}
		if _, err := d.Process(m); err != nil {
			return err
		}
	}
	return nil
}
