package harness

import (
	"errors"

	"archlab/internal/inbox"
)

// A §8.2 handler is the book's function, called as the book wrote it: it
// takes the consumer's store and the broker's ack store. The fault is the
// environment's. deliveryEnv is that environment for one delivery: it is
// the inbox.Store and the inbox.AckStore the handler is handed, and a crash
// strikes at the calls the handler makes through them, never inside the
// book's code:
//
//	before-writes   at its first call
//	between-writes  at its first write: inside it when the write is one
//	                transaction (ApplyOnce, NaiveApply: nothing commits); as
//	                MarkBeforeEffect's own crash argument; right after a
//	                lone write (Mark, Effect). A first write that passes no
//	                point between writes (MarkBeforeEffect finding its key)
//	                leaves the crash armed: it strikes at the next point.
//	before-ack      at its Ack, before the ack is sent
//
// A handler that returns before its crash struck dies at its end. From
// then on every call is a no-op that returns ErrCrashed: the process is
// dead. The points are the calls as they come, not a fixed order: an ack
// sent before the first write is sent, and a crash between the writes then
// strikes after it.
//
// It also measures what each write did to the store (whether Applies went
// up), so the counts and the trace come from the store, not from what the
// handler says it did.
type deliveryEnv struct {
	store inbox.Store
	m     inbox.Message
	crash Point // where the consumer dies, "" for nowhere
	lose  bool  // the ack never reaches the broker
	// failEffect: the store refuses the write that carries the effect
	// (ErrEffectFailed); nothing of that write commits.
	failEffect bool
	// model: the crash is modelled in this process. A consumer process
	// is killed for real instead: its store stops at its own points
	// between the writes (sqlstore's Between), and at blocks there.
	model bool
	// The environment's side, told in order:
	at     func(p Point, die bool)      // a consumer process passed p; die: it is killed here
	wrote  func(Wrote)                  // a write returned, or died inside
	died   func(p Point, inside string) // it died at p (inside names the transaction)
	ack    func(lost bool) error        // the ack is sent; ErrAckLost when lost
	prune  func(seq int64) int          // the janitor's prune, after the handler's ack
	before func()                       // before the ack is sent: the call outside the store (the book's handlers)
	notify func(m inbox.Message)        // the student's handler calls the outside service for m (Notify)

	// gap: the consumer dies right before its gap-th call of the step
	// (InboxFault.Gap), calls counting them, its restart's first; beyond:
	// the step ended more than one call short of it.
	gap, calls int
	beyond     bool
	// The lease (inbox_lease.go): holds, this delivery claimed its key;
	// leaseExpires, the fault lease-expires is armed for its claim;
	// nextCall, what happens at its next call (the lease running out);
	// leaseRanOut, it did.
	holds, leaseExpires, leaseRanOut bool
	lease                            bool // the row is lease-expires
	nextCall                         func()

	started bool
	writes  int
	dead    bool
	diedAt  Point
	current string // the write in progress, for a consumer process's own point
	applied bool   // a write of this delivery applied the effect
	acked   bool   // the handler's ack was sent
	// afterAck: the point after the ack was passed.
	afterAck bool
	ackLost  bool  // ...and lost
	err      error // the store's first error
	refused  error // a write without an error result the store refused (effect-fails), for Err
}

// Err is the store's error for a method without an error result
// (inbox.Err): the environment's, else the fault's refusal.
func (d *deliveryEnv) Err() error {
	if err := inbox.Err(d.store); err != nil {
		return err
	}
	return d.refused
}

// Wrote is one write of a handler, as the environment saw it.
type Wrote struct {
	Call    string `json:"call"`              // ApplyOnce, NaiveApply, MarkBeforeEffect, Mark, Effect
	Failed  bool   `json:"failed,omitempty"`  // the store refused the effect's write (effect-fails)
	Applied bool   `json:"applied,omitempty"` // the effect landed: the store's Applies went up
	NewKey  bool   `json:"new_key,omitempty"` // MarkBeforeEffect, Mark: the key was not there
	Crashed bool   `json:"crashed,omitempty"` // MarkBeforeEffect returned ErrSimulatedCrash after its key
}

var (
	_ inbox.Store    = (*deliveryEnv)(nil)
	_ inbox.AckStore = (*deliveryEnv)(nil)
)

// point is the handler passing p: it reports whether the consumer dies
// there. A consumer process is told, and blocks where it dies.
func (d *deliveryEnv) point(p Point) bool {
	die := false
	switch d.crash {
	case "":
	case BetweenWrites:
		die = p == BetweenWrites || (p == BeforeAck && d.writes > 0)
	default:
		die = p == d.crash
	}
	if d.at != nil {
		d.at(p, die)
	}
	return die
}

// begin is every call's first move (call names it): the gap before it,
// then the point before the first call.
func (d *deliveryEnv) begin(call string) bool {
	if d.dead {
		return true
	}
	if d.calls++; d.gap > 0 && d.calls == d.gap {
		d.die(AtCall, call)
		return true
	}
	if f := d.nextCall; f != nil {
		d.nextCall, d.leaseRanOut = nil, true
		f()
	}
	if !d.started {
		d.started = true
		if d.point(BeforeWrites) {
			d.die(BeforeWrites, "")
		}
	}
	// The first call after the ack: the point after it (a durable
	// inbox's processing, which a crash there leaves to the restart).
	if !d.dead && d.acked && !d.afterAck {
		d.afterAck = true
		if d.point(AfterAck) {
			d.die(AfterAck, "")
		}
	}
	return d.dead
}

func (d *deliveryEnv) die(p Point, inside string) {
	d.dead, d.diedAt = true, p
	if d.died != nil {
		d.died(p, inside)
	}
}

// end is the handler returning: if the scenario's point is still ahead,
// the consumer dies there, at its end.
func (d *deliveryEnv) end() {
	// A lease-expires delivery whose lease never ran out (no claim, or no
	// call after it) is a plain delivery.
	d.beyond = d.beyond || d.lease && !d.leaseRanOut
	switch {
	case d.dead || !d.model:
	case d.gap > 0:
		// After its last call: the last gap of the step.
		d.beyond = d.calls+1 < d.gap
		d.die(AtCall, "")
	case d.crash != "":
		d.die(d.crash, "")
	}
}

// transaction begins a write that is one transaction. In the model a crash
// between the writes falls inside it: the consumer dies and nothing
// commits; a consumer process is stopped there by the store itself.
func (d *deliveryEnv) transaction(call string) bool {
	if d.begin(call) {
		return true
	}
	if d.model && d.writes == 0 && d.point(BetweenWrites) {
		d.die(BetweenWrites, call)
		return true
	}
	d.writes++
	d.current = call
	return false
}

// measure runs one write and reports whether it applied the effect.
func (d *deliveryEnv) measure(write func() error) (bool, error) {
	before := d.store.Applies()
	err := write()
	if err == nil {
		err = inbox.Err(d.store)
	}
	applied := d.store.Applies() > before
	d.applied = d.applied || applied
	d.current = ""
	return applied, err
}

// fail keeps the store's first error: the environment failing, not the
// scenario's fault.
func (d *deliveryEnv) fail(err error) error {
	if d.err == nil {
		d.err = err
	}
	return err
}

func (d *deliveryEnv) ApplyOnce(m inbox.Message) (bool, error) {
	if d.transaction("ApplyOnce") {
		return false, ErrCrashed
	}
	if d.failEffect { // one transaction: the key goes back with the effect
		d.tell(Wrote{Call: "ApplyOnce", Failed: true})
		return false, ErrEffectFailed
	}
	var fresh bool
	applied, err := d.measure(func() (err error) { fresh, err = d.store.ApplyOnce(m); return err })
	if err != nil {
		return false, d.fail(err)
	}
	d.tell(Wrote{Call: "ApplyOnce", Applied: applied})
	return fresh, nil
}

func (d *deliveryEnv) NaiveApply(m inbox.Message) {
	if d.transaction("NaiveApply") {
		return
	}
	if d.failEffect {
		// The book's NaiveApply returns nothing; the failure is the
		// store's error for a method without an error result (inbox.Err),
		// which the naive handler reads before its ack.
		d.tell(Wrote{Call: "NaiveApply", Failed: true})
		d.refused = ErrEffectFailed
		return
	}
	applied, err := d.measure(func() error { d.store.NaiveApply(m); return nil })
	if err != nil {
		d.fail(err)
		return
	}
	d.tell(Wrote{Call: "NaiveApply", Applied: applied})
}

// MarkBeforeEffect calls the book's function with the scenario's crash:
// the handler passes false, the environment decides. A key already there
// means no point between the writes is ever passed.
func (d *deliveryEnv) MarkBeforeEffect(m inbox.Message, _ bool) error {
	if d.begin("MarkBeforeEffect") {
		return ErrCrashed
	}
	crash := d.model && d.writes == 0 && d.point(BetweenWrites)
	d.writes++
	d.current = "MarkBeforeEffect"
	var err error
	// A failed effect is the book's own stop between the two writes (the
	// key committed, the effect not), with the consumer alive after it.
	applied, storeErr := d.measure(func() error { err = d.store.MarkBeforeEffect(m, crash || d.failEffect); return nil })
	if d.failEffect && !crash && errors.Is(err, inbox.ErrSimulatedCrash) {
		if storeErr != nil {
			return d.fail(storeErr)
		}
		d.tell(Wrote{Call: "MarkBeforeEffect", NewKey: true, Failed: true})
		return ErrEffectFailed
	}
	crashed := errors.Is(err, inbox.ErrSimulatedCrash)
	if err != nil && !crashed {
		return d.fail(err)
	}
	if storeErr != nil {
		return d.fail(storeErr)
	}
	d.tell(Wrote{Call: "MarkBeforeEffect", Applied: applied, NewKey: applied || crashed, Crashed: crashed})
	if crashed {
		d.die(BetweenWrites, "MarkBeforeEffect")
	}
	return err
}

// Mark and Effect are lone writes: each commits at once, and a crash
// between the writes strikes right after the first.
func (d *deliveryEnv) Mark(m inbox.Message) (bool, error) {
	if d.lone("Mark") {
		return false, ErrCrashed
	}
	var fresh bool
	_, err := d.measure(func() (err error) { fresh, err = d.store.Mark(m); return err })
	if err != nil {
		return false, d.fail(err)
	}
	d.tell(Wrote{Call: "Mark", NewKey: fresh})
	d.afterLone()
	return fresh, nil
}

func (d *deliveryEnv) Effect(m inbox.Message) error {
	if d.lone("Effect") {
		return ErrCrashed
	}
	if d.failEffect {
		d.tell(Wrote{Call: "Effect", Failed: true})
		d.afterLone()
		return ErrEffectFailed
	}
	applied, err := d.measure(func() error { return d.store.Effect(m) })
	if err != nil {
		return d.fail(err)
	}
	d.tell(Wrote{Call: "Effect", Applied: applied})
	d.afterLone()
	return nil
}

func (d *deliveryEnv) lone(call string) bool {
	if d.begin(call) {
		return true
	}
	d.writes++
	return false
}

func (d *deliveryEnv) afterLone() {
	if d.model && d.writes == 1 && d.point(BetweenWrites) {
		d.die(BetweenWrites, "")
	}
}

// Prune is the janitor's, after the handler acked: a dead consumer has no
// janitor running behind it.
func (d *deliveryEnv) Prune(seq int64) int {
	if d.dead || d.prune == nil {
		return 0
	}
	return d.prune(seq)
}

// Balance and Applies read the store.
func (d *deliveryEnv) Balance(orderID string) int64 { return d.store.Balance(orderID) }
func (d *deliveryEnv) Applies() int                 { return d.store.Applies() }

// Ack is the broker's ack store: the point before the ack, then the call
// outside the store a notify message makes, then the ack, lost or not.
func (d *deliveryEnv) Ack(inbox.Message) error {
	if d.begin("Ack") {
		return ErrCrashed
	}
	if d.point(BeforeAck) {
		d.die(BeforeAck, "")
		return ErrCrashed
	}
	if d.before != nil {
		d.before()
	}
	d.acked = true
	lost := d.lose
	d.lose = false // one lost ack per delivery, as MemoryAck.LoseNext
	err := d.ack(lost)
	d.ackLost = d.ackLost || errors.Is(err, inbox.ErrAckLost)
	return err
}

// Notify is the handler's call to the service outside its store for
// message m (a notification, a publish): made at once, covered by no
// transaction and guarded by no dedup key. After the writes it is the
// point after them, as the ack is: a crash there strikes at the first of
// the two the handler makes, and the call is then never made.
func (d *deliveryEnv) Notify(m inbox.Message) error {
	if d.begin("Notify") {
		return ErrCrashed
	}
	if d.writes > 0 && !d.acked && d.point(BeforeAck) {
		d.die(BeforeAck, "")
		return ErrCrashed
	}
	if d.notify != nil {
		d.notify(m)
	}
	return nil
}

// tell reports a write to the environment.
func (d *deliveryEnv) tell(w Wrote) {
	if d.wrote != nil {
		d.wrote(w)
	}
}

// between is a consumer process's store stopping between its writes
// (sqlstore's Between hook): MarkBeforeEffect's key is committed there;
// inside a transaction nothing is.
func (d *deliveryEnv) between() {
	if d.current == "MarkBeforeEffect" {
		d.tell(Wrote{Call: "MarkBeforeEffect", NewKey: true})
	}
	d.point(BetweenWrites)
}

// expected reports whether err is one of the scenario's own outcomes: the
// consumer died, its ack was lost, or the book's simulated crash.
func expected(err error) bool {
	return err == nil || errors.Is(err, ErrCrashed) || errors.Is(err, inbox.ErrAckLost) || errors.Is(err, inbox.ErrSimulatedCrash) ||
		errors.Is(err, ErrEffectFailed)
}

// ErrEffectFailed is what the store returns for the effect's write when
// the scenario's fault makes it fail (effect-fails): the consumer lives,
// nothing of that write commits, and a handler that returns the error
// sends no ack.
var ErrEffectFailed = errors.New("the local store refused the write: the effect failed, as the scenario asked")
