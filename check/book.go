package check

import (
	"errors"

	"archlab/harness"
	"archlab/internal/inbox"
	"archlab/internal/ordering"
	"archlab/internal/shardjob"
)

// bookHandler is §8.2's Consume: the key and the effect in one local
// transaction, then the call outside the store a message asks for (made
// on every delivery that gets there, a duplicate's too: the boundary of
// exactly-once), then the ack.
func bookHandler(d *harness.Delivery) error {
	if _, err := d.ApplyOnce(); err != nil {
		return err
	}
	if err := d.Notify(d.Message()); err != nil {
		return err
	}
	return d.Ack()
}

// bookLedger is §8.2's Ledger: the book's own, which already has the
// exercise's shape.
func bookLedger() harness.Ledger { return inbox.NewLedger() }

// bookDecision is §8.3's Consumer.Handle.
func bookDecision(d *harness.EventDelivery) (ordering.Outcome, error) {
	applied, err := d.Apply()
	switch {
	case err == nil && applied:
		return ordering.OutcomeApplied, nil
	case err == nil:
		return ordering.OutcomeDuplicate, nil
	case errors.Is(err, ordering.ErrConflict) && d.Attempt() < d.MaxAttempts():
		return ordering.OutcomeRetry, nil
	}
	return ordering.OutcomeDead, nil
}

// bookLoop is §11.2's Runner.Run, with the takeover fence: resume from the
// checkpoint, commit it under the lease's epoch before any work, apply
// each item to the idempotent sink, commit every N items and at the end.
func bookLoop(w *harness.Worker) error {
	start, err := w.Fence() // the takeover fence, one step
	if err != nil {
		return err
	}
	return runFrom(w, start)
}

// runFrom is the book's loop from offset start: apply each item to the
// idempotent sink, commit every N items counted from start, and at the
// end.
func runFrom(w *harness.Worker, start int) error {
	items, every := w.Items(), w.CommitEvery()
	for i := start; i < len(items); i++ {
		if _, err := w.Apply(items[i]); err != nil {
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

// Book is the book's logic for every exercise, in the shapes the student
// writes. The checker runs it on a failing exercise's shortest schedule to
// show where the student's run parts from the book's (the diagnosis), and
// its tests hold it to done. It is the book's own code, which internal/
// already holds for anyone to read: a student who opens this file reads the
// answer, as one who opens the book does.
func Book() *harness.Students {
	return &harness.Students{Inbox: bookHandler, Ledger: bookLedger, Ordering: bookDecision, Projection: bookProjection,
		Shardjob: bookLoop, Runner: bookRunner()}
}

// bookRunner is §11.2's mechanism: the book's own NewCheckpoint and
// Runner, as internal/shardjob holds them.
// Its constructors are named functions, so that isBook can know them.
func bookRunner() *harness.ShardMechanism {
	return &harness.ShardMechanism{NewCheckpoint: bookCheckpoint, NewRunner: bookNewRunner}
}

func bookCheckpoint() harness.Checkpoint { return shardjob.NewCheckpoint() }

func bookNewRunner(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, every int) harness.ShardRunner {
	return &shardjob.Runner{Sink: sink, CP: cp, Epoch: epoch, CommitEvery: every}
}

// bookProjection is §8.3's own Projection and Consumer, in the shape the
// projection exercise takes them.
var bookProjection = &harness.ProjectionMechanism{
	NewProjection: func() harness.StudentProjection { return bookRows{ordering.NewProjection()} },
	NewConsumer: func(p harness.StudentProjection, maxAttempts int) harness.StudentConsumer {
		return bookConsumer{ordering.NewConsumer(p.(bookRows).Projection, maxAttempts)}
	},
}

// bookRows is the book's Projection with the reconciler's overwrite, which
// the book keeps inside Reconcile: a repair of one row is Reconcile of
// that row from a source that knows only it.
type bookRows struct{ *ordering.Projection }

func (p bookRows) Repair(orderID string, st ordering.OrderState) {
	ordering.Reconcile(p.Projection, ordering.MapSource{orderID: st}, []string{orderID})
}

// bookConsumer is the book's Consumer with its budget read by a method.
type bookConsumer struct{ *ordering.Consumer }

func (c bookConsumer) Budget() int { return c.MaxAttempts }
