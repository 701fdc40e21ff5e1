package harness

import "errors"

// A key claimed with a lease: AWS Lambda Powertools' idempotency record
// (a row INPROGRESS with an expiry, made COMPLETED after the handler) and
// velmie/idempo's lock. The consumer claims the message's key, applies
// the effect, and completes the key; a delivery that finds the key
// completed skips. A lease lives while its holder's delivery runs: the
// broker redelivers only after its visibility timeout, by when a holder
// that died or gave up has lost its lease, and the next claim takes the
// key over. So a crash between the effect and the completion applies the
// effect twice, as two transactions do (the key and the effect apart).
//
// The fault lease-expires is the holder alive but slow: its lease
// expires right after its claim, at its next call, and the broker hands
// the message to another consumer (as SQS does after the visibility
// timeout), whose delivery runs to its end; then the slow holder goes on
// where it was. A design that claims, applies and completes applies the
// effect twice, with no crash at all. One that applies the effect and
// records its key in one transaction (the book's ApplyOnce), and claims a
// lease only to guard the call outside the store, applies it once.

// Lease is the strategy a drill file names for the lab's lease design:
// claim, effect, complete, ack (leaseHandler).
const Lease Strategy = "lease"

// leaseStudents is the lease design, written with the student's verbs.
var leaseStudents = &Students{Inbox: leaseHandler, lab: true}

func leaseHandler(d *Delivery) error {
	claimed, err := d.Claim()
	if err != nil {
		return err
	}
	if claimed {
		if err := d.Notify(d.Message()); err != nil {
			return err
		}
		if err := d.Effect(); err != nil {
			return err
		}
		if err := d.Complete(); err != nil {
			return err
		}
	}
	return d.Ack()
}

// Claim claims the message's key with a lease, committed at once, and
// reports whether this delivery holds it: false, nil when the key is
// completed (a duplicate); a key whose lease ended (its holder died, gave
// up, or was slow past it) is taken over. A lone write: a crash between
// the writes strikes right after it.
func (d *Delivery) Claim() (bool, error) {
	d.watch.Call("d.Claim")
	return d.h.claim(d.env, d.i)
}

// Complete marks the claimed key completed, committed at once: later
// deliveries skip it, and the lease ends. A lone write.
func (d *Delivery) Complete() error {
	d.watch.Call("d.Complete")
	return d.h.complete(d.env, d.i)
}

// ErrNotClaimed is Complete for a key this delivery did not claim.
var ErrNotClaimed = errors.New("Complete takes a key Claim returned true for in this delivery")

// claim is Claim for message i.
func (h *Inbox) claim(d *deliveryEnv, i int) (bool, error) {
	h.durable = true
	if d.lone("Claim") {
		return false, ErrCrashed
	}
	defer d.afterLone()
	if h.completed[i] {
		h.step("consumer", "ledger", M("lease.step.claim", h.msgs[i]), M("lease.res.completed"), Neutral)
		return false, nil
	}
	res := M("lease.res.claimed")
	if h.claimed[i] {
		res = M("lease.res.taken-over")
	}
	h.claimed[i], d.holds = true, true
	h.step("consumer", "ledger", M("lease.step.claim", h.msgs[i]), res, Neutral)
	if d.leaseExpires {
		// Slow past its lease: it runs out at the holder's next call.
		d.leaseExpires = false
		d.nextCall = func() { h.leaseRunsOut(i) }
	}
	return true, nil
}

// complete is Complete for message i.
func (h *Inbox) complete(d *deliveryEnv, i int) error {
	h.durable = true
	if !d.holds {
		return ErrNotClaimed
	}
	if d.lone("Complete") {
		return ErrCrashed
	}
	h.completed[i] = true
	h.step("consumer", "ledger", M("lease.step.complete", h.msgs[i]), M("lease.res.completed-now"), Neutral)
	d.afterLone()
	return nil
}

// leaseRunsOut is the lease-expires fault striking: the slow holder's
// lease on message i ends, and the broker hands the message to another
// consumer, whose delivery runs to its end before the holder goes on.
func (h *Inbox) leaseRunsOut(i int) {
	h.fault("broker", "ledger", M("lease.step.expires", h.msgs[i]), M("lease.res.expired"))
	row, _ := InboxFaultByName("lease-expires")
	saved := h.gap
	h.deliverCopy(i, InboxFaults[0], InboxFaults[row], true)
	h.gap = saved
}
