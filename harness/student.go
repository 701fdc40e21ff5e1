package harness

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"archlab/internal/inbox"
	"archlab/internal/ordering"
	"archlab/internal/shardjob"
)

// A student's code is one more strategy of each section. The harness keeps
// every rule it keeps for the book's strategies: the broker delivers and
// redelivers, the scenario decides where the consumer dies, the requeue and
// the takeover are the harness's. What the student writes is only the part
// the book asks the reader to write: the §8.2 handler, the §8.3 decision on
// one delivery, the §11.2 shard loop. The student's code reaches the world
// only through the verbs below, and a crash point falls between two of
// those calls, exactly where it falls between the book's handlers' writes.

// Student is the strategy a drill file names ("strategy student", in any
// section) to run the student's code instead of the book's.
const Student = "student"

// ErrCrashed is what every verb returns once the scenario's crash point
// has been reached: the process is dead, and nothing it does lands.
var ErrCrashed = errors.New("the consumer crashed here, as the scenario asked: nothing after this point happens")

// ErrNoStudent is a run of the student strategy with no student code
// plugged in.
var ErrNoStudent = errors.New("no student code is plugged in for this section")

// Students holds a student's code, one function per exercise; a nil
// function is an exercise not plugged in. The checker fills it from
// package exercises; tests fill it with the book's logic or a wrong
// variant, so nothing in exercises/ needs editing to test the checker.
type Students struct {
	// Inbox handles one §8.2 delivery with the Delivery's verbs.
	Inbox func(*Delivery) error
	// Ordering decides what one §8.3 delivery of an event comes to.
	Ordering func(*EventDelivery) (ordering.Outcome, error)
	// Shardjob works through one §11.2 shard as the Worker's lease holder.
	Shardjob func(*Worker) error
}

// --- §8.2 ----------------------------------------------------------------

// Delivery is one delivery of a message to the student's handler: the
// message and the verbs of the consumer's local store and of the broker.
type Delivery struct {
	h      *Inbox
	i      int
	crash  Point
	out    Handled
	called bool // a verb was called: the point before the writes is passed
	writes int
	dead   bool
	acked  bool
	err    error // the store's first error
}

// Message is the delivered message.
func (d *Delivery) Message() inbox.Message { return d.h.msgs[d.i] }

// die stops the handler at point p, where the scenario's crash strikes;
// inside, when given, names the one-transaction write it dies in.
func (d *Delivery) die(p Point, inside ...string) {
	d.dead, d.out.Crashed = true, p
	d.h.recordStudentCrash(d, p, inside...)
}

// begin is every verb's first move: the point before the first call.
func (d *Delivery) begin() bool {
	if !d.called {
		d.called = true
		if d.crash == BeforeWrites {
			d.die(BeforeWrites)
		}
	}
	return d.dead
}

// A crash between the writes strikes at the handler's first write: inside
// it when the write is a transaction of its own (ApplyOnce, NaiveApply:
// nothing commits, as for the book's handlers), right after it when it is
// a lone write that commits at once (Mark, Effect).

// transaction begins a write that is one transaction; it reports whether
// the handler is dead before the write commits.
func (d *Delivery) transaction(verb string) bool {
	if d.begin() {
		return true
	}
	if d.crash == BetweenWrites && d.writes == 0 {
		d.die(BetweenWrites, verb)
		return true
	}
	d.writes++
	return false
}

// lone begins a write that commits on its own.
func (d *Delivery) lone() bool {
	if d.begin() {
		return true
	}
	d.writes++
	return false
}

// afterLone is the point right after a lone write.
func (d *Delivery) afterLone() {
	if d.crash == BetweenWrites && d.writes == 1 {
		d.die(BetweenWrites)
	}
}

// ApplyOnce writes the dedup key and the effect in one local transaction;
// a duplicate returns false and changes nothing. A crash between the
// writes falls inside the transaction: nothing commits.
func (d *Delivery) ApplyOnce() (bool, error) {
	if d.transaction("ApplyOnce") {
		return false, ErrCrashed
	}
	applied, err := d.h.store.ApplyOnce(d.Message())
	if err != nil {
		d.err = err
		return false, err
	}
	d.applied(applied)
	d.h.recordWrite(d.i, M("step.apply-once", d.Message()), applied)
	return applied, nil
}

// NaiveApply applies the effect with no dedup key, duplicates included: one
// write in its own transaction.
func (d *Delivery) NaiveApply() error {
	if d.transaction("NaiveApply") {
		return ErrCrashed
	}
	d.h.store.NaiveApply(d.Message())
	if err := inbox.Err(d.h.store); err != nil {
		d.err = err
		return err
	}
	d.applied(true)
	d.h.recordWrite(d.i, M("step.naive-apply", d.Message()), true)
	return nil
}

// Mark writes the dedup key alone, committed at once, and reports whether
// it was new.
func (d *Delivery) Mark() (bool, error) {
	if d.lone() {
		return false, ErrCrashed
	}
	marked, err := d.h.store.Mark(d.Message())
	if err != nil {
		d.err = err
		return false, err
	}
	d.out.Marked = d.out.Marked || marked
	res := M("res.marked")
	if !marked {
		res = M("res.duplicate")
	}
	d.h.step("consumer", "ledger", M("step.mark", d.Message()), res, Neutral)
	d.afterLone()
	return marked, nil
}

// Effect applies the effect alone, with no key, committed at once.
func (d *Delivery) Effect() error {
	if d.lone() {
		return ErrCrashed
	}
	if err := d.h.store.Effect(d.Message()); err != nil {
		d.err = err
		return err
	}
	d.applied(true)
	d.h.recordWrite(d.i, M("student.step.effect", d.Message()), true)
	d.afterLone()
	return nil
}

// Ack tells the broker the message is handled. The scenario may lose it
// (ErrAckLost): the broker will deliver the message again.
func (d *Delivery) Ack() error {
	if d.begin() {
		return ErrCrashed
	}
	if d.crash == BeforeAck {
		d.die(BeforeAck)
		return ErrCrashed
	}
	d.acked = true
	if err := d.h.ack(d.Message(), false, false, d.out); err != nil {
		return err
	}
	if !d.h.acks.Acked(d.Message()) {
		return inbox.ErrAckLost
	}
	return nil
}

func (d *Delivery) applied(yes bool) {
	if yes {
		d.out.Applied = true
		d.h.applied[d.i]++
	}
}

// deliverStudent is Deliver for the student's handler: the broker hands
// message i over and the handler runs with the Delivery's verbs, dying at
// the fault's point; its Ack is its own call, so an ack sent before the
// effect is sent before the effect.
func (h *Inbox) deliverStudent(i int, f FaultKind) (bool, error) {
	if h.consumer.Real() {
		return false, scenarioErr("harness.err.student-real")
	}
	if _, model := h.broker.(*memoryInbox); !model {
		return false, scenarioErr("harness.err.student-broker")
	}
	if h.students == nil || h.students.Inbox == nil {
		return false, ErrNoStudent
	}
	h.attempts[i]++
	h.deliveries++
	h.recordDelivery(i, f, 0)
	if f == AckLost {
		h.acks.LoseNext()
	}
	d := &Delivery{h: h, i: i, crash: f.crashPoint()}
	err := h.students.Inbox(d)
	if f == AckLost && !d.acked {
		h.acks.Lost = false // the handler never acked: there was no ack to lose
	}
	if d.err != nil {
		return d.out.Applied, d.err
	}
	if err != nil && !errors.Is(err, ErrCrashed) && !errors.Is(err, inbox.ErrAckLost) {
		return d.out.Applied, fmt.Errorf("the student's handler: %w", err)
	}
	if !d.dead && d.crash != "" {
		// The handler returned before the scenario's point: it dies
		// there, at its end.
		d.die(d.crash)
	}
	return d.out.Applied, nil
}

// recordStudentCrash records the student's handler dying at p; inside, when
// given, names the one-transaction write it died in.
func (h *Inbox) recordStudentCrash(d *Delivery, p Point, inside ...string) {
	switch {
	case len(inside) > 0:
		h.crash(d.out, M("explore.step.crash-in-write", inside[0]))
	case p == BeforeWrites:
		h.crash(d.out, M("explore.step.crash-before"))
	case p == BetweenWrites:
		h.crash(d.out, M("student.step.crash-between"))
	default:
		h.crash(d.out, M("explore.step.crash-after"))
	}
}

// NewStudentInbox starts a §8.2 run of the student's handler.
func NewStudentInbox(s *Students, env InboxEnv, rec *Recorder) (*Inbox, error) {
	h, err := NewInbox(Strategy(Student), env, rec)
	if err != nil {
		return nil, err
	}
	h.students = s
	return h, nil
}

// --- §8.3 ----------------------------------------------------------------

// EventDelivery is one delivery of an event to the student's consumer: the
// event, its attempt, the retry budget and the projection's one verb.
type EventDelivery struct {
	o       *Ordering
	e       ordering.Event
	attempt int
	err     error // the last Apply's error: the dead letter's reason
}

// Event is the delivered event.
func (d *EventDelivery) Event() ordering.Event { return d.e }

// Attempt is the broker's 1-based delivery count of this event.
func (d *EventDelivery) Attempt() int { return d.attempt }

// MaxAttempts is the retry budget, counted in deliveries.
func (d *EventDelivery) MaxAttempts() int { return d.o.consumer.MaxAttempts }

// Apply is Projection.Apply: it advances the order by one version, reports
// a duplicate as false, nil, and fails with ordering.ErrConflict (a version
// gap) or ordering.ErrPoison (an event that can never apply).
func (d *EventDelivery) Apply() (bool, error) {
	applied, err := d.o.proj.Apply(d.e)
	d.err = err
	return applied, err
}

// decide is the consumer's decision on one delivery: the book's
// Consumer.Handle, or the student's code. A student's dead letter goes to
// the DLQ here, with the attempt and the reason, as Handle's would.
func (o *Ordering) decide(e ordering.Event, attempt int) (ordering.Outcome, error) {
	if o.strategy != Student {
		return o.consumer.Handle(e, attempt), nil
	}
	if o.students == nil || o.students.Ordering == nil {
		return "", ErrNoStudent
	}
	d := &EventDelivery{o: o, e: e, attempt: attempt}
	out, err := o.students.Ordering(d)
	if err != nil {
		return "", fmt.Errorf("the student's consumer: %w", err)
	}
	switch out {
	case ordering.OutcomeApplied, ordering.OutcomeDuplicate, ordering.OutcomeRetry:
	case ordering.OutcomeDead:
		reason := "dead-lettered"
		if d.err != nil {
			reason = d.err.Error()
		}
		o.studentDLQ = append(o.studentDLQ, ordering.DLQEntry{Event: e, Attempts: attempt, Reason: reason})
	default:
		return "", fmt.Errorf("the student's consumer returned %q; the outcomes are applied, duplicate, retry and dead", out)
	}
	return out, nil
}

// pastBudget is the lab's broker refusing to requeue a retry the budget no
// longer allows, so that a consumer that retries forever still ends: the
// event stays at "retry", neither applied nor dead-lettered. The book's
// consumer never asks for one.
func (o *Ordering) pastBudget(attempt int) bool {
	if o.strategy != Student || attempt < o.consumer.MaxAttempts {
		return false
	}
	o.overBudget++
	return true
}

func (o *Ordering) recordPastBudget(e ordering.Event, attempt int) {
	o.step("broker", "consumer", M("student.step.past-budget", e, attempt), M("student.res.not-requeued", o.consumer.MaxAttempts), Bad)
}

// NewStudentOrdering starts a §8.3 run whose consumer decides with the
// student's code.
func NewStudentOrdering(s *Students, rec *Recorder) *Ordering {
	o := NewOrdering(rec)
	o.strategy, o.students = Student, s
	return o
}

// OverBudget counts the retries the student's consumer asked for past its
// budget.
func (o *Ordering) OverBudget() int { return o.overBudget }

// --- §11.2 ---------------------------------------------------------------

// Worker is one run of a shard by the student's loop, as the holder of a
// lease epoch: the shard's items, the checkpoint and the idempotent sink.
type Worker struct {
	s       *Shardjob
	r       Run
	items   []string
	applies int
	commits int // commits that moved the checkpoint
	stop    int // the Apply call that does not happen: the crash or the stall
	dead    bool
	zombie  func()
	onMove  func(offset int)
	last    int
	// The sink's counts when the run started: Runner.Run's Result counts
	// only its own run.
	baseApplied, baseSuppressed int
}

// Shard names the shard, "shard-0".
func (w *Worker) Shard() string { return w.r.Shard }

// Epoch is the worker's lease epoch.
func (w *Worker) Epoch() uint64 { return w.r.Epoch }

// Items are the shard's keys, in order; an offset counts items done. They
// are a copy: the shard is shared by every run that split the same keys.
func (w *Worker) Items() []string { return slices.Clone(w.items) }

// CommitEvery is how many items the worker should apply between commits.
func (w *Worker) CommitEvery() int { return w.r.Every }

// Load reads the shard's committed offset (0 when nothing is committed).
func (w *Worker) Load() int {
	if w.dead {
		return 0
	}
	return w.s.cp.Load(w.r.Shard)
}

// Apply is Sink.Apply: the effect for one business key, once; a key the
// sink has seen is suppressed and reports false. The scenario's crash or
// stall strikes between two Apply calls: the call after the k-th never
// happens.
func (w *Worker) Apply(key string) (bool, error) {
	if w.dead {
		return false, ErrCrashed
	}
	if w.stop > 0 && w.applies == w.stop {
		w.dead = true
		return false, ErrCrashed
	}
	if w.zombie != nil && w.r.ZombieAt == 0 {
		w.zombie() // the zombie wakes before the owner's first item
	}
	w.applies++
	return w.s.sink.Apply(key), nil
}

// Commit stores offset under epoch in the shard's checkpoint; a lower
// epoch than the last commit's is shardjob.ErrStaleEpoch, a lower offset in
// the same epoch shardjob.ErrStaleOffset.
func (w *Worker) Commit(epoch uint64, offset int) error {
	if w.dead {
		return ErrCrashed
	}
	if err := w.s.cp.Commit(w.r.Shard, epoch, offset); err != nil {
		name := "ErrStaleOffset"
		if errors.Is(err, shardjob.ErrStaleEpoch) {
			name = "ErrStaleEpoch"
		}
		w.s.step("worker-e"+strconv.FormatUint(epoch, 10), "checkpoint", M("step.commit", w.r.Shard, offset), M("res.err", name), Bad)
		return err
	}
	w.s.observe(w.r.Shard)
	if offset != w.last {
		w.last = offset
		w.commits++
		w.onMove(offset)
	}
	return nil
}

// runStudent is Run for the student's loop: the harness's epochs, crash,
// stall and zombie around the student's calls.
func (s *Shardjob) runStudent(r Run) (Ran, error) {
	if s.students == nil || s.students.Shardjob == nil {
		return Ran{}, ErrNoStudent
	}
	items, err := s.items(r.Shard)
	if err != nil {
		return Ran{}, err
	}
	actor := "worker"
	if r.Named {
		actor = "worker-e" + strconv.FormatUint(r.Epoch, 10)
	}
	from := s.cp.Load(r.Shard)
	if r.Epoch > s.maxEpoch {
		s.maxEpoch = r.Epoch
	}
	var commits []int
	w := &Worker{s: s, r: r, items: items, last: from}
	w.baseApplied, w.baseSuppressed = s.sink.Counts()
	w.stop = r.CrashAfter
	if r.StallAfter > 0 {
		w.stop = r.StallAfter
	}
	if r.ZombieAt >= 0 {
		w.zombie = func() {
			w.zombie = nil
			s.flush(actor, r.Shard, &commits)
			_ = s.Commit(r.Shard, r.Epoch-1, s.progress[r.Epoch-1]) // the zombie's error is its own
		}
	}
	w.onMove = func(offset int) {
		if s.rec != nil {
			commits = append(commits, offset)
		}
		if w.zombie != nil && w.commits == r.ZombieAt {
			w.zombie()
		}
	}
	runErr := s.students.Shardjob(w)
	if w.zombie != nil {
		w.zombie() // the owner made fewer commits than the zombie waited for
	}
	if !w.dead && w.stop > 0 && w.applies == w.stop {
		w.dead = true // it died after its last item, before anything else
	}
	// A commit the checkpoint rejects stops the run, as it stops
	// Runner.Run; it is the scenario's finding, not a failure of the run.
	rejected := errors.Is(runErr, shardjob.ErrStaleEpoch) || errors.Is(runErr, shardjob.ErrStaleOffset)
	if runErr != nil && !errors.Is(runErr, ErrCrashed) && !rejected && !w.dead {
		return Ran{}, fmt.Errorf("the student's shard loop: %w", runErr)
	}
	s.observe(r.Shard)
	ran := Ran{Attempts: w.applies, Checkpoint: s.cp.Load(r.Shard), From: from, Commits: w.commits,
		Crashed: w.dead && r.StallAfter == 0, Stalled: w.dead && r.StallAfter > 0}
	s.progress[r.Epoch] = from + w.applies
	ran.Applied, ran.Suppressed = s.runCounts(w)
	if ran.Crashed {
		defer func() { s.crashed[r.Shard] = true }()
	}
	if s.rec != nil {
		s.recordRun(r, actor, from, ran, &commits)
	}
	return ran, nil
}

// runCounts is what the sink counted during w's run.
func (s *Shardjob) runCounts(w *Worker) (applied, suppressed int) {
	a, sup := s.sink.Counts()
	return a - w.baseApplied, sup - w.baseSuppressed
}

// NewStudentShardjob starts a §11.2 run whose worker is the student's loop.
func NewStudentShardjob(st *Students, rec *Recorder) *Shardjob {
	s := NewShardjob(rec)
	s.student, s.students = true, st
	return s
}

// fenceStudent is the fence verb under strategy student: the takeover is
// the student's loop's to make, so the harness raises no fence of its own;
// it only notes the new epoch.
func (s *Shardjob) fenceStudent(shard string, epoch uint64) error {
	if _, err := s.items(shard); err != nil {
		return err
	}
	if epoch > s.maxEpoch {
		s.maxEpoch = epoch
	}
	s.step(fmt.Sprintf("worker-e%d", epoch), "checkpoint", M("student.step.fence", epoch), M("student.res.fence-is-yours"), Neutral)
	return nil
}
