package harness

import (
	"errors"
	"fmt"
	"slices"

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
	// Recover is the §8.2 consumer's recovery step, run when its process
	// restarts after a crash (inbox_durable.go); nil does nothing.
	Recover func(*Restart) error
	// Ledger opens an empty §8.2 ledger of the student's (exercise
	// ledger): the book's Ledger in its shape, which the book's Consume
	// runs over (student_ledger.go).
	Ledger func() Ledger
	// Ordering decides what one §8.3 delivery of an event comes to.
	Ordering func(*EventDelivery) (ordering.Outcome, error)
	// Projection is the §8.3 mechanism: the projection's version gate and
	// the consumer's retry and dead-letter policy, in the book's shapes.
	// It runs only where a drill names it ("exercise projection"):
	// then the student's Projection sits where ordering.Projection sits and
	// the student's Consumer where ordering.Consumer does, and the book's
	// broker, Reconcile and Replay run around them unchanged.
	Projection *ProjectionMechanism
	// Shardjob works through one §11.2 shard as the Worker's lease holder.
	Shardjob func(*Worker) error
	// Watch, when set, is told each verb the student's code calls (and,
	// by the drivers, what they run), so a run that hangs can say where.
	Watch *Watch
	// lab marks a design of the lab's own (LabStudents), written with the
	// student's verbs.
	lab bool
	// Runner is the §11.2 mechanism (exercise runner): the student's
	// Checkpoint and Runner.Run in place of the book's. It runs when
	// Shardjob, the protocol exercise that also takes Runner.Run's place,
	// is not plugged in; a drill file's "exercise runner" line plugs in
	// this one alone (Only).
	Runner *ShardMechanism
}

// ProjectionExercise is the §8.3 mechanism exercise's name, as a drill
// file of strategy student names it: "exercise projection".
const ProjectionExercise = "projection"

// RunnerExercise is the §11.2 mechanism exercise's name, as a drill file
// of strategy student names it: "exercise runner".
const RunnerExercise = "runner"

// ShardMechanism is a §11.2 mechanism in the book's shapes: the book's
// NewCheckpoint, and a Runner built as the book's is, over the sink and
// the checkpoint the harness hands it (with the scenario's faults around
// them: a zombie's commit between two of the runner's calls).
type ShardMechanism struct {
	NewCheckpoint func() Checkpoint
	NewRunner     func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, commitEvery int) ShardRunner
}

// Checkpoint is what the harness asks of a §11.2 checkpoint store: the
// book's Load and Commit, and the epoch of the last commit (Epoch) that the
// drills read. *shardjob.Checkpoint is one.
type Checkpoint interface {
	shardjob.Progress
	Epoch(shard string) uint64
}

// ShardRunner is the book's Runner.Run: work through a shard's items from
// its committed offset, stopping right after the crashAfter-th item when
// crashAfter > 0.
type ShardRunner interface {
	Run(shard string, items []string, crashAfter int) (shardjob.Result, error)
}

var _ Checkpoint = (*shardjob.Checkpoint)(nil)

// StudentExercises name the exercises in Students, each with its part:
// a drill file's "exercise NAME" line runs that part of the student's
// code alone, and the rest of the section the book's (Only). The names are
// archlab check's (check.Exercises; a test holds the two lists equal).
var StudentExercises = []struct {
	Name string
	Part func(from, to *Students)
}{
	{"consumer-handler", func(f, t *Students) { t.Inbox, t.Recover = f.Inbox, f.Recover }},
	{LedgerExercise, func(f, t *Students) { t.Ledger = f.Ledger }},
	{"projection-decision", func(f, t *Students) { t.Ordering = f.Ordering }},
	{ProjectionExercise, func(f, t *Students) { t.Projection = f.Projection }},
	{"shard-loop", func(f, t *Students) { t.Shardjob = f.Shardjob }},
	{RunnerExercise, func(f, t *Students) { t.Runner = f.Runner }},
}

// Only is the part of s that exercise checks, alone: the other parts are
// not plugged in, so the book's code runs there. Exercise "" is the
// protocol exercises (a drill file of strategy student with no exercise
// line): the student's handler, decision and loop around the book's
// mechanisms, never a mechanism of the student's, so that a run never
// mixes the two tiers and a counterexample replays the same whatever else
// the student has written. A name that is not an exercise gives nil.
func (s *Students) Only(exercise string) *Students {
	if exercise == "" {
		if s == nil {
			return nil
		}
		return &Students{Inbox: s.Inbox, Recover: s.Recover, Ordering: s.Ordering, Shardjob: s.Shardjob, Watch: s.Watch}
	}
	for _, e := range StudentExercises {
		if e.Name == exercise {
			out := &Students{}
			if s != nil {
				e.Part(s, out)
				out.Watch = s.Watch
			}
			return out
		}
	}
	return nil
}

// --- §8.2 ----------------------------------------------------------------

// Delivery is one delivery of a message to the student's handler: the
// message and the verbs of the consumer's local store and of the broker.
// Its verbs are the environment's store and ack store, the same ones the
// book's Consume is handed (deliveryEnv), so a fault strikes the student's
// calls exactly where it strikes the book's.
type Delivery struct {
	env   *deliveryEnv
	watch *Watch
	h     *Inbox // the run: its inbox table (inbox_durable.go)
	i     int    // the delivered message's index
}

// Message is the delivered message.
func (d *Delivery) Message() inbox.Message { d.watch.Call("d.Message"); return d.env.m }

// ApplyOnce writes the dedup key and the effect in one local transaction;
// a duplicate returns false and changes nothing. A crash between the
// writes falls inside the transaction: nothing commits.
func (d *Delivery) ApplyOnce() (bool, error) {
	d.watch.Call("d.ApplyOnce")
	return d.env.ApplyOnce(d.env.m)
}

// NaiveApply applies the effect with no dedup key, duplicates included: one
// write in its own transaction.
func (d *Delivery) NaiveApply() error {
	d.watch.Call("d.NaiveApply")
	d.env.NaiveApply(d.env.m)
	if d.env.dead {
		return ErrCrashed
	}
	return d.env.err
}

// Mark writes the dedup key alone, committed at once, and reports whether
// it was new.
func (d *Delivery) Mark() (bool, error) { d.watch.Call("d.Mark"); return d.env.Mark(d.env.m) }

// Effect applies the effect alone, with no key, committed at once.
func (d *Delivery) Effect() error { d.watch.Call("d.Effect"); return d.env.Effect(d.env.m) }

// Notify calls the service outside the local store that message m's
// handler calls (a notification, a publish), for a message that asks for
// one (declared notify); for another it does nothing. No transaction covers
// the call and no dedup key guards it: it happens on every delivery whose
// handler gets this far, and a crash after the writes that strikes here
// leaves it unmade.
func (d *Delivery) Notify(m inbox.Message) error { d.watch.Call("d.Notify"); return d.env.Notify(m) }

// Ack tells the broker the message is handled. The scenario may lose it
// (inbox.ErrAckLost): the broker will deliver the message again.
func (d *Delivery) Ack() error { d.watch.Call("d.Ack"); return d.env.Ack(d.env.m) }

// studentAllowed says whether this run can take the student's handler: it
// runs in this process, on the model broker.
func (h *Inbox) studentAllowed() error {
	if h.students != nil && h.students.lab {
		// The lab's own designs (a durable inbox, an outbox, a lease):
		// their deliveries run in this process, whatever the run's
		// consumer and broker.
		return nil
	}
	if h.consumer != nil {
		return scenarioErr("harness.err.student-real")
	}
	if _, model := h.broker.(*memoryInbox); !model {
		return scenarioErr("harness.err.student-broker")
	}
	if h.students == nil || h.students.Inbox == nil {
		return ErrNoStudent
	}
	return nil
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
func (d *EventDelivery) Event() ordering.Event { d.o.students.watch().Call("d.Event"); return d.e }

// Attempt is the broker's 1-based delivery count of this event.
func (d *EventDelivery) Attempt() int { d.o.students.watch().Call("d.Attempt"); return d.attempt }

// MaxAttempts is the retry budget, counted in deliveries.
func (d *EventDelivery) MaxAttempts() int {
	d.o.students.watch().Call("d.MaxAttempts")
	return d.o.budget
}

// Apply is Projection.Apply: it advances the order by one version, reports
// a duplicate as false, nil, and fails with ordering.ErrConflict (a version
// gap) or ordering.ErrPoison (an event that can never apply).
func (d *EventDelivery) Apply() (bool, error) {
	d.o.students.watch().Call("d.Apply")
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
	if o.mine != nil {
		return o.mechanismDecides(e, attempt)
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
	if o.strategy != Student || attempt < o.budget {
		return false
	}
	o.overBudget++
	return true
}

func (o *Ordering) recordPastBudget(e ordering.Event, attempt int) {
	o.step("broker", "consumer", M("student.step.past-budget", e, attempt), M("student.res.not-requeued", o.budget), Harm)
}

// NewStudentOrdering starts a §8.3 run whose consumer decides with the
// student's code: the student's mechanism (projection and consumer) when s
// has one, else the student's decision over the book's projection.
func NewStudentOrdering(s *Students, rec *Recorder) *Ordering {
	o := NewOrdering(rec)
	o.strategy, o.students = Student, s
	if s != nil && s.Projection != nil {
		o.mechanism = s.Projection
		o.book, o.mineProj = nil, s.Projection.NewProjection()
		o.proj = o.mineProj
		if s.Watch != nil {
			o.proj = watchedProjection{o.mineProj, s.Watch}
		}
	}
	return o
}

// ProjectionMechanism is the student's §8.3 mechanism as the harness takes
// it: the book's two constructors, NewProjection and NewConsumer. Package
// exercises fills it from the student's types.
type ProjectionMechanism struct {
	NewProjection func() StudentProjection
	// NewConsumer is ordering.NewConsumer: a consumer over p with a retry
	// budget of maxAttempts deliveries (0: the book's default).
	NewConsumer func(p StudentProjection, maxAttempts int) StudentConsumer
}

// StudentProjection is the read model in the book's shape: the version
// gate (Apply), the row (Get), the count of version advances
// (AppliedCount), and the reconciler's overwrite (Repair), which
// ordering.ReconcileRows calls.
type StudentProjection interface {
	ordering.Applier
	ordering.Rows
	AppliedCount() int
}

// StudentConsumer is the consumer in the book's shape: Handle decides one
// delivery, DLQ is what it dead-lettered, Budget is its MaxAttempts.
type StudentConsumer interface {
	Handle(e ordering.Event, attempt int) ordering.Outcome
	DLQ() []ordering.DLQEntry
	Budget() int
}

// mechanismDecides is one delivery handed to the student's Consumer.Handle:
// the outcome is the student's, the DLQ the student's consumer keeps.
func (o *Ordering) mechanismDecides(e ordering.Event, attempt int) (ordering.Outcome, error) {
	switch out := o.mine.Handle(e, attempt); out {
	case ordering.OutcomeApplied, ordering.OutcomeDuplicate, ordering.OutcomeRetry, ordering.OutcomeDead:
		return out, nil
	case "":
		return "", fmt.Errorf("the student's Consumer.Handle returned no outcome for %s; the outcomes are applied, duplicate, retry and dead", e)
	default:
		return "", fmt.Errorf("the student's Consumer.Handle returned %q; the outcomes are applied, duplicate, retry and dead", out)
	}
}

// OverBudget counts the retries the student's consumer asked for past its
// budget.
func (o *Ordering) OverBudget() int { return o.overBudget }

// --- §11.2 ---------------------------------------------------------------

// Worker is one run of a shard by the student's loop, as the holder of a
// lease epoch: the shard's items, and the checkpoint and the sink as the
// book's Runner.Run is handed them (workerEnv), so a crash, a stall and a
// zombie strike the student's calls where they strike the book's loop.
type Worker struct {
	env   *workerEnv
	items []string
	watch *Watch
}

// Shard names the shard, "shard-0".
func (w *Worker) Shard() string { w.watch.Call("w.Shard"); return w.env.r.Shard }

// Epoch is the worker's lease epoch.
func (w *Worker) Epoch() uint64 { w.watch.Call("w.Epoch"); return w.env.r.Epoch }

// Items are the shard's keys, in order; an offset counts items done. They
// are a copy: the shard is shared by every run that split the same keys.
func (w *Worker) Items() []string { w.watch.Call("w.Items"); return slices.Clone(w.items) }

// CommitEvery is how many items the worker should apply between commits.
func (w *Worker) CommitEvery() int { w.watch.Call("w.CommitEvery"); return w.env.r.Every }

// Load reads the shard's committed offset (0 when nothing is committed).
func (w *Worker) Load() int { w.watch.Call("w.Load"); return w.env.Load(w.env.r.Shard) }

// Fence takes the shard over: it commits the checkpoint's offset under
// the worker's epoch in one step, so that from then on every commit of an
// older epoch is refused, and returns the offset to resume from.
func (w *Worker) Fence() (int, error) {
	w.watch.Call("w.Fence")
	return w.env.Fence(w.env.r.Shard, w.env.r.Epoch)
}

// Apply is Sink.Apply: the effect for one business key, once; a key the
// sink has seen is suppressed and reports false. The scenario's crash or
// stall strikes right after an Apply: every call after it fails. An item
// the scenario's sink fails is ErrSinkFailed, nothing applied.
func (w *Worker) Apply(key string) (bool, error) {
	w.watch.Call("w.Apply")
	return w.env.apply(key)
}

// Commit stores offset under epoch in the shard's checkpoint; a lower
// epoch than the last commit's is shardjob.ErrStaleEpoch, a lower offset in
// the same epoch shardjob.ErrStaleOffset.
func (w *Worker) Commit(epoch uint64, offset int) error {
	w.watch.Call("w.Commit")
	return w.env.Commit(w.env.r.Shard, epoch, offset)
}

// runStudent runs the student's loop in e: it reports what Runner.Run
// would, counted by the environment.
func (s *Shardjob) runStudent(e *workerEnv, items []string) (shardjob.Result, error) {
	w := &Worker{env: e, items: items, watch: s.students.watch()}
	a0, s0 := s.sink.Counts()
	runErr := s.students.Shardjob(w)
	a, sup := s.sink.Counts()
	res := shardjob.Result{Attempts: e.applies, Applied: a - a0, Suppressed: sup - s0, Checkpoint: s.cp.Load(e.r.Shard)}
	switch {
	case e.stopped(runErr):
		return res, shardjob.ErrInjectedCrash
	case errors.Is(runErr, ErrSinkFailed):
		// The loop stopped at the failed item, before a commit covered
		// it: the worker ends there, and a rerun resumes.
		e.gaveUp = true
		return res, shardjob.ErrInjectedCrash
	case rejectedName(runErr) != "", runErr == nil:
		return res, runErr
	}
	return res, fmt.Errorf("the student's shard loop: %w", runErr)
}

// NewStudentShardjob starts a §11.2 run whose worker is the student's
// loop, or, when only the student's mechanism is plugged in (exercise
// runner), the student's Runner.Run over the student's Checkpoint.
func NewStudentShardjob(st *Students, rec *Recorder) *Shardjob {
	s := NewShardjob(rec)
	if st != nil && st.Shardjob == nil && st.Runner != nil {
		s.mechanism, s.cp = st.Runner, st.Runner.NewCheckpoint()
		if st.Watch != nil {
			s.cp, s.watch = watchedCheckpoint{s.cp, st.Watch}, st.Watch
		}
		return s
	}
	s.student, s.students = true, st
	return s
}
