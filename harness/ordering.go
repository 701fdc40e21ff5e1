package harness

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"archlab/internal/ordering"
)

// §8.3: one order's events reach a projection through a broker that
// requeues a conflict at the back of its queue, under a retry budget; what
// the budget or poison sends to the dead-letter queue is repaired from the
// source of truth; an append-only log is replayed from an offset.

// Ordering is one §8.3 run.
type Ordering struct {
	rec    *Recorder
	events []ordering.Event // declared, by index
	// proj is the read model every step reads: the book's projection
	// (book), or the student's (mineProj) under the projection exercise.
	proj     readModel
	book     *ordering.Projection
	consumer *ordering.Consumer
	budget   int            // the consumer's MaxAttempts, 0 before it starts
	broker   OrderingBroker // the queue, the DLQ, the log, the partitions (broker.go)
	truth    ordering.MapSource

	published  int
	deliveries int
	outcomes   map[string]ordering.Outcome // last outcome by event ID
	applied    map[string]int              // applies by event ID
	delivered  map[string]bool             // events delivered at least once (recorded runs only)
	fixes      int
	// The invariants the explorer checks, kept after every step.
	version   map[string]int64 // highest version seen per order
	movedBack bool
	// skipped: an apply moved an order past the next version (only a
	// student's projection can: the book's gate refuses the gap).
	skipped      bool
	appliedTwice bool
	dupRefused   bool // an event already applied was retried or dead-lettered
	// partition-affinity
	routes      []int
	partitions  int
	moved, used int
	// seek-bounds
	outOfRange, zeroSize, drained int
	// what is still to come (ordering_settled.go): deliveries in the
	// broker's queue, and the orders reconciled since the last delivery
	queued         int
	sinceReconcile map[string]bool
	// strategy student: the student's decision (student.go)
	strategy   string
	brokerErr  error // a broker error met where no error can be returned (DLQ)
	students   *Students
	studentDLQ []ordering.DLQEntry
	overBudget int
	// strategy student, the projection exercise: the student's mechanism
	// in place of the book's projection and consumer
	mechanism *ProjectionMechanism
	mineProj  StudentProjection
	mine      StudentConsumer
	meter     func() error // Env.Meter
}

// readModel is what the harness reads and drives of a projection: the
// book's, or the student's.
type readModel interface {
	ordering.Applier
	Get(orderID string) (ordering.OrderState, bool)
	AppliedCount() int
}

// NewOrdering starts a §8.3 run on the book's in-memory broker. rec may be
// nil.
func NewOrdering(rec *Recorder) *Ordering {
	book := ordering.NewProjection()
	o := &Ordering{rec: rec, proj: book, book: book, truth: ordering.MapSource{},
		broker:   &memoryOrdering{log: ordering.NewLog()},
		outcomes: map[string]ordering.Outcome{}, applied: map[string]int{}, version: map[string]int64{}, delivered: map[string]bool{}}
	return o
}

// NewOrderingIn starts a §8.3 run on env's broker.
func NewOrderingIn(env OrderingEnv, rec *Recorder) (*Ordering, error) {
	o := NewOrdering(rec)
	if env.Broker != nil {
		b, err := env.Broker()
		if err != nil {
			return nil, err
		}
		o.broker = b
	}
	return o, nil
}

// Broker is the run's broker: the model, or a real one.
func (o *Ordering) Broker() OrderingBroker { return o.broker }

// Declare adds an event the scenario can publish or append; logged puts it
// in the log at once, silently, as a log that already holds it.
func (o *Ordering) Declare(e ordering.Event, logged bool) (int, error) {
	o.events = append(o.events, e)
	if logged {
		if _, err := o.broker.Append(e); err != nil {
			return 0, err
		}
	}
	return len(o.events) - 1, nil
}

// Events are the declared events.
func (o *Ordering) Events() []ordering.Event { return o.events }

// Consumer starts the consumer with a retry budget of maxAttempts
// deliveries.
func (o *Ordering) Consumer(maxAttempts int) {
	if o.mechanism != nil {
		o.mine = o.mechanism.NewConsumer(o.mineProj, maxAttempts)
		if w := o.students.watch(); w != nil {
			o.mine = watchedConsumer{o.mine, w}
		}
		o.budget = o.mine.Budget()
		return
	}
	o.consumer = ordering.NewConsumer(o.book, maxAttempts)
	o.budget = o.consumer.MaxAttempts
}

// started reports whether the consumer has started.
func (o *Ordering) started() bool { return o.consumer != nil || o.mine != nil }

// Publish puts event i at the back of the broker's queue, as a first
// delivery.
func (o *Ordering) Publish(i int) error {
	o.published++
	o.queued++
	return o.broker.Publish(o.events[i], 1)
}

// Dispatch is the broker of §8.3: it delivers the queue to the consumer one
// event at a time and requeues a retried event at the back with its
// attempt count raised, until the queue is empty. A retry or a dead letter
// is the fault.
func (o *Ordering) Dispatch() error {
	_, err := o.DispatchN(-1)
	return err
}

// DispatchN is Dispatch stopped after at most max deliveries (max < 0: no
// limit), so that a run can be walked one delivery of the queue at a time.
// It reports how many it made.
func (o *Ordering) DispatchN(max int) (int, error) {
	if !o.started() {
		return 0, scenarioErr("harness.err.no-consumer", "dispatch")
	}
	n := 0
	for ; n != max; n++ {
		e, attempt, ok, err := o.broker.Next()
		if err != nil {
			return n, err
		}
		if !ok {
			return n, nil
		}
		o.queued--
		if err := o.deliver(e, attempt); err != nil {
			return n + 1, err
		}
	}
	return n, nil
}

// Deliver is the broker delivering event i now, as its first delivery,
// ahead of the queue: what Dispatch does with a published event when it
// reaches the queue's head. Publishing events and then dispatching them is
// the same run as delivering each in turn and then dispatching the retries
// they queued, one step at a time, which is how the explorer walks it.
func (o *Ordering) Deliver(i int) error {
	if !o.started() {
		return scenarioErr("harness.err.no-consumer", "deliver")
	}
	o.published++
	return o.deliver(o.events[i], 1)
}

// deliver is one delivery: the consumer decides, and a retry goes to the
// back of the queue with its attempt raised, or past the budget to the DLQ.
func (o *Ordering) deliver(e ordering.Event, attempt int) error {
	if o.meter != nil {
		if err := o.meter(); err != nil {
			return err
		}
	}
	o.deliveries++
	clear(o.sinceReconcile) // a delivery makes every reconciliation stale
	// An event the projection already applied is a duplicate, whatever
	// else is wrong: retrying it or dead-lettering it is the harm.
	already := o.applied[e.ID] > 0
	out, err := o.decide(e, attempt)
	if err != nil {
		return err
	}
	refused := already && (out == ordering.OutcomeRetry || out == ordering.OutcomeDead)
	o.dupRefused = o.dupRefused || refused
	o.outcomes[e.ID] = out
	stuck := false
	before := o.version[e.OrderID]
	st := o.observe(e.OrderID)
	switch out {
	case ordering.OutcomeApplied:
		o.skipped = o.skipped || st.Version > before+1
		o.applied[e.ID]++
		o.appliedTwice = o.appliedTwice || o.applied[e.ID] > 1
	case ordering.OutcomeRetry:
		if stuck = o.pastBudget(attempt); !stuck {
			if err := o.broker.Publish(e, attempt+1); err != nil {
				return err
			}
			o.queued++
		}
	case ordering.OutcomeDead:
		if o.strategy != Student {
			d, _ := o.consumer.LastDead() // the entry the consumer just wrote
			if err := o.broker.DeadLetter(d); err != nil {
				return err
			}
		}
	}
	if o.rec != nil { // the explorer's enumeration records nothing, and builds nothing
		o.recordDelivery(e, attempt, out, st, refused)
		if stuck {
			o.recordPastBudget(e, attempt)
		}
	}
	return nil
}

// Snapshot is the run's state as one canonical text: everything a later
// step's outcome depends on (each order's row and highest version seen, the
// queue with its attempts, how many dead letters, each event's applies up
// to two, the
// invariants broken so far, the budget), and nothing it does not (counts
// of deliveries, outcomes already read). Two runs with the same snapshot
// end alike whatever they are given next; the explorer memoises states by
// it. The model broker's queue only: a real broker's is not read.
func (o *Ordering) Snapshot() string {
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(o.version)) {
		st, _ := o.proj.Get(id)
		fmt.Fprintf(&b, "%s=%s^%d ", id, st, o.version[id])
	}
	if o.started() {
		fmt.Fprintf(&b, "budget=%d ", o.budget)
	}
	b.WriteString("queue=")
	if q, ok := o.broker.(*memoryOrdering); ok {
		for _, d := range q.queue {
			fmt.Fprintf(&b, "%s#%d,", d.event.ID, d.attempt)
		}
	}
	fmt.Fprintf(&b, " dlq=%d applied=", len(o.DLQ()))
	for _, id := range slices.Sorted(maps.Keys(o.applied)) {
		fmt.Fprintf(&b, "%s:%d,", id, min(o.applied[id], 2))
	}
	fmt.Fprintf(&b, " moved-back=%v applied-twice=%v over-budget=%v duplicate-refused=%v skipped=%v", o.movedBack, o.appliedTwice, o.overBudget > 0, o.dupRefused, o.skipped)
	return b.String()
}

// recordDelivery records one delivery and what the consumer made of it; a
// retry or a dead letter is the fault, and of an event already applied
// (refused) the harm: a duplicate is not a conflict.
func (o *Ordering) recordDelivery(e ordering.Event, attempt int, out ordering.Outcome, st ordering.OrderState, refused bool) {
	if attempt == 1 && o.delivered[e.ID] {
		// A first delivery of an event the broker already delivered: the
		// broker delivers it twice, which is the fault.
		o.fault("broker", "consumer", M("step.deliver-again", e, attempt), M("res.received"))
	} else {
		o.step("broker", "consumer", M("step.deliver", e, attempt), M("res.received"), Neutral)
	}
	o.delivered[e.ID] = true
	switch {
	case refused && out == ordering.OutcomeRetry:
		o.step("consumer", "projection", M("step.project", e), M("res.outcome.duplicate-retried", st), Harm)
		return
	case refused:
		o.step("consumer", "dlq", M("step.dead-letter", e), M("res.outcome.duplicate-dead", st), Harm)
		return
	}
	switch out {
	case ordering.OutcomeApplied:
		o.step("consumer", "projection", M("step.project", e), M("res.outcome.applied", st), toneIf(o.applied[e.ID] > 1, Harm, Good))
	case ordering.OutcomeDuplicate:
		o.step("consumer", "projection", M("step.project", e), M("res.outcome.duplicate", st), Good)
	case ordering.OutcomeRetry:
		o.fault("consumer", "projection", M("step.project", e), M("res.outcome.conflict", e.OrderID, st, st.Version+1, e.Version))
	case ordering.OutcomeDead:
		o.fault("consumer", "dlq", M("step.dead-letter", e), o.deadReason(e, attempt))
	}
}

// deadReason says why an event was dead-lettered: poison (a type the
// order's state machine does not know, or a version its type never has),
// which no retry can fix, or a conflict whose retry budget is spent. It
// asks the book's version gate, not the dead letter's words: a student's
// consumer words its reasons its own way.
func (o *Ordering) deadReason(e ordering.Event, attempt int) Msg {
	if _, err := ordering.NewProjection().Apply(e); errors.Is(err, ordering.ErrPoison) {
		if v, ok := typeVersion(e); ok {
			return M("res.outcome.dead-poison-version", attempt, e.Type, fmt.Sprint(v), fmt.Sprint(e.Version))
		}
		return M("res.outcome.dead-poison-type", attempt, e.Type)
	}
	switch {
	case o.started() && attempt < o.budget:
		// A student's decision that gave up early: the trace says so,
		// never that a budget it did not spend was spent.
		return M("res.outcome.dead-early", attempt, o.budget-attempt)
	case o.started() && o.budget == 1:
		return M("res.outcome.dead-no-retry", attempt)
	case o.started():
		return M("res.outcome.dead-budget", attempt, o.budget)
	}
	return M("res.outcome.dead", attempt)
}

// typeVersion is the version the state machine gives e's type, found by
// asking the book's gate at each version from a row just below it; false
// for a type it does not know.
func typeVersion(e ordering.Event) (int64, bool) {
	for v := int64(1); v <= 8; v++ {
		p, at := ordering.NewProjection(), e
		at.Version = v
		ordering.Reconcile(p, ordering.MapSource{e.OrderID: {Version: v - 1}}, []string{e.OrderID})
		if _, err := p.Apply(at); err == nil {
			return v, true
		}
	}
	return 0, false
}

// observe reads an order's row and notes whether its version moved back.
func (o *Ordering) observe(orderID string) ordering.OrderState {
	st, _ := o.proj.Get(orderID)
	if st.Version < o.version[orderID] {
		o.movedBack = true
	}
	o.version[orderID] = st.Version
	return st
}

// Truth sets what the source of truth says of an order.
func (o *Ordering) Truth(orderID string, st ordering.OrderState) { o.truth[orderID] = st }

// Reconcile compares the projection with the source of truth for the given
// orders and repairs what diverged: the loop that closes what the DLQ
// holds.
func (o *Ordering) Reconcile(orders ...string) int {
	var fixes []ordering.Fix
	if o.mineProj != nil {
		// The book's reconciliation, over the student's rows.
		fixes = ordering.ReconcileRows(o.mineProj, o.truth, orders)
	} else {
		fixes = ordering.Reconcile(o.book, o.truth, orders)
	}
	o.fixes += len(fixes)
	o.noteReconciled(orders)
	for _, id := range orders {
		o.observe(id)
	}
	for _, f := range fixes {
		o.step("reconciler", "projection", M("step.repair", f.OrderID), M("res.repaired", f.From, f.To), Good)
	}
	if len(fixes) == 0 {
		for _, id := range orders {
			res := M("explore.res.no-repair")
			if _, known := o.truth.Status(id); !known {
				res = M("res.unknown-to-source") // Reconcile skips it
			}
			o.step("reconciler", "projection", M("step.repair", id), res, Good)
		}
	}
	return len(fixes)
}

// Read is the reader's look at an order's row.
func (o *Ordering) Read(orderID string) ordering.OrderState {
	st := o.observe(orderID)
	o.step("reader", "projection", M("step.read-state", orderID), M("res.state", st, o.proj.AppliedCount()), Neutral)
	return st
}

// Compare is the reader comparing an order's row with the source of truth.
func (o *Ordering) Compare(orderID string) bool {
	want, _ := o.truth.Status(orderID)
	st := o.observe(orderID)
	if st == want {
		o.step("reader", "projection", M("explore.step.compare-source", want), M("explore.res.matches"), Good)
		return true
	}
	o.step("reader", "projection", M("explore.step.compare-source", want), M("explore.res.diverged", st), Bad)
	return false
}

// Diverged counts the orders the source of truth knows whose row differs.
func (o *Ordering) Diverged() int {
	n := 0
	for id, want := range o.truth {
		if st, _ := o.proj.Get(id); st != want {
			n++
		}
	}
	return n
}

func orderName(i int) string { return fmt.Sprintf("order-%d", i+1) }

func (o *Ordering) step(actor, target string, action, result Msg, tone Tone) {
	if o.rec != nil {
		o.rec.Step(actor, target, action, result, tone)
	}
}

func (o *Ordering) fault(actor, target string, action, result Msg) {
	if o.rec != nil {
		o.rec.Fault(actor, target, action, result)
	}
}

// MovedBack reports whether any order's version ever went down;
// AppliedTwice whether any event was applied twice.
func (o *Ordering) MovedBack() bool { return o.movedBack }

// Skipped reports whether an apply ever moved an order past the next
// version, skipping one (a student's projection applying a gap).
func (o *Ordering) Skipped() bool      { return o.skipped }
func (o *Ordering) AppliedTwice() bool { return o.appliedTwice }

// DuplicateRefused reports whether an event already applied was retried or
// dead-lettered: a duplicate treated as a conflict or as poison.
func (o *Ordering) DuplicateRefused() bool { return o.dupRefused }

// Deliveries counts the consumer's Handle calls; Fixes the repairs.
func (o *Ordering) Deliveries() int { return o.deliveries }
func (o *Ordering) Fixes() int      { return o.fixes }

// DLQ is what the dead-letter queue holds.
func (o *Ordering) DLQ() []ordering.DLQEntry {
	if o.mine != nil {
		return o.mine.DLQ()
	}
	if o.strategy == Student {
		return append([]ordering.DLQEntry(nil), o.studentDLQ...)
	}
	if o.consumer == nil {
		return nil
	}
	// The DLQ is the broker's: a topic on a real one.
	dlq, err := o.broker.DeadLetters()
	if err != nil {
		o.brokerErr = errors.Join(o.brokerErr, err)
	}
	return dlq
}

// OrderingSection is §8.3 as a drill file speaks it.
var OrderingSection = Section{
	Harms: []RunHarm{{"diverged", "not-diverged"}, {"applied_twice", "not-applied-twice"}, {"moved_back", "not-moved-back"}, {"duplicate_refused", "duplicate-not-refused"}, {"skipped", "no-skipped-version"}, {"", "within-budget"}},
	Task:  []string{"poison/first-attempt", "out-of-order/converges-with-budget", "retry-budget/spent-exactly"},
	ID:    "8.3", Chapter: 8, Package: "internal/ordering", Harness: "ordering",
	Exercises: []string{ProjectionExercise},
	Verbs: []Verb{
		{Name: "event", Args: []Arg{{Name: "id", Kind: Word}, {Name: "order", Kind: Word}, {Name: "version", Kind: Word},
			{Name: "type", Kind: Word}, {Name: "where", Kind: Choice, Optional: true, Choices: []string{"logged"}}}},
		{Name: "consumer", Args: []Arg{{Name: "max-attempts", Kind: Number, Optional: true}}},
		{Name: "publish", Args: []Arg{{Name: "id", Kind: Word}}},
		{Name: "dispatch", Args: []Arg{{Name: "max", Kind: Number, Optional: true}}},
		{Name: "deliver", Args: []Arg{{Name: "id", Kind: Word}}},
		{Name: "truth", Args: []Arg{{Name: "order", Kind: Word}, {Name: "state", Kind: Word}}},
		{Name: "reconcile", Args: []Arg{{Name: "order", Kind: Word}}, Binds: []string{"fixes", "known"}},
		{Name: "read", Args: []Arg{{Name: "order", Kind: Word}}, Binds: []string{"state"}},
		{Name: "compare", Args: []Arg{{Name: "order", Kind: Word}}},
		{Name: "append", Args: []Arg{{Name: "id", Kind: Word}}},
		{Name: "replay", Args: []Arg{{Name: "from", Kind: Number, Optional: true}, {Name: "batch", Kind: Number, Optional: true},
			{Name: "by", Kind: Word, Optional: true}},
			Binds: []string{"applied", "duplicates", "offset", "rows"}},
		{Name: "lose-offset", Args: []Arg{{Name: "offset", Kind: Number}}},
		{Name: "read-log", Args: []Arg{{Name: "offset", Kind: Number}, {Name: "size", Kind: Number}}},
		{Name: "route", Args: []Arg{{Name: "orders", Kind: Number, Size: true}, {Name: "partitions", Kind: Number}}},
		{Name: "restart"},
		{Name: "count-partitions"},
	},
	Observables: []Observable{
		{"deliveries", 0}, {"published", 0}, {"applied", 0}, {"state", 1}, {"dlq", 0}, {"dlq_attempts", 0},
		{"outcome", 1}, {"max_attempts", 0}, {"fixes", 0}, {"log_len", 0}, {"rows", 0},
		{"out_of_range", 0}, {"zero_size", 0}, {"drained", 0},
		{"routed", 0}, {"partitions", 0}, {"used", 0}, {"moved", 0},
		{"moved_back", 0}, {"applied_twice", 0}, {"duplicate_refused", 0}, {"diverged", 0}, {"truth", 1},
		{"dlq_of", 1}, {"waiting", 0}, {"unreconciled", 0}, {"skipped", 0},
	},
	Staged: orderingStaged(),
	New: func(strategy string, env Env, rec *Recorder) (Harness, error) {
		if strategy == Student {
			o := NewStudentOrdering(env.Student, rec)
			o.meter = env.Meter
			return o, nil
		}
		o, err := NewOrderingIn(env.Ordering, rec)
		if err != nil {
			return nil, err
		}
		o.meter = env.Meter
		return o, nil
	},
}

// ParseState reads an order state's text form, "v2/PAID".
func ParseState(s string) (ordering.OrderState, error) {
	v, status, ok := strings.Cut(s, "/")
	n, err := strconv.ParseInt(strings.TrimPrefix(v, "v"), 10, 64)
	if !ok || err != nil || !strings.HasPrefix(v, "v") || status == "" {
		return ordering.OrderState{}, fmt.Errorf("a state is vN/STATUS, like v2/PAID, got %q", s)
	}
	return ordering.OrderState{Version: n, Status: ordering.Status(status)}, nil
}

func (o *Ordering) eventRef(id string) (int, error) {
	for i, e := range o.events {
		if e.ID == id {
			return i, nil
		}
	}
	return 0, scenarioErr("harness.err.no-event", id)
}

// Exec runs one step of a drill file.
func (o *Ordering) Exec(c Call) (Fields, error) {
	switch c.Verb {
	case "event":
		id := c.Word("id")
		if _, err := o.eventRef(id); err == nil {
			return nil, errArg(c.Verb, "id", "harness.err.declared-twice", id)
		}
		v := c.Word("version")
		n, err := strconv.ParseInt(strings.TrimPrefix(v, "v"), 10, 64)
		if err != nil || !strings.HasPrefix(v, "v") {
			return nil, errArg(c.Verb, "version", "harness.err.version", v)
		}
		_, err = o.Declare(ordering.Event{ID: id, OrderID: c.Word("order"), Version: n, Type: c.Word("type")}, c.Word("where") == "logged")
		return nil, err
	case "consumer":
		// Left out or 0, the book's NewConsumer picks its default, 3.
		n := c.Int("max-attempts", 0)
		if n < 0 {
			return nil, errArg(c.Verb, "max-attempts", "harness.err.at-least", 0, n)
		}
		o.Consumer(n)
		return nil, nil
	case "publish", "append":
		i, err := o.eventRef(c.Word("id"))
		if err != nil {
			return nil, err
		}
		if c.Verb == "publish" {
			return nil, o.Publish(i)
		}
		return nil, o.Append(i)
	case "dispatch":
		if !c.Has("max") {
			return nil, o.Dispatch()
		}
		if n := c.Int("max", 0); n < 1 {
			return nil, errArg(c.Verb, "max", "harness.err.at-least", 1, n)
		}
		_, err := o.DispatchN(c.Int("max", 0))
		return nil, err
	case "deliver":
		i, err := o.eventRef(c.Word("id"))
		if err != nil {
			return nil, err
		}
		return nil, o.Deliver(i)
	case "truth":
		st, err := ParseState(c.Word("state"))
		if err != nil {
			return nil, errArg(c.Verb, "state", "harness.err.state", c.Word("state"))
		}
		o.Truth(c.Word("order"), st)
		return nil, nil
	case "reconcile":
		_, known := o.truth.Status(c.Word("order"))
		return Fields{"fixes": o.Reconcile(c.Word("order")), "known": known}, nil
	case "read":
		return Fields{"state": o.Read(c.Word("order"))}, nil
	case "compare":
		o.Compare(c.Word("order"))
		return nil, nil
	case "replay":
		by := c.Word("by")
		if by == "" {
			by = "consumer"
		}
		from, batch := c.Int("from", 0), c.Int("batch", 100)
		if err := o.inLog(c.Verb, "from", from); err != nil {
			return nil, err
		}
		if batch < 1 {
			return nil, errArg(c.Verb, "batch", "harness.err.at-least", 1, batch)
		}
		res, err := o.ReplayFrom(by, from, batch)
		if err != nil {
			return nil, err
		}
		return Fields{"applied": res.Applied, "duplicates": res.Duplicates, "offset": res.Offset, "rows": o.rows()}, nil
	case "lose-offset":
		if err := o.inLog(c.Verb, "offset", c.Int("offset", 0)); err != nil {
			return nil, err
		}
		return nil, o.LoseOffset(c.Int("offset", 0))
	case "read-log":
		return nil, o.ReadLog(c.Int("offset", 0), c.Int("size", 0))
	case "route":
		n, p := c.Int("orders", 0), c.Int("partitions", 0)
		if n < 0 {
			return nil, errArg(c.Verb, "orders", "harness.err.at-least", 0, n)
		}
		if p < 1 {
			return nil, errArg(c.Verb, "partitions", "harness.err.at-least", 1, p)
		}
		return nil, o.Route(n, p)
	case "restart":
		return nil, o.Restart()
	case "count-partitions":
		o.CountPartitions()
		return nil, nil
	}
	return nil, fmt.Errorf("ordering has no verb %q", c.Verb)
}

// inLog checks an offset a step names: from 0 to the log's length (the
// end, where a consumer that read everything resumes).
func (o *Ordering) inLog(verb, arg string, offset int) error {
	n, err := o.broker.Len()
	if err != nil {
		return err
	}
	if offset < 0 || offset > n {
		return errArg(verb, arg, "harness.err.offset-range", n, offset)
	}
	return nil
}

// rows is every order's row in the projection, in the order the events
// name them: what a rebuild must reproduce.
func (o *Ordering) rows() string {
	var parts []string
	seen := map[string]bool{}
	for _, e := range o.events {
		if !seen[e.OrderID] {
			seen[e.OrderID] = true
			st, _ := o.proj.Get(e.OrderID)
			parts = append(parts, e.OrderID+"="+st.String())
		}
	}
	return strings.Join(parts, " ")
}

// Observe reports what counters and checks read.
func (o *Ordering) Observe(name string, args []any) (any, error) {
	switch name {
	case "deliveries":
		return o.deliveries, nil
	case "published":
		return o.published, nil
	case "applied":
		return o.proj.AppliedCount(), nil
	case "state":
		id, err := argString(name, args, 0)
		if err != nil {
			return nil, err
		}
		st, _ := o.proj.Get(id)
		return st, nil
	case "dlq":
		return len(o.DLQ()), nil
	case "dlq_attempts":
		var parts []string
		for _, d := range o.DLQ() {
			parts = append(parts, strconv.Itoa(d.Attempts))
		}
		return strings.Join(parts, "/"), nil
	case "outcome":
		id, err := argString(name, args, 0)
		return string(o.outcomes[id]), err
	case "max_attempts":
		return o.budget, nil
	case "fixes":
		return o.fixes, nil
	case "log_len":
		return o.broker.Len()
	case "rows":
		return o.rows(), nil
	case "out_of_range":
		return o.outOfRange, nil
	case "zero_size":
		return o.zeroSize, nil
	case "drained":
		return o.drained, nil
	case "routed":
		return len(o.routes), nil
	case "partitions":
		return o.partitions, nil
	case "used":
		return o.used, nil
	case "moved":
		return o.moved, nil
	case "moved_back":
		return o.movedBack, nil
	case "skipped":
		return o.skipped, nil
	case "applied_twice":
		return o.appliedTwice, nil
	case "duplicate_refused":
		return o.dupRefused, nil
	case "diverged":
		return o.Diverged(), nil
	case "truth":
		id, err := argString(name, args, 0)
		if err != nil {
			return nil, err
		}
		st, _ := o.truth.Status(id)
		return st, nil
	case "waiting":
		return o.Waiting(), nil
	case "unreconciled":
		return o.Unreconciled(), nil
	case "dlq_of":
		// The dead letters of one order: several events of an order may
		// die, and Reconcile still repairs the order once.
		id, err := argString(name, args, 0)
		n := 0
		for _, d := range o.DLQ() {
			if d.Event.OrderID == id {
				n++
			}
		}
		return n, err
	}
	return nil, fmt.Errorf("ordering has no observable %q", name)
}

// Finish ends the run: it closes the broker (a real one deletes its
// topics).
func (o *Ordering) Finish() error { return errors.Join(o.brokerErr, o.broker.Close()) }
