package explore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"archlab/harness"
	"archlab/internal/inbox"
)

// This scope asks §8.2's question of every schedule: is a consumer safe
// under an at-least-once broker whatever it does? The broker delivers any
// unacked message, in any order, until every message is acked. Each step is
// one row of §8.2's fault table (harness.InboxFaults): a plain delivery, or
// one that meets a fault (a crash at a point, a lost ack, a duplicate copy,
// a replay of an acked message), with at most Faults faults per schedule.
// Every strategy faces the same schedules, and each runs through the §8.2
// harness (harness.Inbox): a schedule step is one Deliver with its row, so
// how the broker delivers and where a handler can crash are the harness's
// rules, the same ones the drills run. After the schedule each message must
// have been applied at least once (not lost) and at most once (not
// doubled).

// InboxScope bounds the §8.2 exploration.
type InboxScope struct {
	Messages int // messages from two producers; the first two share an event ID
	Faults   int // faults per schedule, at most
	// Extra adds the table's rows beyond the book's (Extra): the store's
	// failures (the effect's write refused, the consumer alive, the
	// broker redelivering) and the crash right after the ack (which a
	// durable inbox's processing meets, and no book's handler). Only a
	// student's scope (check's) and a state page take them in. `explore
	// inbox` runs the book's four strategies against one closed-form
	// count of schedules, which assumes a row settles a message or not
	// whatever the handler; a failed effect does not: the book's Consume
	// sends no ack, while mark-before-effect acks a redelivery whose key
	// it finds (no effect is tried, so none fails). And the book's figures
	// are the default scopes' counts.
	Extra bool
	// Notify makes m1 a message whose handler also calls a service
	// outside the local store (a notification, a publish): the student's
	// scope, where the handler makes the call itself (Delivery.Notify)
	// and must make it on every delivery that reaches it. The state engine
	// has no bit for the call: a scope with it is enumerated.
	Notify bool
	// AtCalls adds the rows that strike at the code's own calls
	// (harness.InboxFault.AtCalls): a crash before each call of the
	// consumer's step, wherever its calls put it, and the lease that runs
	// out after a Claim. Only the student's scope takes them in, with
	// Extra, enumerated: a schedule whose row did not strike (a gap past
	// the step's calls, a lease never claimed) is a run walked already,
	// and is left out (errBeyond).
	AtCalls bool
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

// safeInbox is what the book teaches of each §8.2 strategy
// (harness.InboxStrategies): only effect-then-ack is safe.
func safeInbox(s harness.Strategy) bool { return s == harness.EffectThenAck }

// inboxStrategies are harness.InboxStrategies, each with what the book
// teaches of it.
var inboxStrategies = func() []bookStrategy {
	out := make([]bookStrategy, len(harness.InboxStrategies))
	for i, s := range harness.InboxStrategies {
		out[i] = bookStrategy{string(s), safeInbox(s)}
	}
	return out
}()

// delivery is one step's row of the fault table: 0 is the plain delivery,
// d > 0 the fault harness.InboxFaults[d].
type delivery uint8

const ok delivery = 0

// row is the step's row of the table.
func (d delivery) row() harness.InboxFault { return harness.InboxFaults[d] }

// deliver is one schedule step: the harness's Deliver of message i with
// d's row.
func deliver(h *harness.Inbox, i int, d delivery) error {
	out, err := h.Deliver(i, d.row().Name)
	if err == nil && out.Beyond {
		return errBeyond
	}
	return err
}

// errBeyond is a row at the code's calls that did not strike (a gap past
// the step's calls, a lease never claimed): the run is one walked
// already, and its schedule is left out.
var errBeyond = errors.New("the row did not strike at the code's calls")

// declare declares the scope's messages, and writes them down on a tape;
// with notify, m1's handler also calls the outside service.
func declare(h *harness.Inbox, msgs []inbox.Message, tp *tape, notify bool) {
	for i, m := range msgs {
		h.Declare(m)
		calls := notify && i == 0
		if calls {
			h.Notify(i)
		}
		if tp != nil {
			line := fmt.Sprintf("message %s seq=%d order=%s amount=%d", m, m.Seq, m.OrderID, m.AmountCents)
			if calls {
				line += " notify"
			}
			tp.say("%s", line)
		}
	}
}

// deliverTaped is deliver, written down on a tape as a drill-file step.
func deliverTaped(h *harness.Inbox, msgs []inbox.Message, i int, d delivery, tp *tape) error {
	if tp != nil {
		if d == ok {
			tp.say("deliver %s", msgs[i])
		} else {
			tp.say("deliver %s %s", msgs[i], d.row().Name)
		}
	}
	return deliver(h, i, d)
}

// onceBroken is which of §8.2's invariants a run broke: a message applied
// never (lost) or more than once (doubled).
func onceBroken(h *harness.Inbox, msgs int) uint8 {
	var broken uint8
	for i := range msgs {
		switch n := h.Applied(i); {
		case n == 0:
			broken |= brokeLost
		case n > 1:
			broken |= brokeDoubled
		}
	}
	return broken
}

// checkEach is the reader's verdict for --show and --emit: every message
// checked once.
func checkEach(h *harness.Inbox, msgs []inbox.Message, rec *harness.Recorder, tp *tape) {
	if rec == nil && tp == nil {
		return
	}
	if rec != nil {
		rec.Phase(harness.Verdict)
	}
	if tp != nil {
		tp.say("[verdict]")
	}
	for i, m := range msgs {
		h.CheckOnce(i)
		if tp != nil {
			tp.say("once %s", m)
		}
	}
}

// String is the delivery's name in a schedule: ok, or the fault's.
func (d delivery) String() string {
	if d == ok {
		return "ok"
	}
	return string(d.row().Name)
}

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

// inboxBounds are the scope's bounds, and with them the broker's rule for
// what it may do next.
type inboxBounds struct {
	n, faults int
	extra     bool // the table's Extra rows are in scope (InboxScope.Extra)
	atCalls   bool // and its rows at the code's own calls (InboxScope.AtCalls)
}

// ends reports whether a schedule may end here: every message acked, or
// the broker can do nothing more (each message had a delivery with no
// fault, every fault is spent) while one is unacked, which only a
// student's handler leaves.
func (b inboxBounds) ends(allAcked bool, oks, faults int) bool {
	return allAcked || (oks == b.n && faults == b.faults)
}

// choices is that rule, the one every walker of the scope follows (the
// enumerators, the sampler, the state engine), in the canonical order:
// message by message, the table's rows for the message's state in the
// table's order (an unacked message: delivered plainly, or meeting each
// fault; an acked one: replayed), each fault within the budget, and each
// row that settles the message (delivered to a handler that acks it) while
// fewer than n deliveries have settled one (a handler that acks every such
// delivery never meets that limit). acked has bit i set when message i is
// acked. try is given each choice and the counts after it, and returns
// false to stop; choices reports whether it went through them all.
func (b inboxBounds) choices(acked uint16, oks, faults int, try func(msg int, d delivery, oks, faults int) bool) bool {
	for i := range b.n {
		state := harness.Unacked
		if acked&(1<<i) != 0 {
			state = harness.Acked
		}
		for d := range inboxRows {
			row := &inboxRows[d]
			if row.on != state || row.extra && !b.extra || row.atCalls && !b.atCalls {
				continue
			}
			o, f := oks, faults
			if row.fault {
				if f >= b.faults {
					continue
				}
				f++
			}
			if row.settles {
				if o >= b.n {
					continue
				}
				o++
			}
			if !try(i, delivery(d), o, f) {
				return false
			}
		}
	}
	return true
}

// settles reports whether a row moves a message from unacked to acked
// under a handler that acks every delivery it survives.
func settles(row harness.InboxFault) bool { return row.On == harness.Unacked && row.Settles() }

// inboxRow is what choices reads of a row of the fault table, derived
// from it once: choices runs for every state and message, and a row of
// the table itself, with its words, is too large to copy there.
type inboxRow struct {
	on                             harness.MsgState
	fault, settles, extra, atCalls bool
	gap                            int // the row's gap (harness.InboxFault.Gap), 0 for none
}

var inboxRows = func() []inboxRow {
	rows := make([]inboxRow, len(harness.InboxFaults))
	for d, row := range harness.InboxFaults {
		rows[d] = inboxRow{on: row.On, fault: row.Fault(), settles: settles(row), extra: row.Extra, atCalls: row.AtCalls(), gap: row.Gap}
	}
	return rows
}()

// inboxSpace is the set of schedules of one scope.
type inboxSpace struct {
	inboxBounds
	msgs     []inbox.Message
	paranoid bool // every run checks the broker's view at every delivery (tests)
	// notify: m1's handler calls the outside service (InboxScope.Notify).
	notify bool
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

// check refuses a scope outside the explorer's bounds, naming the flag.
func (sc InboxScope) check() error {
	if err := checkParam("messages", sc.Messages, 1, MaxInboxMessages); err != nil {
		return err
	}
	return checkParam("faults", sc.Faults, 1, MaxInboxFaults)
}

// params is the scope as its flags say it.
func (sc InboxScope) params() []Param {
	ps := []Param{{"messages", sc.Messages}, {"faults", sc.Faults}}
	if sc.Extra {
		ps = append(ps, Param{"extra-faults", 1})
	}
	if sc.Notify {
		ps = append(ps, Param{"notify", 1})
	}
	if sc.AtCalls {
		ps = append(ps, Param{"call-faults", 1})
	}
	return ps
}

// bounds is the scope as the walkers' rule takes it.
func (sc InboxScope) bounds() inboxBounds {
	return inboxBounds{n: sc.Messages, faults: sc.Faults, extra: sc.Extra, atCalls: sc.AtCalls}
}

func newInboxSpace(sc InboxScope) *inboxSpace {
	sp := &inboxSpace{inboxBounds: sc.bounds(), msgs: inboxMessages(sc.Messages), notify: sc.Notify}
	n, ff := sc.Messages, sc.Faults
	for a := n; a >= 0; a-- {
		for f := ff; f >= 0; f-- {
			var c uint64
			if a == n {
				c = 1 // stop: everything is acked
			}
			// Each row, on each message it applies to: an unacked row on
			// the n-a unacked messages, an acked one on the a acked.
			for _, row := range harness.InboxFaults {
				if row.Extra && !sc.Extra || row.AtCalls() && !sc.AtCalls {
					continue
				}
				na, nf, ways := a, f, uint64(n-a)
				if row.On == harness.Acked {
					ways = uint64(a)
				}
				if settles(row) {
					na++
				}
				if row.Fault() {
					nf++
				}
				if ways == 0 || na > n || nf > ff {
					continue
				}
				c = addSat(c, mulSat(ways, sp.counts[na][nf]))
			}
			sp.counts[a][f] = c
		}
	}
	return sp
}

// size is the number of schedules in the scope.
func (sp *inboxSpace) size() uint64 { return sp.counts[0][0] }

// each enumerates depth first. At every point the schedule may end, if
// everything is acked; then it goes on by the broker's choices.
func (sp *inboxSpace) each(yield func(inboxSchedule) bool) {
	var s inboxSchedule
	var acked uint16 // restored after each step, so the choices loop reads its own
	full := uint16(1)<<sp.n - 1
	var walk func(faults int) bool
	try := func(msg int, d delivery, _, faults int) bool {
		s.steps[s.n].msg, s.steps[s.n].what = uint8(msg), d
		s.n++
		before := acked
		if settles(d.row()) {
			acked |= 1 << msg
		}
		more := walk(faults)
		acked = before
		s.n--
		return more
	}
	walk = func(faults int) bool {
		oks := popcount(acked) // the book's handlers ack every delivery that meets no fault
		if sp.ends(acked == full, oks, faults) && !yield(s) {
			return false
		}
		return sp.choices(acked, oks, faults, try)
	}
	walk(0)
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
	var opts [1 + len(harness.InboxFaults)*MaxInboxMessages]option
	var weights [1 + len(harness.InboxFaults)*MaxInboxMessages]float64
	for {
		a := popcount(acked)
		k := 0
		if a == sp.n {
			opts[k], weights[k] = option{msg: -1}, 1
			k++
		}
		// The schedules below a choice: counts by messages acked and
		// faults spent after it.
		sp.choices(acked, a, faults, func(msg int, d delivery, oks, faults int) bool {
			opts[k], weights[k] = option{msg, d}, float64(sp.counts[oks][faults])
			k++
			return true
		})
		o := opts[pick(r, weights[:k])]
		if o.msg < 0 {
			return s
		}
		s.steps[s.n].msg, s.steps[s.n].what = uint8(o.msg), o.what
		s.n++
		if settles(o.what.row()) {
			acked |= 1 << o.msg
		}
		if o.what.row().Fault() {
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

// Inbox runs every schedule of the scope (or a sample) against the four
// strategies of §8.2.
func Inbox(ctx context.Context, sc InboxScope, o Options) (*Report, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	sp := newInboxSpace(sc)
	var tallies [4]strategyTally[inboxSchedule] // one per harness.InboxStrategies entry
	var calls [4]OutsideCalls
	var n, states uint64
	engine := o.engine()
	if engine == EngineStates {
		var err error
		if n, states, err = sp.byStates(ctx, o, &tallies, &calls); err != nil {
			return nil, err
		}
	} else {
		if err := checkSize(o, sp.size(), EnumerateLimit); err != nil {
			return nil, err
		}
		t, ran, err := walk(ctx, sp, sp.size(), o, func() *inboxTally { return &inboxTally{sp: sp} })
		if err != nil {
			return nil, err
		}
		n, tallies, calls = ran, t.st, t.calls
	}
	rep, err := assemble(&harness.InboxSection, walked[inboxSchedule]{scope: sc.params(), o: o, engine: engine, states: states,
		space: sp.size(), n: n, how: section[inboxSchedule]{invariants: inboxInvariants, schedule: (*inboxSchedule).String, file: inboxFile()},
		runs: numbered(inboxStrategies, tallies[:],
			func(k int, s *inboxSchedule) ([]harness.Msg, error) { return sp.outcome(harness.InboxStrategies[k], s) },
			func(k int, s *inboxSchedule, rec *harness.Recorder, tp *tape) (uint8, error) {
				return sp.run(harness.InboxStrategies[k], s, rec, tp)
			})})
	if err != nil {
		return nil, err
	}
	rep.Legend = inboxLegend(sp.msgs)
	if sc.Notify {
		for k := range rep.Strategies {
			rep.Strategies[k].Outside = &calls[k]
		}
	}
	return rep, nil
}

// inboxLegend names the scope's messages: m1=checkout:evt-1.
func inboxLegend(msgs []inbox.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = fmt.Sprintf("m%d=%s", i+1, m)
	}
	return out
}

// inboxFile is how a §8.2 counterexample is written as a drill file: its
// counters and one check per invariant.
func inboxFile() drillFile {
	return drillFile{strategyLine: true, counters: []string{"deliveries", "effects", "lost", "doubled"},
		checks: []check{{"not-lost", "lost == 0", "lost"}, {"not-doubled", "doubled == 0", "doubled"}}}
}

// schedule is the schedule of a path through the state graph.
func (sp *inboxSpace) schedule(steps []uint16) inboxSchedule {
	var s inboxSchedule
	for _, st := range steps {
		s.steps[s.n].msg, s.steps[s.n].what = uint8(st>>inboxRowBits), delivery(st&(1<<inboxRowBits-1))
		s.n++
	}
	return s
}

// scopeLine is a scope as flags: "messages=3 faults=2".
func scopeLine(ps []Param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%s=%d", p.Name, p.Value)
	}
	return strings.Join(parts, " ")
}

// inboxTally is one worker's counts for the four strategies.
type inboxTally struct {
	sp    *inboxSpace
	st    [4]strategyTally[inboxSchedule] // one per harness.InboxStrategies entry
	calls [4]OutsideCalls                 // with notify: m1's outside calls
}

func (t *inboxTally) add(index uint64, s *inboxSchedule) error {
	for k, strategy := range harness.InboxStrategies {
		h, broken, err := t.sp.runInbox(strategy, s, nil, nil)
		if err != nil {
			return err
		}
		t.st[k].record(int(s.n), index, s, broken)
		if t.sp.notify {
			t.calls[k].count(h.Calls(0))
		}
	}
	return nil
}

func (t *inboxTally) merge(o *inboxTally) {
	for k := range t.st {
		t.st[k].merge(&o.st[k])
		t.calls[k].Repeated += o.calls[k].Repeated
		t.calls[k].Never += o.calls[k].Never
	}
}

// outcome names the messages a strategy loses or doubles under s: "m1
// lost", "m1 applied 2×". It runs the schedule again; it is only called for
// the one shortest counterexample.
func (sp *inboxSpace) outcome(strategy harness.Strategy, s *inboxSchedule) ([]harness.Msg, error) {
	h, err := sp.play(strategy, s, nil, nil)
	if err != nil {
		return nil, err
	}
	var out []harness.Msg
	for i := range sp.msgs {
		switch n := h.Applied(i); {
		case n == 0:
			out = append(out, harness.M("explore.outcome.lost", i+1))
		case n > 1:
			out = append(out, harness.M("explore.outcome.doubled", i+1, n))
		}
	}
	return out, nil
}

// run plays s under one strategy through the harness and reports which
// invariants broke. With a recorder (--show) the harness records every
// step and the reader checks each message at the end; with a tape (--emit)
// each verb is written down as a drill-file line.
func (sp *inboxSpace) run(strategy harness.Strategy, s *inboxSchedule, rec *harness.Recorder, tp *tape) (uint8, error) {
	_, broken, err := sp.runInbox(strategy, s, rec, tp)
	return broken, err
}

// runInbox is run, with the harness the schedule ran in.
func (sp *inboxSpace) runInbox(strategy harness.Strategy, s *inboxSchedule, rec *harness.Recorder, tp *tape) (*harness.Inbox, uint8, error) {
	h, err := sp.play(strategy, s, rec, tp)
	if err != nil {
		return nil, 0, err
	}
	broken := onceBroken(h, len(sp.msgs))
	checkEach(h, sp.msgs, rec, tp)
	return h, broken, h.Finish()
}

// play declares the scope's messages and delivers s, then checks that the
// broker's view (the ack store) agrees with the schedule: as many ack
// attempts as the schedule implies and, when paranoid, the ack state
// before every delivery and every message acked at the end.
func (sp *inboxSpace) play(strategy harness.Strategy, s *inboxSchedule, rec *harness.Recorder, tp *tape) (*harness.Inbox, error) {
	h, err := harness.NewInbox(strategy, harness.InboxEnv{}, rec)
	if err != nil {
		return nil, err
	}
	if tp != nil {
		tp.h = h
	}
	declare(h, sp.msgs, tp, sp.notify)
	// Acked allocates, so only traces, emits and tests check it.
	paranoid := rec != nil || tp != nil || sp.paranoid
	wantAcks := 0
	for i := range int(s.n) {
		msg, what := int(s.steps[i].msg), s.steps[i].what
		wantAcks += what.row().Acks()
		if paranoid {
			if acked := h.Acks().Acked(sp.msgs[msg]); acked != (what.row().On == harness.Acked) {
				return nil, drift(string(strategy), fmt.Errorf("%s: the broker delivered %s as %s, but acked=%v", s, sp.msgs[msg], what, acked))
			}
		}
		if err := deliverTaped(h, sp.msgs, msg, what, tp); err != nil {
			return nil, err
		}
	}
	if got := h.Acks().Acks(); got != wantAcks {
		return nil, drift(string(strategy), fmt.Errorf("%s made %d ack attempts, the schedule implies %d", s, got, wantAcks))
	}
	if paranoid {
		for _, m := range sp.msgs {
			if !h.Acks().Acked(m) {
				return nil, drift(string(strategy), fmt.Errorf("schedule %s ends with %s unacked", s, m))
			}
		}
	}
	return h, nil
}
