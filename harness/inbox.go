package harness

import (
	"errors"
	"fmt"
	"strings"

	"archlab/internal/inbox"
)

// §8.2: a consumer behind an at-least-once broker. The broker (Inbox)
// delivers a message, counts the delivery, and redelivers anything unacked;
// the consumer runs one of the section's handlers (a Strategy) on its local
// store; a fault is the scenario's: the handler dies at a named Point, or
// its ack is lost, or an acked message is replayed.

// Strategy is a consumer's handler, one of the designs §8.2 compares.
type Strategy string

// The handlers of §8.2, in the book's order of discussion. Only
// effect-then-ack is safe.
const (
	EffectThenAck    Strategy = "effect-then-ack"    // the book's Consume: ApplyOnce, then ack
	Naive            Strategy = "naive"              // NaiveApply, then ack: no dedup key
	MarkBeforeEffect Strategy = "mark-before-effect" // Mark, then Effect, then ack: two writes
	EarlyPrune       Strategy = "early-prune"        // Consume, then prune the keys through the message's Seq
)

// InboxStrategies lists the handlers in the explorer's order.
var InboxStrategies = []Strategy{Naive, MarkBeforeEffect, EffectThenAck, EarlyPrune}

// Point is where a consumer can die during a delivery. The handler passes
// them in order; a crash at a point stops it at the first point it reaches
// at or after that one.
type Point string

// The points of one delivery.
const (
	BeforeWrites  Point = "before-writes"  // delivered, nothing written
	BetweenWrites Point = "between-writes" // mark-before-effect: the key committed, the effect not; one transaction: written, not committed
	BeforeAck     Point = "before-ack"     // every write committed, the ack not sent
)

var pointOrder = map[Point]int{BeforeWrites: 1, BetweenWrites: 2, BeforeAck: 3}

// Reached reports whether a handler at point p has reached crash point c.
func (p Point) Reached(c Point) bool { return c != "" && pointOrder[p] >= pointOrder[c] }

// FaultKind is what the scenario does to one delivery.
type FaultKind string

// The faults of one delivery; "" is none.
const (
	CrashBefore FaultKind = "crash-before" // the handler dies before its first write
	CrashMid    FaultKind = "crash-mid"    // it dies between its writes (inside one transaction: nothing commits)
	CrashAfter  FaultKind = "crash-after"  // it dies after its writes, before the ack
	AckLost     FaultKind = "ack-lost"     // the writes commit, the ack never reaches the broker
	Replay      FaultKind = "replay"       // an acked message delivered again, as after an offset rewind
)

// InboxFaults lists the faults of a delivery in the explorer's order.
var InboxFaults = []FaultKind{CrashBefore, CrashMid, CrashAfter, AckLost, Replay}

// crashPoint is where a fault stops the handler, "" for none. A lost ack is
// the handler finishing and the broker not hearing: in a real process that
// is a kill before the ack.
func (f FaultKind) crashPoint() Point {
	switch f {
	case CrashBefore:
		return BeforeWrites
	case CrashMid:
		return BetweenWrites
	case CrashAfter:
		return BeforeAck
	}
	return ""
}

// Handled is what one delivery's handler did.
type Handled struct {
	Applied bool  // this delivery wrote the effect
	Marked  bool  // mark-before-effect: this delivery wrote a new key
	Crashed Point // where the handler died, "" when it returned
	// A handler in a process of its own also reports the process, the SQL
	// it sent and how it ended.
	Pid        int
	Exit       string
	Statements []Statement
}

// Statement is one SQL statement a real store sent, with its arguments
// written in, and the rows it changed (-1 for BEGIN, COMMIT, ...).
type Statement struct {
	SQL  string
	Rows int64
}

// String is the statement's canonical text form: its SQL.
func (s Statement) String() string { return s.SQL }

// Handle runs strategy's handler for m on s: the one place where each
// handler's writes, and the points between them, are written down. at, when
// set, is told every point the handler passes (a consumer process reports
// it and is killed there); crash is where the handler dies in this process,
// "" for nowhere. A handler whose writes are one transaction has nothing
// "between" them that commits: a crash there commits nothing.
func Handle(s inbox.Store, strategy Strategy, m inbox.Message, crash Point, at func(Point)) (Handled, error) {
	var h Handled
	pass := func(p Point) bool {
		if at != nil {
			at(p)
		}
		if p.Reached(crash) {
			h.Crashed = p
			return true
		}
		return false
	}
	if pass(BeforeWrites) {
		return h, nil
	}
	var err error
	switch strategy {
	case EffectThenAck, EarlyPrune:
		if crash == BetweenWrites {
			h.Crashed = BetweenWrites // inside ApplyOnce's transaction
			return h, nil
		}
		h.Applied, err = s.ApplyOnce(m)
	case Naive:
		if crash == BetweenWrites {
			h.Crashed = BetweenWrites // inside NaiveApply's transaction
			return h, nil
		}
		s.NaiveApply(m)
		h.Applied, err = true, inbox.Err(s)
	case MarkBeforeEffect:
		h.Marked, err = s.Mark(m)
		if err != nil || !h.Marked {
			break // a key already there: no effect, and no point between
		}
		if pass(BetweenWrites) {
			return h, nil
		}
		if err = s.Effect(m); err == nil {
			h.Applied = true
		}
	default:
		return h, fmt.Errorf("unknown strategy %q", strategy)
	}
	if err != nil {
		return h, err
	}
	pass(BeforeAck)
	return h, nil
}

// Consumer runs one delivery's handler: in this process on a store, or in
// a consumer process of its own (adapters/consumerproc).
type Consumer interface {
	Handle(strategy Strategy, m inbox.Message, crash Point) (Handled, error)
	// Real reports whether a crash is a real process killed with SIGKILL.
	Real() bool
}

// Local is a consumer in this process, on the store the harness reads.
type Local struct{ Store inbox.Store }

// Handle runs the handler here.
func (l Local) Handle(strategy Strategy, m inbox.Message, crash Point) (Handled, error) {
	return Handle(l.Store, strategy, m, crash, nil)
}

// Real is false: a crash here is the handler returning early.
func (Local) Real() bool { return false }

// InboxEnv says where a §8.2 run's consumer lives. The zero InboxEnv is the
// book's: an in-memory inbox.Ledger, every crash modelled.
type InboxEnv struct {
	// Open opens an empty store for one run; a store that speaks SQL
	// reports each statement to onSQL. Nil is inbox.NewLedger(). A store
	// with a Close method is closed by Finish.
	Open func(onSQL func(Statement)) (inbox.Store, error)
	// Consumer, when set, runs the deliveries instead of Local: consumer
	// processes on the database Open opened.
	Consumer func() Consumer
	// Broker, when set, opens the broker that delivers (broker.go): a real
	// one. Nil is the book's model, inbox.MemoryAck.
	Broker func() (InboxBroker, error)
}

// Inbox is one §8.2 run: the broker, the consumer and its store.
type Inbox struct {
	rec      *Recorder
	strategy Strategy
	store    inbox.Store
	consumer Consumer
	acks     *inbox.MemoryAck
	broker   InboxBroker // delivers and takes the acks: acks, or a real broker
	actor    string      // who sends the SQL the store reports

	msgs       []inbox.Message
	attempts   []int // deliveries per message
	applied    []int // deliveries per message whose handler wrote the effect
	deliveries int
	pruned     int
	kills      int       // crashes that were real processes killed
	wantKills  int       // crashes the scenario asked of real processes
	students   *Students // strategy student: the student's handler (student.go)

	// calls to a service outside the local store (boundary.go)
	outside outside
}

// NewInbox starts a §8.2 run of strategy in env. rec may be nil (the
// explorer's enumeration records nothing).
func NewInbox(strategy Strategy, env InboxEnv, rec *Recorder) (*Inbox, error) {
	h := &Inbox{rec: rec, strategy: strategy, acks: inbox.NewMemoryAck(), actor: "consumer"}
	if env.Open == nil {
		if env.Consumer != nil {
			return nil, errors.New("a consumer process needs a database: InboxEnv.Open is nil")
		}
		h.store = inbox.NewLedger()
	} else {
		s, err := env.Open(func(st Statement) { h.recordSQL(h.actor, 0, st) })
		if err != nil {
			return nil, err
		}
		h.store = s
	}
	h.consumer = Local{Store: h.store}
	if env.Consumer != nil {
		h.consumer = env.Consumer()
	}
	h.broker = &memoryInbox{acks: h.acks}
	if env.Broker != nil {
		b, err := env.Broker()
		if err != nil {
			return nil, errors.Join(err, h.closeStore())
		}
		h.broker = b
	}
	return h, nil
}

// Store is the consumer's store, as the broker's side reads it.
func (h *Inbox) Store() inbox.Store { return h.store }

// Acks is the broker's ack store.
func (h *Inbox) Acks() *inbox.MemoryAck { return h.acks }

// Declare adds a message the broker can deliver and returns its index.
func (h *Inbox) Declare(m inbox.Message) int {
	h.msgs = append(h.msgs, m)
	h.attempts = append(h.attempts, 0)
	h.applied = append(h.applied, 0)
	return len(h.msgs) - 1
}

// Messages are the declared messages, in order.
func (h *Inbox) Messages() []inbox.Message { return h.msgs }

// Deliver is one delivery of message i with fault f ("" for none): the
// broker hands it over, the consumer's handler runs up to the fault, and
// the ack goes back, or is lost, or is never sent. It reports whether this
// delivery applied the effect. A real consumer dies by SIGKILL where the
// model's handler stops.
func (h *Inbox) Deliver(i int, f FaultKind) (bool, error) {
	if h.strategy == Student {
		return h.deliverStudent(i, f)
	}
	m := h.msgs[i]
	n, err := h.broker.Deliver(m, f == Replay)
	if err != nil {
		return false, err
	}
	if h.attempts[i]++; n > 0 {
		h.attempts[i] = n // the broker's own count
	}
	h.deliveries++
	crash := f.crashPoint()
	real := h.consumer.Real()
	if real && f == AckLost {
		crash = BeforeAck // a process killed before its ack never sends it
	}
	if !real {
		h.recordDelivery(i, f, 0)
	}
	out, err := h.consumer.Handle(h.strategy, m, crash)
	if err != nil {
		return false, err
	}
	if real {
		h.recordDelivery(i, f, out.Pid)
		for _, st := range out.Statements {
			h.recordSQL("consumer", out.Pid, st)
		}
		if crash != "" {
			h.wantKills++
			if out.Crashed != "" {
				h.kills++
			}
		}
	}
	if out.Applied {
		h.applied[i]++
	}
	h.recordHandler(i, f, out)
	h.callOutside(i, f, out)
	if out.Crashed != "" && !(real && f == AckLost) {
		return out.Applied, nil // it died: there is no ack to send
	}
	if err := h.ack(m, f == AckLost, real && f == AckLost, out); err != nil {
		return out.Applied, err
	}
	if h.strategy == EarlyPrune && f != AckLost {
		h.Prune(m.Seq) // the janitor keeps no window at all
	}
	return out.Applied, nil
}

// Prune is the janitor forgetting the dedup keys with Seq <= seq.
func (h *Inbox) Prune(seq int64) int {
	actor := h.actor
	h.actor = "janitor" // the DELETE is the janitor's
	n := h.store.Prune(seq)
	h.actor = actor
	h.pruned += n
	if h.rec == nil {
		return n
	}
	h.step("janitor", "ledger", M("step.prune", seq), M(Plural("res.pruned", n), n), toneIf(n > 0 && h.strategy != EarlyPrune, Bad, Neutral))
	return n
}

// Read is the reader's final look at an order's balance.
func (h *Inbox) Read(orderID string) {
	h.step("reader", "ledger", M("step.read-balance", orderID), M("res.balance", h.store.Balance(orderID), h.store.Applies()), Neutral)
}

// CheckOnce is the reader asking of message i whether it was applied once,
// never (lost) or more than once (doubled).
func (h *Inbox) CheckOnce(i int) {
	m := h.msgs[i]
	n, balance := h.applied[i], h.store.Balance(m.OrderID)
	res, tone := M("explore.res.once", balance), Good
	switch {
	case n == 0:
		res, tone = M("explore.res.lost", balance), Harm
	case n > 1:
		res, tone = M("explore.res.doubled", balance, n), Harm
	}
	h.step("reader", "ledger", M("explore.step.effects-of", m.OrderID, m), res, tone)
}

// Applied is how many deliveries of message i wrote its effect.
func (h *Inbox) Applied(i int) int { return h.applied[i] }

// Lost and Doubled count the messages applied never and more than once.
func (h *Inbox) Lost() int    { return h.count(func(n int) bool { return n == 0 }) }
func (h *Inbox) Doubled() int { return h.count(func(n int) bool { return n > 1 }) }

func (h *Inbox) count(f func(int) bool) int {
	n := 0
	for _, a := range h.applied {
		if f(a) {
			n++
		}
	}
	return n
}

// Deliveries is how many deliveries the broker made.
func (h *Inbox) Deliveries() int { return h.deliveries }

// Finish ends the run: with real processes it checks that every crash the
// scenario asked for was a real kill, then it closes the store; the
// store's first error becomes the run's.
func (h *Inbox) Finish() error {
	if h.consumer.Real() && h.rec != nil && h.wantKills > 0 {
		h.rec.Check("check.crash-real.killed", h.kills == h.wantKills)
	}
	return errors.Join(inbox.Err(h.store), h.broker.Close(), h.closeStore())
}

// closeStore closes the store, when it is one that closes.
func (h *Inbox) closeStore() error {
	if c, ok := h.store.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Broker is the broker that delivers: the model, or a real one.
func (h *Inbox) Broker() InboxBroker { return h.broker }

// ack sends the ack of m and records how it went: acked, lost, or never
// sent because a real consumer was killed first.
func (h *Inbox) ack(m inbox.Message, lost, killed bool, out Handled) error {
	err := h.broker.Ack(m, lost)
	if h.rec == nil && (err == nil || errors.Is(err, inbox.ErrAckLost)) {
		return nil // nothing to record
	}
	switch {
	case errors.Is(err, inbox.ErrAckLost):
		if killed && h.rec != nil {
			// One fault, two steps: the kill, and the ack it swallowed.
			h.rec.FaultSteps(
				Step{Actor: "broker", Target: "consumer", Action: M("step.kill."+string(BeforeAck), out.Pid), Result: M("res.killed", out.Exit), Tone: Bad},
				Step{Actor: "consumer", Target: "broker", Action: M("step.ack", m), Result: M("res.ack-never-sent"), Tone: Bad})
		} else if !killed {
			h.fault("consumer", "broker", M("step.ack", m), M("res.ack-lost"))
		}
		return nil
	case err != nil:
		return err
	}
	h.step("consumer", "broker", M("step.ack", m), M("res.acked"), Good)
	return nil
}

// recordDelivery records the broker handing message i over; pid names the
// consumer process, 0 this one.
func (h *Inbox) recordDelivery(i int, f FaultKind, pid int) {
	if h.rec == nil {
		return // the explorer's enumeration: build no messages
	}
	m := h.msgs[i]
	var action Msg
	switch {
	case f == Replay && pid != 0:
		action = M("step.replay-process", m, pid)
	case f == Replay:
		action = M("step.replay", m)
	case pid != 0:
		action = M("step.deliver-process", m, h.attempts[i], pid)
	default:
		action = M("step.deliver", m, h.attempts[i])
	}
	h.step("broker", "consumer", action, M("res.received"), Neutral)
}

// recordHandler records the handler's writes and, when it died, where.
func (h *Inbox) recordHandler(i int, f FaultKind, out Handled) {
	if h.rec == nil {
		return // the explorer's enumeration: build no messages
	}
	m := h.msgs[i]
	if out.Crashed == BeforeWrites {
		h.crash(out, M("explore.step.crash-before"))
		return
	}
	switch h.strategy {
	case EffectThenAck, EarlyPrune, Naive:
		if out.Crashed == BetweenWrites {
			verb := "ApplyOnce"
			if h.strategy == Naive {
				verb = "NaiveApply"
			}
			h.crash(out, M("explore.step.crash-in-write", verb))
			return
		}
		action := M("step.apply-once", m)
		if h.strategy == Naive {
			action = M("step.naive-apply", m)
		}
		h.recordWrite(i, action, out.Applied)
	case MarkBeforeEffect:
		if out.Crashed == BetweenWrites {
			h.step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
			if out.Pid != 0 {
				h.fault("broker", "consumer", M("step.kill.between-mark-and-effect", out.Pid), M("res.killed", out.Exit))
			} else {
				h.fault("consumer", "consumer", M("step.crash-before-effect"), M("res.crashed", "ErrSimulatedCrash"))
			}
			return
		}
		// The same two writes, named the same way, at every delivery:
		// the key (a duplicate stops here) and then the effect.
		if !out.Marked {
			h.recordWrite(i, M("step.mark", m), false)
			break
		}
		h.step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
		h.recordWrite(i, M("step.effect", m), out.Applied)
	}
	if out.Crashed == BeforeAck && f != AckLost {
		h.crash(out, M("explore.step.crash-after"))
	}
}

// recordWrite records a write that may have applied message i. Applying it
// the first time or suppressing a duplicate is good; applying it again, or
// dropping it as a duplicate when it was never applied, is the bug showing.
func (h *Inbox) recordWrite(i int, action Msg, applied bool) {
	m := h.msgs[i]
	bal := h.store.Balance(m.OrderID)
	var res Msg
	tone := Good
	switch {
	case !applied && h.applied[i] == 0:
		res, tone = M("res.taken-for-duplicate"), Harm
	case !applied:
		res = M("res.duplicate")
	case h.applied[i] > 1:
		res, tone = M("res.applied-again", 1, bal), Harm
	case h.strategy == Naive:
		res, tone = M("res.applied", bal), Neutral
	default:
		res = M("res.applied", bal)
	}
	h.step("consumer", "ledger", action, res, tone)
}

// crash records the handler dying: in this process, or killed.
func (h *Inbox) crash(out Handled, action Msg) {
	if out.Pid != 0 {
		h.fault("broker", "consumer", M("step.kill."+string(out.Crashed), out.Pid), M("res.killed", out.Exit))
		return
	}
	h.fault("consumer", "consumer", action, M("res.crashed", "simulated"))
}

// recordSQL records one statement: from a process (pid) or from this one.
func (h *Inbox) recordSQL(actor string, pid int, st Statement) {
	action := M("step.sql", st.SQL)
	if pid != 0 {
		action = M("step.sql-pid", pid, st.SQL)
	}
	result := M("res.sql-ok")
	if st.Rows >= 0 {
		result = M("res.sql-rows", st.Rows)
	}
	h.step(actor, "database", action, result, Neutral)
}

func (h *Inbox) step(actor, target string, action, result Msg, tone Tone) {
	if h.rec != nil {
		h.rec.Step(actor, target, action, result, tone)
	}
}

// fault records the fault itself: in the fault phase, with recovery after.
func (h *Inbox) fault(actor, target string, action, result Msg) {
	if h.rec != nil {
		h.rec.Fault(actor, target, action, result)
	}
}

// messageRef finds a declared message by its canonical form
// (producer:id).
func (h *Inbox) messageRef(ref string) (int, error) {
	for i, m := range h.msgs {
		if m.String() == ref {
			return i, nil
		}
	}
	return 0, scenarioErr("harness.err.no-message", ref)
}

// toneIf returns yes when cond holds, else no.
func toneIf(cond bool, yes, no Tone) Tone {
	if cond {
		return yes
	}
	return no
}

// MaxAmount bounds a message's amount, in cents (ten billion): a run's
// balance, a sum of at most a few million payments, then fits the book's
// int64 and never wraps.
const MaxAmount = 1_000_000_000_000

// splitRef splits a message reference "producer:id".
func splitRef(ref string) (producer, id string, ok bool) {
	producer, id, ok = strings.Cut(ref, ":")
	return producer, id, ok && producer != "" && id != ""
}

// InboxSection is §8.2 as a drill file speaks it.
var InboxSection = Section{
	ID: "8.2", Harness: "inbox",
	Strategies: []string{string(EffectThenAck), string(Naive), string(MarkBeforeEffect), string(EarlyPrune)},
	Verbs: []Verb{
		{Name: "message", Args: []Arg{{Name: "msg", Kind: Word}, {Name: "seq", Kind: Number, Optional: true},
			{Name: "order", Kind: Word, Optional: true}, {Name: "amount", Kind: Number, Optional: true, Limit: [2]int{-MaxAmount, MaxAmount}},
			{Name: "notify", Kind: Choice, Optional: true, Choices: []string{"notify"}}}},
		{Name: "deliver", Args: []Arg{{Name: "msg", Kind: Word},
			{Name: "fault", Kind: Choice, Optional: true, Choices: faultNames()}}, Binds: []string{"applied"}},
		{Name: "prune", Args: []Arg{{Name: "seq", Kind: Number}}},
		{Name: "read", Args: []Arg{{Name: "order", Kind: Word}}},
		{Name: "once", Args: []Arg{{Name: "msg", Kind: Word}}},
	},
	Observables: []Observable{
		{"deliveries", 0}, {"effects", 0}, {"balance", 1}, {"acks", 0}, {"acked", 1}, {"amount", 1}, {"seq", 1},
		{"messages", 0}, {"shared_id", 0}, {"amounts", 0}, {"pruned", 0}, {"applied", 1}, {"lost", 0}, {"doubled", 0},
		{"calls", 0}, {"called", 1},
	},
	New: func(strategy string, env Env, rec *Recorder) (Harness, error) {
		if strategy == Student {
			return NewStudentInbox(env.Student, env.Inbox, rec)
		}
		return NewInbox(Strategy(strategy), env.Inbox, rec)
	},
}

func faultNames() []string {
	out := make([]string, len(InboxFaults))
	for i, f := range InboxFaults {
		out[i] = string(f)
	}
	return out
}

// Exec runs one step of a drill file.
func (h *Inbox) Exec(c Call) (Fields, error) {
	switch c.Verb {
	case "message":
		ref := c.Word("msg")
		producer, id, ok := splitRef(ref)
		if !ok {
			return nil, errArg(c.Verb, "msg", "harness.err.msg-ref", ref)
		}
		if _, err := h.messageRef(ref); err == nil {
			return nil, errArg(c.Verb, "msg", "harness.err.declared-twice", ref)
		}
		order := c.Word("order")
		if order == "" {
			order = "o-1"
		}
		i := h.Declare(inbox.Message{Producer: producer, ID: id, Seq: int64(c.Int("seq", 1)), OrderID: order,
			AmountCents: int64(c.Int("amount", 2599))})
		if c.Word("notify") != "" {
			h.Notify(i)
		}
		return nil, nil
	case "deliver":
		i, err := h.messageRef(c.Word("msg"))
		if err != nil {
			return nil, err
		}
		applied, err := h.Deliver(i, FaultKind(c.Word("fault")))
		return Fields{"applied": applied}, err
	case "prune":
		h.Prune(int64(c.Int("seq", 0)))
		return nil, nil
	case "read":
		h.Read(c.Word("order"))
		return nil, nil
	case "once":
		i, err := h.messageRef(c.Word("msg"))
		if err != nil {
			return nil, err
		}
		h.CheckOnce(i)
		return nil, nil
	}
	return nil, fmt.Errorf("inbox has no verb %q", c.Verb)
}

// Observe reports what counters and checks read.
func (h *Inbox) Observe(name string, args []any) (any, error) {
	msg := func() (int, error) {
		ref, err := argString(name, args, 0)
		if err != nil {
			return 0, err
		}
		return h.messageRef(ref)
	}
	switch name {
	case "deliveries":
		return h.deliveries, nil
	case "effects":
		return h.store.Applies(), nil
	case "balance":
		order, err := argString(name, args, 0)
		return int(h.store.Balance(order)), err
	case "acks":
		return h.broker.Acks(), nil
	case "acked":
		i, err := msg()
		if err != nil {
			return nil, err
		}
		return h.broker.Acked(h.msgs[i]), nil
	case "amount", "seq":
		i, err := msg()
		if err != nil {
			return nil, err
		}
		if name == "seq" { // the producer's outbox sequence, what Prune measures
			return int(h.msgs[i].Seq), nil
		}
		return int(h.msgs[i].AmountCents), nil
	case "applied":
		i, err := msg()
		if err != nil {
			return nil, err
		}
		return h.applied[i], nil
	case "messages":
		return len(h.msgs), nil
	case "shared_id":
		// The event ID every declared message carries, "" when they differ.
		id := ""
		for i, m := range h.msgs {
			if i > 0 && m.ID != id {
				return "", nil
			}
			id = m.ID
		}
		return id, nil
	case "amounts":
		var sum int64
		for _, m := range h.msgs {
			sum += m.AmountCents
		}
		return int(sum), nil
	case "pruned":
		return h.pruned, nil
	case "lost":
		return h.Lost(), nil
	case "doubled":
		return h.Doubled(), nil
	case "calls":
		return h.outside.total, nil
	case "called":
		i, err := msg()
		if err != nil {
			return nil, err
		}
		return h.outside.calls[i], nil
	}
	return nil, fmt.Errorf("inbox has no observable %q", name)
}
