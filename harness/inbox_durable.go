package harness

import (
	"errors"
	"fmt"

	"archlab/internal/inbox"
)

// A durable inbox: the consumer stores the message in a table of its own in
// its local store, acks it, and processes the stored rows after: each
// row's effect and its being done in one local transaction (the book's
// ApplyOnce, whose dedup key is the row's done mark). A consumer that dies
// after its ack has the row still there. After a crash the consumer
// process restarts with its local store intact and runs its recovery step
// (Students.Recover) before its next delivery, and once more before the
// books are read: the design is judged by what it loses or doubles, not by
// the order of its calls.
//
// The book's strategies have no recovery step: for them a restart changes
// nothing and is not shown, so their runs read as they always did.

// DurableInbox is the strategy a drill file names for the lab's durable
// inbox: store, ack, process the rows; the recovery processes the rows a
// crash left (durableHandler, durableRecover).
const DurableInbox Strategy = "durable-inbox"

// ErrNotStored is Process asked for a message the inbox table does not
// hold.
var ErrNotStored = errors.New("Process takes a message the inbox table holds: Store it first")

// durableStudents is the durable inbox, written with the student's verbs.
var durableStudents = &Students{Inbox: durableHandler, Recover: durableRecover, lab: true}

// labStrategies are the lab's designs written with the student's verbs.
var labStrategies = map[Strategy]*Students{DurableInbox: durableStudents, Outbox: outboxStudents, Lease: leaseStudents}

// LabStudents is the lab's design of that strategy (durable-inbox,
// outbox) as a student's code, nil for another strategy: what a student
// who copies it verbatim hands to archlab check.
func LabStudents(strategy Strategy) *Students { return labStrategies[strategy] }

func durableHandler(d *Delivery) error {
	if _, err := d.Store(); err != nil {
		return err
	}
	// A lost ack leaves the row stored: process it all the same.
	ackErr := d.Ack()
	if errors.Is(ackErr, ErrCrashed) {
		return ackErr
	}
	for _, m := range d.Pending() {
		// The outside call before the row is done: a crash between the
		// two leaves the row pending, and the recovery calls again.
		if err := d.Notify(m); err != nil {
			return err
		}
		if _, err := d.Process(m); err != nil {
			return err
		}
	}
	return ackErr
}

func durableRecover(r *Restart) error {
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

// Store writes the delivered message into the consumer's inbox table,
// committed at once, and reports whether it was new: a lone write (a crash
// between the writes strikes right after it). The table's key is the
// message's dedup key.
func (d *Delivery) Store() (bool, error) {
	d.watch.Call("d.Store")
	return d.h.storeRow(d.env, d.i)
}

// Pending lists the inbox table's rows not processed yet, in the order
// the messages were declared.
func (d *Delivery) Pending() []inbox.Message {
	d.watch.Call("d.Pending")
	return d.h.pending(d.env)
}

// Process applies a stored row's effect and marks it done, in one local
// transaction; false, nil for a row already done. A crash between the
// writes falls inside it: nothing commits.
func (d *Delivery) Process(m inbox.Message) (bool, error) {
	d.watch.Call("d.Process")
	return d.h.process(d.env, m)
}

// Restart is the consumer's restart: its local store as the crash left
// it, and the verbs of its inbox table. No fault strikes during it.
type Restart struct {
	h   *Inbox
	env *deliveryEnv
}

// Pending lists the inbox table's rows not processed yet.
func (r *Restart) Pending() []inbox.Message {
	r.h.students.watch().Call("r.Pending")
	return r.h.pending(r.env)
}

// Notify is Delivery.Notify, at the restart: the outside call of a row
// the recovery processes.
func (r *Restart) Notify(m inbox.Message) error {
	r.h.students.watch().Call("r.Notify")
	return r.env.Notify(m)
}

// Process is Delivery.Process, at the restart.
func (r *Restart) Process(m inbox.Message) (bool, error) {
	r.h.students.watch().Call("r.Process")
	return r.h.process(r.env, m)
}

// storeRow is Store for message i.
func (h *Inbox) storeRow(d *deliveryEnv, i int) (bool, error) {
	h.durable = true
	if d.lone("Store") {
		return false, ErrCrashed
	}
	fresh := !h.stored[i]
	h.stored[i] = true
	res := M("res.stored")
	if !fresh {
		res = M("res.duplicate")
	}
	h.step("consumer", "ledger", M("durable.step.store", h.msgs[i]), res, Neutral)
	d.afterLone()
	return fresh, nil
}

// pending is Pending: a read, so the consumer may die at it (before its
// first call, or after its ack).
func (h *Inbox) pending(d *deliveryEnv) []inbox.Message {
	h.durable = true
	if d.begin("Pending") {
		return nil
	}
	var out []inbox.Message
	for j, m := range h.msgs {
		if h.stored[j] && !h.done[j] {
			out = append(out, m)
		}
	}
	return out
}

// process is Process: the book's ApplyOnce for a stored row.
func (h *Inbox) process(d *deliveryEnv, m inbox.Message) (bool, error) {
	h.durable = true
	if h.onRecovery != nil {
		h.onRecovery()
	}
	j := -1
	for k, x := range h.msgs {
		if x == m && h.stored[k] {
			j = k
			break
		}
	}
	if j < 0 {
		return false, fmt.Errorf("%w: %s", ErrNotStored, m)
	}
	if d.transaction("Process") {
		return false, ErrCrashed
	}
	if d.failEffect {
		h.fault("consumer", "ledger", M("durable.step.process", m), M("res.effect-failed"))
		return false, ErrEffectFailed
	}
	var fresh bool
	applied, err := d.measure(func() (err error) { fresh, err = d.store.ApplyOnce(m); return err })
	if err != nil {
		return false, d.fail(err)
	}
	h.done[j] = true
	if applied {
		h.applied[j]++
	}
	w := Wrote{Call: "ApplyOnce", Applied: applied}
	h.noteKey(j, w)
	h.recordWrite(j, M("durable.step.process", m), applied)
	return fresh, nil
}

// restart is the consumer process coming back after a crash, before the
// broker's next delivery and before the books are read: the student's
// recovery step runs, with no fault. It is shown from the recovery's
// first Process (recover).
func (h *Inbox) restart() error {
	if !h.down {
		return nil
	}
	return h.recover()
}

// Settle ends the run for the books: the explorer calls it when a
// schedule ends, as the reader's verdict and the counters do.
func (h *Inbox) Settle() error { return h.settle() }

// settle is the consumer starting once more before the books are read
// (the counters, the reader's verdict): its recovery runs a last time, as
// a durable inbox's processor would come back to a row it could not
// process. Once per run.
func (h *Inbox) settle() error {
	if h.settled {
		return nil
	}
	h.settled = true
	return h.recover()
}

// recover runs the recovery step: after a crash (down), or before the
// books are read. It is shown from its first Process.
func (h *Inbox) recover() error {
	action := M("durable.step.settle")
	if h.down {
		action = M("durable.step.restart")
	}
	h.down = false
	if h.students == nil || h.students.Recover == nil {
		return nil
	}
	// A gap row of the step may strike in the restart: the consumer dies
	// again, and its recovery starts once more, with no fault.
	env := &deliveryEnv{store: h.store, model: true, gap: h.gap}
	env.died = func(p Point, inside string) { h.recordCrash(p, inside, env.calls) }
	env.notify = func(m inbox.Message) {
		if h.onRecovery != nil {
			h.onRecovery()
		}
		h.notifyFor(m)
	}
	shown := false
	r := &Restart{h: h, env: env}
	h.onRecovery = func() {
		if !shown {
			shown = true
			h.step("consumer", "consumer", action, M("res.recovering"), Neutral)
		}
	}
	defer func() { h.onRecovery = nil }()
	err := h.students.Recover(r)
	if env.err != nil {
		err = env.err
	}
	h.gapCalls = env.calls
	if env.dead && (err == nil || expected(err)) {
		h.gap, h.gapCalls = 0, 0
		h.down = true
		return h.recover()
	}
	if err != nil && !expected(err) {
		h.recoverErr = fmt.Errorf("the student's recovery: %w", err)
		return h.recoverErr
	}
	return nil
}

// Waiting says whether message i waits in the inbox table: stored, not
// processed yet. The recovery processes it before the books are read.
func (h *Inbox) Waiting(i int) bool { return h.stored[i] && !h.done[i] }

// Recovers says whether the run's consumer has a recovery step, which
// runs once more before the books are read (Settle): what the page reads
// of the books must then be read after it, as a drill file's are.
func (h *Inbox) Recovers() bool { return h.students != nil && h.students.Recover != nil }

// Durable says whether the run's code used the inbox table (Store,
// Pending, Process): its state is then more than what the explorer's state
// engine keys a state on.
func (h *Inbox) Durable() bool { return h.durable }
