package explore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"archlab/drills"
	"archlab/internal/inbox"
)

// This scope asks §8.2's question of every schedule: is a consumer safe
// under an at-least-once broker whatever it does? The broker delivers any
// unacked message, in any order, until every message is acked. Each delivery
// either succeeds or meets one fault:
//
//	crash-before  the handler dies before its first write
//	crash-mid     it dies between its writes (mark and effect, for
//	              mark-before-effect); a handler whose writes are one
//	              transaction, or one write, has no such point: the
//	              transaction rolls back, as if it died before it
//	crash-after   it dies after its writes, before the ack
//	ack-lost      its writes commit and its ack never reaches the broker
//	replay        an already-acked message is delivered again, as after an
//	              offset rewind
//
// with at most Faults faults per schedule. Every strategy faces the same
// schedules, and each runs on internal/inbox's real verbs: a crash is the
// handler calling its verbs up to the crash point and stopping. After the
// schedule each message must have been applied at least once (not lost) and
// at most once (not doubled).

// InboxScope bounds the §8.2 exploration.
type InboxScope struct {
	Messages int // messages from two producers; the first two share an event ID
	Faults   int // faults per schedule, at most
}

// DefaultInbox is the scope `archlab explore inbox` explores by default.
var DefaultInbox = InboxScope{Messages: 3, Faults: 2}

// Bounds of the inbox scope's flags.
const (
	MaxInboxMessages = 8
	MaxInboxFaults   = 6
	maxInboxSteps    = MaxInboxMessages + MaxInboxFaults
)

// EnumerateLimit is the most schedules explore enumerates; beyond it a
// scope must be sampled with Options.Samples.
const EnumerateLimit uint64 = 20_000_000

// The invariants of §8.2, per message.
var inboxInvariants = []string{"lost", "doubled"}

const (
	brokeLost uint8 = 1 << iota
	brokeDoubled
)

// The strategies, in the book's order of discussion. Only effect-then-ack
// is safe.
const (
	naive = iota
	markBeforeEffect
	effectThenAck
	earlyPrune
)

var inboxStrategies = []struct {
	name string
	safe bool
}{
	{"naive", false},
	{"mark-before-effect", false},
	{"effect-then-ack", true},
	{"early-prune", false},
}

// delivery is what happens to one delivery.
type delivery uint8

const (
	ok delivery = iota
	crashBefore
	crashMid
	crashAfter
	ackLost
	replay
)

var deliveryNames = [...]string{"ok", "crash-before", "crash-mid", "crash-after", "ack-lost", "replay"}

func (d delivery) String() string { return deliveryNames[d] }

// inboxSchedule is one schedule: the broker's deliveries in order. It is a
// value of fixed size, so batches of schedules allocate nothing.
type inboxSchedule struct {
	n     uint8
	steps [maxInboxSteps]struct {
		msg  uint8
		what delivery
	}
}

// String is the schedule's canonical one-line form: "m1 crash-mid, m1 ok,
// m2 ok, m3 ok". Messages are numbered from 1, as the legend names them.
func (s *inboxSchedule) String() string {
	var b strings.Builder
	for i := range int(s.n) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "m%d %s", s.steps[i].msg+1, s.steps[i].what)
	}
	return b.String()
}

// inboxSpace is the set of schedules of one scope.
type inboxSpace struct {
	n, faults int
	msgs      []inbox.Message
	paranoid  bool // every run checks the broker's view at every delivery (tests)
	// counts[a][f] is the number of ways to finish a schedule with a
	// messages acked and f faults spent; the whole space is counts[0][0].
	counts [MaxInboxMessages + 1][MaxInboxFaults + 1]uint64
}

// inboxMessages builds the scope's messages: producers checkout and refund
// take turns, each numbering its events evt-1, evt-2, … by its outbox
// sequence, so m1 and m2 share the ID evt-1, as in the dedup-scope drill.
// Each message pays the book's 25.99 into its own order, so the ledger's
// balance of that order counts the message's effects.
func inboxMessages(n int) []inbox.Message {
	producers := [2]string{"checkout", "refund"}
	msgs := make([]inbox.Message, n)
	for i := range msgs {
		seq := i/2 + 1
		msgs[i] = inbox.Message{Producer: producers[i%2], ID: fmt.Sprintf("evt-%d", seq), Seq: int64(seq),
			OrderID: fmt.Sprintf("o-%d", i+1), AmountCents: 2599}
	}
	return msgs
}

func newInboxSpace(sc InboxScope) *inboxSpace {
	sp := &inboxSpace{n: sc.Messages, faults: sc.Faults, msgs: inboxMessages(sc.Messages)}
	n, ff := sc.Messages, sc.Faults
	for a := n; a >= 0; a-- {
		for f := ff; f >= 0; f-- {
			var c uint64
			if a == n {
				c = 1 // stop: everything is acked
			} else {
				c = mulSat(uint64(n-a), sp.counts[a+1][f])
			}
			if f < ff {
				// Four faults per unacked message, a replay per acked one.
				c = addSat(c, mulSat(uint64(4*(n-a)+a), sp.counts[a][f+1]))
			}
			sp.counts[a][f] = c
		}
	}
	return sp
}

// size is the number of schedules in the scope.
func (sp *inboxSpace) size() uint64 { return sp.counts[0][0] }

// each enumerates depth first. At every point the schedule may stop if
// everything is acked; otherwise, message by message, an unacked message is
// delivered successfully or with each fault, an acked one replayed.
func (sp *inboxSpace) each(yield func(inboxSchedule) bool) {
	var s inboxSchedule
	full := uint16(1)<<sp.n - 1
	var walk func(acked uint16, faults int) bool
	try := func(msg int, what delivery, acked uint16, faults int) bool {
		s.steps[s.n].msg, s.steps[s.n].what = uint8(msg), what
		s.n++
		more := walk(acked, faults)
		s.n--
		return more
	}
	walk = func(acked uint16, faults int) bool {
		if acked == full && !yield(s) {
			return false
		}
		for i := range sp.n {
			bit := uint16(1) << i
			if acked&bit == 0 {
				if !try(i, ok, acked|bit, faults) {
					return false
				}
				if faults < sp.faults {
					for what := crashBefore; what <= ackLost; what++ {
						if !try(i, what, acked, faults+1) {
							return false
						}
					}
				}
			} else if faults < sp.faults && !try(i, replay, acked, faults+1) {
				return false
			}
		}
		return true
	}
	walk(0, 0)
}

// sample walks the same tree, taking each branch with probability
// proportional to the schedules below it, so every schedule is equally
// likely.
func (sp *inboxSpace) sample(r *rand.Rand) inboxSchedule {
	var s inboxSchedule
	var acked uint16
	faults := 0
	type option struct {
		msg  int
		what delivery
	}
	var opts [1 + 5*MaxInboxMessages]option
	var weights [1 + 5*MaxInboxMessages]float64
	for {
		a := popcount(acked)
		k := 0
		if a == sp.n {
			opts[k], weights[k] = option{msg: -1}, 1
			k++
		}
		for i := range sp.n {
			if acked&(1<<i) == 0 {
				opts[k], weights[k] = option{i, ok}, float64(sp.counts[a+1][faults])
				k++
				if faults < sp.faults {
					for what := crashBefore; what <= ackLost; what++ {
						opts[k], weights[k] = option{i, what}, float64(sp.counts[a][faults+1])
						k++
					}
				}
			} else if faults < sp.faults {
				opts[k], weights[k] = option{i, replay}, float64(sp.counts[a][faults+1])
				k++
			}
		}
		o := opts[pick(r, weights[:k])]
		if o.msg < 0 {
			return s
		}
		s.steps[s.n].msg, s.steps[s.n].what = uint8(o.msg), o.what
		s.n++
		if o.what == ok {
			acked |= 1 << o.msg
		} else {
			faults++
		}
	}
}

func popcount(x uint16) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// ExploreInbox runs every schedule of the scope (or a sample) against the
// four strategies of §8.2.
func ExploreInbox(ctx context.Context, sc InboxScope, o Options) (*Report, error) {
	if err := checkParam("messages", sc.Messages, 1, MaxInboxMessages); err != nil {
		return nil, err
	}
	if err := checkParam("faults", sc.Faults, 1, MaxInboxFaults); err != nil {
		return nil, err
	}
	sp := newInboxSpace(sc)
	if err := checkSize(o, sp.size(), EnumerateLimit); err != nil {
		return nil, err
	}
	t, n, err := walk(ctx, sp, sp.size(), o, func() *inboxTally { return &inboxTally{sp: sp} })
	if err != nil {
		return nil, err
	}
	rep := &Report{Mechanism: "inbox", Section: "8.2", Sampled: o.Samples > 0, Seed: o.Seed,
		Scope: []Param{{"messages", sc.Messages}, {"faults", sc.Faults}}, Space: sp.size(), Schedules: n}
	for i, m := range sp.msgs {
		rep.Legend = append(rep.Legend, fmt.Sprintf("m%d=%s", i+1, m))
	}
	for k, st := range inboxStrategies {
		rep.Strategies = append(rep.Strategies, strategyResult(st.name, st.safe, inboxInvariants, n, rep.Sampled, &t.st[k],
			func(s *inboxSchedule) string { return s.String() + " ⇒ " + sp.brokenLine(k, s) },
			func(s *inboxSchedule, r *drills.Recorder) error { _, err := sp.run(k, s, r); return err }))
	}
	return rep, nil
}

// inboxTally is one worker's counts for the four strategies.
type inboxTally struct {
	sp *inboxSpace
	st [4]strategyTally[inboxSchedule] // one per inboxStrategies entry
}

func (t *inboxTally) add(index uint64, s *inboxSchedule) error {
	for k := range t.st {
		broken, err := t.sp.run(k, s, nil)
		if err != nil {
			return err
		}
		t.st[k].record(int(s.n), index, s, broken)
	}
	return nil
}

func (t *inboxTally) merge(o *inboxTally) {
	for k := range t.st {
		t.st[k].merge(&o.st[k])
	}
}

// brokenLine names the messages a strategy loses or doubles under s:
// "m1 lost". It runs the schedule again; it is only called for the one
// shortest counterexample.
func (sp *inboxSpace) brokenLine(strategy int, s *inboxSchedule) string {
	r := sp.newRun(strategy, nil)
	if err := r.play(s); err != nil {
		return err.Error()
	}
	var parts []string
	for i, m := range sp.msgs {
		switch n := r.effects(m); {
		case n == 0:
			parts = append(parts, fmt.Sprintf("m%d lost", i+1))
		case n > 1:
			parts = append(parts, fmt.Sprintf("m%d applied %d×", i+1, n))
		}
	}
	return strings.Join(parts, ", ")
}

// inboxRun is one strategy running one schedule on a fresh ledger and ack
// store. With a recorder it records every step; without one (the
// enumeration) it records nothing and allocates nothing for the trace.
type inboxRun struct {
	sp       *inboxSpace
	strategy int
	l        *inbox.Ledger
	acks     *inbox.MemoryAck
	rec      *drills.Recorder
	faulted  bool
	attempts [MaxInboxMessages]int
	// wantAcks is the number of Ack calls the schedule implies; play
	// checks the ack store made exactly that many.
	wantAcks int
	// paranoid checks the broker's view against the schedule at every
	// delivery, not only by counting acks at the end. Traces and tests
	// turn it on; the enumeration skips it because Acked allocates.
	paranoid bool
}

func (sp *inboxSpace) newRun(strategy int, rec *drills.Recorder) *inboxRun {
	return &inboxRun{sp: sp, strategy: strategy, l: inbox.NewLedger(), acks: inbox.NewMemoryAck(), rec: rec,
		paranoid: rec != nil || sp.paranoid}
}

// run plays s under one strategy and reports which invariants broke.
func (sp *inboxSpace) run(strategy int, s *inboxSchedule, rec *drills.Recorder) (uint8, error) {
	r := sp.newRun(strategy, rec)
	if err := r.play(s); err != nil {
		return 0, err
	}
	var broken uint8
	if rec != nil {
		rec.Phase(drills.Verdict)
	}
	for _, m := range sp.msgs {
		n := r.effects(m)
		switch {
		case n == 0:
			broken |= brokeLost
		case n > 1:
			broken |= brokeDoubled
		}
		if rec != nil {
			balance := r.l.Balance(m.OrderID)
			res, tone := drills.M("explore.res.once", balance), drills.Good
			if n == 0 {
				res, tone = drills.M("explore.res.lost", balance), drills.Bad
			} else if n > 1 {
				res, tone = drills.M("explore.res.doubled", balance, n), drills.Bad
			}
			rec.Step("reader", "ledger", drills.M("explore.step.effects-of", m.OrderID, m), res, tone)
		}
	}
	return broken, nil
}

// effects is how many times m was applied: its order's balance in units of
// its amount.
func (r *inboxRun) effects(m inbox.Message) int64 {
	return r.l.Balance(m.OrderID) / m.AmountCents
}

// play runs every delivery of s and then checks that the broker's view (the
// ack store) agrees with the schedule: as many ack attempts as the schedule
// implies and, when paranoid, every message acked.
func (r *inboxRun) play(s *inboxSchedule) error {
	for i := range int(s.n) {
		what := s.steps[i].what
		if what == ok || what == ackLost || what == replay {
			r.wantAcks++
		}
		if err := r.deliver(int(s.steps[i].msg), what); err != nil {
			return err
		}
	}
	if got := r.acks.Acks(); got != r.wantAcks {
		return fmt.Errorf("explore: %s under %s made %d ack attempts, the schedule implies %d",
			s, inboxStrategies[r.strategy].name, got, r.wantAcks)
	}
	if r.paranoid {
		for _, m := range r.sp.msgs {
			if !r.acks.Acked(m) {
				return fmt.Errorf("explore: schedule %s ends with %s unacked", s, m)
			}
		}
	}
	return nil
}

// step records a step, in the fault phase when it is the fault, else in
// setup before the first fault and recovery after it.
func (r *inboxRun) step(fault bool, actor, target string, action, result drills.Msg, tone drills.Tone) {
	switch {
	case fault:
		r.rec.Phase(drills.Fault)
		r.faulted = true
	case r.faulted:
		r.rec.Phase(drills.Recovery)
	default:
		r.rec.Phase(drills.Setup)
	}
	r.rec.Step(actor, target, action, result, tone)
}

// crash records the handler dying; action says where.
func (r *inboxRun) crash(action drills.Msg) {
	if r.rec != nil {
		r.step(true, "consumer", "consumer", action, drills.M("res.crashed", "simulated"), drills.Bad)
	}
}

// deliver is one delivery of message i: the broker hands it over and the
// strategy's handler runs its real verbs up to the fault, if any.
func (r *inboxRun) deliver(i int, what delivery) error {
	m := r.sp.msgs[i]
	if r.paranoid {
		if acked := r.acks.Acked(m); acked != (what == replay) {
			return fmt.Errorf("explore: the broker delivered %s as %s, but acked=%v", m, what, acked)
		}
	}
	r.attempts[i]++
	if r.rec != nil {
		if what == replay {
			r.step(true, "broker", "consumer", drills.M("step.replay", m), drills.M("res.received"), drills.Bad)
		} else {
			r.step(false, "broker", "consumer", drills.M("step.deliver", m, r.attempts[i]), drills.M("res.received"), drills.Neutral)
		}
	}
	if what == crashBefore {
		r.crash(drills.M("explore.step.crash-before"))
		return nil
	}
	switch r.strategy {
	case naive:
		if what == crashMid {
			// One write has no "between": it did not commit.
			r.crash(drills.M("explore.step.crash-in-write", "NaiveApply"))
			return nil
		}
		r.l.NaiveApply(m)
		if r.rec != nil {
			r.recordWrite(drills.M("step.naive-apply", m), m, true)
		}
	case markBeforeEffect:
		if what == crashMid {
			err := r.l.MarkBeforeEffect(m, true)
			switch {
			case errors.Is(err, inbox.ErrSimulatedCrash):
				if r.rec != nil {
					r.step(false, "consumer", "ledger", drills.M("step.mark", m), drills.M("res.marked"), drills.Neutral)
				}
				r.crash(drills.M("step.crash-before-effect"))
			case err != nil:
				return err
			default:
				// The key was already there: MarkBeforeEffect returned
				// before reaching the crash point, and the handler dies
				// before its ack.
				if r.rec != nil {
					r.recordWrite(drills.M("step.mark-then-apply", m), m, false)
				}
				r.crash(drills.M("explore.step.crash-after"))
			}
			return nil
		}
		before := r.effects(m)
		if err := r.l.MarkBeforeEffect(m, false); err != nil {
			return err
		}
		if r.rec != nil {
			r.recordWrite(drills.M("step.mark-then-apply", m), m, r.effects(m) > before)
		}
	case effectThenAck, earlyPrune:
		if what == crashMid {
			// ApplyOnce is one transaction: a crash inside it rolls
			// back.
			r.crash(drills.M("explore.step.crash-in-write", "ApplyOnce"))
			return nil
		}
		if what == crashAfter {
			// Consume is ApplyOnce then Ack; the crash falls between.
			applied, err := r.l.ApplyOnce(m)
			if err != nil {
				return err
			}
			if r.rec != nil {
				r.recordWrite(drills.M("step.apply-once", m), m, applied)
			}
			r.crash(drills.M("explore.step.crash-after"))
			return nil
		}
		if what == ackLost {
			r.acks.LoseNext()
		}
		applied, err := inbox.Consume(r.l, m, r.acks)
		if r.rec != nil {
			r.recordWrite(drills.M("step.apply-once", m), m, applied)
		}
		if err := r.ackResult(m, err); err != nil || what == ackLost {
			return err
		}
		if r.strategy == earlyPrune {
			pruned := r.l.Prune(m.Seq)
			if r.rec != nil {
				r.step(false, "janitor", "ledger", drills.M("step.prune", m.Seq), drills.M("res.pruned", pruned), drills.Neutral)
			}
		}
		return nil
	}
	// naive and mark-before-effect: the writes are done; crash or ack.
	if what == crashAfter {
		r.crash(drills.M("explore.step.crash-after"))
		return nil
	}
	if what == ackLost {
		r.acks.LoseNext()
	}
	return r.ackResult(m, r.acks.Ack(m))
}

// ackResult records an ack's outcome; a lost ack is the fault, not an error.
func (r *inboxRun) ackResult(m inbox.Message, err error) error {
	lost := errors.Is(err, inbox.ErrAckLost)
	if err != nil && !lost {
		return err
	}
	if r.rec != nil {
		if lost {
			r.step(true, "consumer", "broker", drills.M("step.ack", m), drills.M("res.ack-lost"), drills.Bad)
		} else {
			r.step(false, "consumer", "broker", drills.M("step.ack", m), drills.M("res.acked"), drills.Good)
		}
	}
	return nil
}

// recordWrite records a write that may have applied m. Applying it the
// first time or suppressing a duplicate is good; applying it again, or
// dropping it as a duplicate when it was never applied, is the bug showing.
func (r *inboxRun) recordWrite(action drills.Msg, m inbox.Message, applied bool) {
	n := r.effects(m)
	var res drills.Msg
	tone := drills.Good
	switch {
	case !applied && n == 0:
		res, tone = drills.M("res.taken-for-duplicate"), drills.Bad
	case !applied:
		res = drills.M("res.duplicate")
	case n == 1:
		res = drills.M("res.applied", r.l.Balance(m.OrderID))
	default:
		res, tone = drills.M("explore.res.applied-again", n, r.l.Balance(m.OrderID)), drills.Bad
	}
	r.step(false, "consumer", "ledger", action, res, tone)
}
