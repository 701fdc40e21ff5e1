package harness

import (
	"errors"
	"fmt"
	"strings"

	"archlab/internal/inbox"
)

// §8.2: a consumer behind an at-least-once broker. The broker (Inbox)
// delivers a message, counts the delivery, and redelivers anything unacked;
// the consumer runs one of the section's handlers (a Strategy), which is
// the book's own function over the book's API; the fault is the
// environment's: a row of the fault table (inbox_faults.go) strikes at the
// calls the handler makes to its store and to the broker (inbox_env.go).

// Strategy is a consumer's handler, one of the designs §8.2 compares.
type Strategy string

// The handlers of §8.2, in the book's order of discussion. Only
// effect-then-ack is safe.
const (
	EffectThenAck    Strategy = "effect-then-ack"    // the book's Consume: ApplyOnce, then ack
	Naive            Strategy = "naive"              // NaiveApply, then ack: no dedup key
	MarkBeforeEffect Strategy = "mark-before-effect" // the book's MarkBeforeEffect, then ack: two writes
	EarlyPrune       Strategy = "early-prune"        // Consume, then prune the keys through the message's Seq
	AckBeforeEffect  Strategy = "ack-before-effect"  // the ack, then ApplyOnce: the order Consume's comment warns against
)

// InboxStrategies lists the handlers in the explorer's order.
var InboxStrategies = []Strategy{Naive, MarkBeforeEffect, EffectThenAck, EarlyPrune}

// Handler handles one delivery of m over the book's API: the consumer's
// store and the broker's ack store. It reports what the book's Consume
// reports: whether it applied the effect, and the error it met.
type Handler func(s inbox.Store, m inbox.Message, ack inbox.AckStore) (bool, error)

// InboxHandler is a strategy's handler. Each is the book's functions,
// called as the book wrote them; none writes the book's steps again.
func InboxHandler(s Strategy) (Handler, bool) {
	switch s {
	case EffectThenAck:
		return inbox.Consume, true
	case Naive:
		return naiveHandler, true
	case MarkBeforeEffect:
		return markFirstHandler, true
	case EarlyPrune:
		return earlyPruneHandler, true
	case AckBeforeEffect:
		return ackFirstHandler, true
	}
	return nil, false
}

// ackFirstHandler acks, then applies: the opposite of Consume's order,
// which Consume's comment says "would lose the message". A crash after
// the ack and before the effect does.
func ackFirstHandler(s inbox.Store, m inbox.Message, ack inbox.AckStore) (bool, error) {
	if err := ack.Ack(m); err != nil {
		return false, err
	}
	return s.ApplyOnce(m)
}

// naiveHandler applies every delivery, then acks: NaiveApply, no key.
func naiveHandler(s inbox.Store, m inbox.Message, ack inbox.AckStore) (bool, error) {
	s.NaiveApply(m)
	if err := inbox.Err(s); err != nil {
		return false, err
	}
	return true, ack.Ack(m)
}

// markFirstHandler is the book's MarkBeforeEffect, then the ack. It passes
// crash=false: whether the consumer dies between the writes is the
// scenario's to decide, and the environment's store decides it. It reports
// the effect as the book's test reads it, from Applies.
func markFirstHandler(s inbox.Store, m inbox.Message, ack inbox.AckStore) (bool, error) {
	before := s.Applies()
	if err := s.MarkBeforeEffect(m, false); err != nil {
		return false, err
	}
	return s.Applies() > before, ack.Ack(m)
}

// earlyPruneHandler is Consume, then the janitor pruning every key through
// the message's Seq at once: a dedup table with no retention window.
func earlyPruneHandler(s inbox.Store, m inbox.Message, ack inbox.AckStore) (bool, error) {
	applied, err := inbox.Consume(s, m, ack)
	if err == nil {
		s.Prune(m.Seq)
	}
	return applied, err
}

// InboxEnv says where a §8.2 run's consumer lives. The zero InboxEnv is the
// book's: an in-memory inbox.Ledger, every crash modelled.
type InboxEnv struct {
	// Open opens an empty store for one run; a store that speaks SQL
	// reports each statement to onSQL. Nil is inbox.NewLedger(). A store
	// with a Close method is closed by Finish.
	Open func(onSQL func(Statement)) (inbox.Store, error)
	// Consumer, when set, runs the deliveries instead of this process:
	// consumer processes on the database Open opened.
	Consumer func() Consumer
	// Broker, when set, opens the broker that delivers (broker.go): a real
	// one. Nil is the book's model, inbox.MemoryAck.
	Broker func() (InboxBroker, error)
}

// Inbox is one §8.2 run: the broker, the consumer and its store.
type Inbox struct {
	rec      *Recorder
	strategy Strategy
	handler  Handler
	store    inbox.Store
	consumer Consumer // nil: the handler runs in this process
	acks     *inbox.MemoryAck
	broker   InboxBroker // delivers and takes the acks: acks, or a real broker
	actor    string      // who sends the SQL the store reports

	msgs       []inbox.Message
	attempts   []int  // deliveries per message
	applied    []int  // deliveries per message whose handler wrote the effect
	keys       []bool // per message: the store holds its dedup key (inbox_keys.go)
	deliveries int
	pruned     int
	kills      int       // crashes that were real processes killed
	wantKills  int       // crashes the scenario asked of real processes
	students   *Students // strategy student: the student's handler (student.go)

	// The durable inbox (inbox_durable.go): per message, its row in the
	// consumer's inbox table and whether the row is done; down: the
	// consumer died and has not restarted; durable: the code used the
	// table; recoverErr: the recovery's own error, for Finish.
	stored, done []bool
	down         bool
	// The outbox (inbox_outbox.go): per message, its outbox row and
	// whether the row was relayed.
	outbox, relayed []bool
	// The lease (inbox_lease.go): per message, whether its key was
	// claimed, and completed.
	claimed, completed []bool
	settled            bool
	durable            bool
	recoverErr         error
	onRecovery         func()
	// gap is the step's gap row's call (InboxFault.Gap), 0 when it has
	// none or it struck; gapCalls the calls the step made before its
	// delivery (its restart's).
	gap, gapCalls int

	// calls to a service outside the local store (boundary.go)
	outside outside
}

// NewInbox starts a §8.2 run of strategy in env. rec may be nil (the
// explorer's enumeration records nothing).
func NewInbox(strategy Strategy, env InboxEnv, rec *Recorder) (*Inbox, error) {
	if lab, ok := labStrategies[strategy]; ok {
		// The lab's durable inbox and outbox are written with the
		// student's verbs.
		h, err := NewInbox(Student, env, rec)
		if err == nil {
			h.students = lab
		}
		return h, err
	}
	h := &Inbox{rec: rec, strategy: strategy, acks: inbox.NewMemoryAck(), actor: "consumer"}
	if strategy != Student {
		handler, ok := InboxHandler(strategy)
		if !ok {
			return nil, fmt.Errorf("unknown strategy %q", strategy)
		}
		h.handler = handler
	}
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
	h.keys = append(h.keys, false)
	h.stored = append(h.stored, false)
	h.done = append(h.done, false)
	h.outbox = append(h.outbox, false)
	h.relayed = append(h.relayed, false)
	h.claimed = append(h.claimed, false)
	h.completed = append(h.completed, false)
	return len(h.msgs) - 1
}

// Messages are the declared messages, in order.
func (h *Inbox) Messages() []inbox.Message { return h.msgs }

// Delivered is what one step of the broker came to.
type Delivered struct {
	Applied  bool // a copy's handler wrote the effect (measured on the store)
	Reported bool // a copy's handler reported the effect as applied
	AckLost  bool // a copy's handler returned an error wrapping inbox.ErrAckLost
	Crashed  bool // a copy's consumer died (modelled, or a process killed): its handler never returned
	// Beyond: the row's gap lay past the step's calls and its last gap
	// struck instead (the run of a gap row with one call fewer).
	Beyond bool
}

// Deliver is one step of the broker with message i and fault f ("" for
// none), as the fault table's row says: the broker hands the message over
// (twice for a duplicate), the consumer's handler runs in the environment
// the row sets up, and the ack goes back, or is lost, or is never sent.
func (h *Inbox) Deliver(i int, f FaultKind) (Delivered, error) {
	k, ok := InboxFaultByName(f)
	if !ok {
		return Delivered{}, scenarioErr("harness.err.no-fault", f, strings.Join(inboxFaultNames(), ", "))
	}
	row := InboxFaults[k]
	// A fault strikes only a message in the state its row names: a replay
	// an acked message (an offset rewound past it), the others one the
	// broker still holds unacked (a copy sent before its ack arrived). A
	// student's handler decides what is acked, so a file of strategy
	// student may meet either state: that is the code's doing, not the
	// file's. The lab's own designs (a durable inbox, an outbox, a lease)
	// ack as the book's strategies do, and are held to the same rule
	// (issue 43).
	if row.Name != "" && (h.strategy != Student || h.students != nil && h.students.lab) {
		if acked := h.broker.Acked(h.msgs[i]); acked != (row.On == Acked) {
			key := "harness.err.fault-on-unacked"
			if acked {
				key = "harness.err.fault-on-acked"
			}
			return Delivered{}, errArg("deliver", "fault", key, row.Name, inbox.DedupKey(h.msgs[i]))
		}
	}
	var out Delivered
	for c := range row.Copies {
		last := c == row.Copies-1
		// The copies before the last are plain deliveries; the last is
		// the row's own, and meets its fault.
		copyRow := row
		if !last {
			copyRow = InboxFaults[0]
		}
		named := row
		if row.LeaseExpires {
			// The copy the lease's end hands over names the row; this
			// one is a plain delivery (leaseRunsOut).
			named = InboxFaults[0]
		}
		d, err := h.deliverCopy(i, copyRow, named, last)
		out.Applied = out.Applied || d.Applied
		out.Reported = out.Reported || d.Reported
		out.AckLost = out.AckLost || d.AckLost
		out.Crashed = out.Crashed || d.Crashed
		out.Beyond = out.Beyond || d.Beyond
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// deliverCopy is the broker handing message i over once, with the row's
// fault; named is the row the trace names the copy by.
func (h *Inbox) deliverCopy(i int, row, named InboxFault, last bool) (Delivered, error) {
	h.gap, h.gapCalls = row.Gap, 0
	if err := h.restart(); err != nil {
		return Delivered{}, err
	}
	if h.strategy == Student {
		if err := h.studentAllowed(); err != nil {
			return Delivered{}, err
		}
	}
	m := h.msgs[i]
	n, err := h.broker.Deliver(m, named.Replay || (named.Copies > 1 && last))
	if err != nil {
		return Delivered{}, err
	}
	if h.attempts[i]++; n > 0 {
		h.attempts[i] = n // the broker's own count
	}
	h.deliveries++
	// A failed effect kills no process: the delivery runs here, on the
	// same store, the consumer process's way of failing a write.
	// Nor does a crash after the ack, which no book's handler reaches.
	if h.consumer != nil && !row.FailEffect && row.Crash != AfterAck && !row.AtCalls() && h.strategy != Student {
		return h.deliverToProcess(i, row, named, last)
	}
	h.recordDelivery(i, named, last, 0)
	d := h.newDelivery(i, row)
	var reported bool
	ackLost := false
	if h.strategy == Student {
		// The student's handler reports nothing: what it was told it
		// applied, and whether its ack was lost, stand for its report.
		err = h.students.Inbox(&Delivery{env: d, watch: h.students.watch(), h: h, i: i})
		reported, ackLost = d.applied, d.ackLost
	} else {
		reported, err = h.handler(d, m, d)
		ackLost = errors.Is(err, inbox.ErrAckLost)
	}
	d.end()
	beyond := d.beyond
	h.down = h.down || d.dead
	if row.FailEffect && !d.acked && !d.dead {
		// Nothing came back: the broker delivers it again (AckWait).
		h.step("broker", "consumer", M("step.no-ack", m), M("res.will-redeliver"), Neutral)
	}
	switch {
	case d.err != nil:
		return Delivered{Applied: d.applied}, d.err
	case !expected(err) && h.strategy == Student:
		return Delivered{Applied: d.applied}, fmt.Errorf("the student's handler: %w", err)
	case !expected(err):
		return Delivered{Applied: d.applied}, err
	}
	return Delivered{Applied: d.applied, Reported: reported, AckLost: ackLost, Crashed: d.dead, Beyond: beyond}, nil
}

// newDelivery is the environment of one delivery in this process: the
// run's store and broker, with row's fault around them, every write
// counted and recorded as it returns.
func (h *Inbox) newDelivery(i int, row InboxFault) *deliveryEnv {
	d := &deliveryEnv{store: h.store, m: h.msgs[i], crash: row.Crash, lose: row.LoseAck, failEffect: row.FailEffect, model: true,
		calls: h.gapCalls, lease: row.LeaseExpires, leaseExpires: row.LeaseExpires}
	d.gap, h.gap = h.gap, 0 // its restart's calls are counted already
	d.wrote = func(w Wrote) {
		if w.Applied {
			h.applied[i]++
		}
		h.noteKey(i, w)
		h.recordWrote(i, w)
	}
	d.died = func(p Point, inside string) { h.recordCrash(p, inside, d.calls) }
	// The book's handlers call the outside service right before their
	// ack; the student's handler calls it itself (Delivery.Notify).
	if h.strategy != Student {
		d.before = func() { h.callOutside(i) }
	}
	d.notify = h.notifyFor
	d.ack = func(lost bool) error { return h.ack(h.msgs[i], lost, false, 0, "") }
	d.prune = h.Prune
	return d
}

// deliverToProcess runs the copy's handler in a consumer process and
// records what it reported, in order, then carries out its ack and its
// prune on the broker's side. A lost ack is a process killed before its
// ack: it never sends it.
func (h *Inbox) deliverToProcess(i int, row, named InboxFault, last bool) (Delivered, error) {
	m := h.msgs[i]
	crash := row.Crash
	if row.LoseAck {
		crash = BeforeAck
	}
	out, err := h.consumer.Handle(h.strategy, m, crash)
	if err != nil {
		return Delivered{}, err
	}
	h.recordDelivery(i, named, last, out.Pid)
	var d Delivered
	var lastWrite Wrote
	for _, e := range out.Events {
		switch {
		case e.SQL != nil:
			h.recordSQL("consumer", out.Pid, *e.SQL)
		case e.Wrote != nil:
			lastWrite = *e.Wrote
			if e.Wrote.Applied {
				h.applied[i]++
				d.Applied = true
			}
			h.noteKey(i, *e.Wrote)
			h.recordWrote(i, *e.Wrote)
		case e.Ack:
			h.callOutside(i)
			if err := h.ack(m, false, false, 0, ""); err != nil {
				return d, err
			}
		case e.Prune != nil:
			h.Prune(*e.Prune)
		}
	}
	if crash != "" {
		h.wantKills++
		if out.Crashed != "" {
			h.kills++
		}
	}
	switch {
	case out.Crashed != "" && row.LoseAck:
		// One fault, two steps: the kill, and the ack it swallowed.
		h.callOutside(i)
		if err := h.ack(m, true, true, out.Pid, out.Exit); !expected(err) {
			return d, err
		}
	case out.Crashed != "":
		key := "step.kill." + string(out.Crashed)
		if out.Crashed == BetweenWrites && lastWrite.Call == "MarkBeforeEffect" && lastWrite.NewKey && !lastWrite.Applied {
			key = "step.kill.between-mark-and-effect"
		}
		h.fault("broker", "consumer", M(key, out.Pid), M("res.killed", out.Exit))
	}
	d.Reported, d.Crashed = out.Reported, out.Crashed != ""
	return d, nil
}

// Prune is the janitor forgetting the dedup keys with Seq <= seq.
func (h *Inbox) Prune(seq int64) int {
	actor := h.actor
	h.actor = "janitor" // the DELETE is the janitor's
	n := h.store.Prune(seq)
	h.forgetKeys(seq)
	h.actor = actor
	h.pruned += n
	if h.rec == nil {
		return n
	}
	h.step("janitor", "ledger", M("step.prune", seq), M(Plural("res.pruned", n), n), toneIf(n > 0 && h.strategy != EarlyPrune, Bad, Neutral))
	return n
}

// Read is the reader's final look at an order's balance: after the
// consumer's last recovery, as every other reading of the books (a trace
// read the balances before it, issue 43).
func (h *Inbox) Read(orderID string) {
	h.settle()
	h.step("reader", "ledger", M("step.read-balance", orderID), M("res.balance", h.store.Balance(orderID), h.store.Applies()), Neutral)
}

// CheckOnce is the reader asking of message i whether it was applied once,
// never (lost) or more than once (doubled).
func (h *Inbox) CheckOnce(i int) {
	h.settle()
	m := h.msgs[i]
	n, balance := h.applied[i], h.store.Balance(m.OrderID)
	// The verdict reads the damage back; the harm itself was recorded
	// where it happened, in a fault phase.
	res, tone := M("explore.res.once", balance), Good
	switch {
	case n == 0:
		res, tone = M("explore.res.lost", balance), Bad
	case n > 1:
		res, tone = M("explore.res.doubled", balance, n), Bad
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
	if h.consumer != nil && h.rec != nil && h.wantKills > 0 {
		h.rec.Check("check.crash-real.killed", h.kills == h.wantKills)
	}
	return errors.Join(h.recoverErr, inbox.Err(h.store), h.broker.Close(), h.closeStore())
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
// sent because a consumer process (pid) was killed first.
func (h *Inbox) ack(m inbox.Message, lost, killed bool, pid int, exit string) error {
	err := h.broker.Ack(m, lost)
	if h.rec == nil && (err == nil || errors.Is(err, inbox.ErrAckLost)) {
		return err // nothing to record
	}
	switch {
	case errors.Is(err, inbox.ErrAckLost) && killed:
		h.rec.FaultSteps(
			Step{Actor: "broker", Target: "consumer", Action: M("step.kill."+string(BeforeAck), pid), Result: M("res.killed", exit), Tone: Bad},
			Step{Actor: "consumer", Target: "broker", Action: M("step.ack", m), Result: M("res.ack-never-sent"), Tone: Bad})
		return err
	case errors.Is(err, inbox.ErrAckLost):
		h.fault("consumer", "broker", M("step.ack", m), M("res.ack-lost"))
		return err
	case err != nil:
		return err
	}
	h.step("consumer", "broker", M("step.ack", m), M("res.acked"), Good)
	return nil
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
	Harms: []RunHarm{{"drops", "not-lost"}, {"doubled", "not-doubled"}, {"uncalled", "outside-called"}, {"unacked", "all-acked"}},
	ID:    "8.2", Chapter: 8, Package: "internal/inbox", Harness: "inbox",
	Strategies: []string{string(EffectThenAck), string(Naive), string(MarkBeforeEffect), string(EarlyPrune), string(AckBeforeEffect), string(DurableInbox), string(Outbox), string(Lease)},
	Verbs: []Verb{
		{Name: "message", Args: []Arg{{Name: "msg", Kind: Word}, {Name: "seq", Kind: Number, Optional: true},
			{Name: "order", Kind: Word, Optional: true}, {Name: "amount", Kind: Number, Optional: true, Limit: [2]int{-MaxAmount, MaxAmount}},
			{Name: "notify", Kind: Choice, Optional: true, Choices: []string{"notify"}}}},
		{Name: "deliver", Args: []Arg{{Name: "msg", Kind: Word},
			{Name: "fault", Kind: Choice, Optional: true, Choices: inboxFaultNames(), Listed: inboxFaultsListed(), ChoiceKey: func(c string) string {
				if c == GapClass {
					return "fault.8.2." + GapClass
				}
				k, _ := InboxFaultByName(FaultKind(c))
				return InboxFaults[k].DocKey()
			}}}, Binds: []string{"applied", "reported", "ack_lost", "crashed"}},
		{Name: "prune", Args: []Arg{{Name: "seq", Kind: Number}}},
		{Name: "read", Args: []Arg{{Name: "order", Kind: Word}}},
		{Name: "once", Args: []Arg{{Name: "msg", Kind: Word}}},
	},
	Observables: []Observable{
		{"deliveries", 0}, {"effects", 0}, {"balance", 1}, {"acks", 0}, {"acked", 1}, {"amount", 1}, {"seq", 1},
		{"messages", 0}, {"shared_id", 0}, {"amounts", 0}, {"pruned", 0}, {"applied", 1}, {"lost", 0}, {"doubled", 0},
		{"uncalled", 0}, {"unacked", 0},
		{"calls", 0}, {"called", 1}, {"key", 1}, {"dropped", 1},
	},
	Exercises: []string{LedgerExercise},
	RealStore: true,
	New: func(strategy string, env Env, rec *Recorder) (Harness, error) {
		switch {
		case strategy == Student && env.Exercise == LedgerExercise:
			return NewStudentLedgerInbox(env.Student, env.Inbox, rec)
		case strategy == Student && env.Exercise != "":
			return nil, fmt.Errorf("section 8.2 has no exercise %q", env.Exercise)
		case strategy == Student:
			return NewStudentInbox(env.Student, env.Inbox, rec)
		}
		return NewInbox(Strategy(strategy), env.Inbox, rec)
	},
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
		d, err := h.Deliver(i, FaultKind(c.Word("fault")))
		return Fields{"applied": d.Applied, "reported": d.Reported, "ack_lost": d.AckLost, "crashed": d.Crashed}, err
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
	if err := h.settle(); err != nil {
		return nil, err
	}
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
	case "key", "dropped":
		i, err := msg()
		if err != nil {
			return nil, err
		}
		if name == "key" {
			return h.KeyHeld(i), nil
		}
		return h.Dropped(i), nil
	case "uncalled":
		return h.Uncalled(), nil
	case "drops":
		// The harm "lost", as it stands at any point of a run: the
		// messages dropped. A message still in flight (unacked, its key
		// not held, a lease's claim on it) is not lost yet, though it has
		// no effect; at a settled end, every message acked, drops is
		// lost, and one never acked is the harm "unacked" (issue 43: a
		// lease's page showed nothing broken, and its saved file failed
		// for a message its holder had not finished).
		n := 0
		for i := range h.msgs {
			if h.Dropped(i) {
				n++
			}
		}
		return n, nil
	case "unacked":
		n := 0
		for i := range h.msgs {
			if h.attempts[i] > 0 && !h.Acked(i) {
				n++
			}
		}
		return n, nil
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
