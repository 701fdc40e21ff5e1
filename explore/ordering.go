package explore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"archlab/harness"
	"archlab/internal/ordering"
)

// This scope asks §8.3's question of every delivery order: one order's
// events (reserve v1, pay v2, fulfill v3) reach the consumer in every
// possible order, with up to Duplicates extra deliveries of them and,
// optionally, one poison event. The broker requeues a conflict at the back
// with its attempt count raised, until the retry budget dead-letters it. Every
// budget from 1 to MaxAttempts faces every order. Invariants: the projection's
// version never moves back; no event is applied twice; at the end the
// projection equals the source of truth (v3/FULFILLED), directly or after
// Reconcile repairs what the DLQ holds.
//
// Two strategies run each schedule through the §8.3 harness
// (harness.Ordering, whose Dispatch is the requeueing broker the drills
// use): retry-then-reconcile (the book's loop) and retry-only, which trusts
// the retry budget alone. The
// retry-budget table counts, per budget, the orders that converge by retry
// and the ones that need the DLQ and reconciliation.

// OrderingScope bounds the §8.3 exploration.
type OrderingScope struct {
	Duplicates  int  // extra deliveries of the three events, at most
	Poison      bool // add one poison event to every delivery order
	MaxAttempts int  // every retry budget from 1 to this
}

// DefaultOrdering is the scope `archlab explore ordering` explores by default.
var DefaultOrdering = OrderingScope{Duplicates: 2, MaxAttempts: 3}

// Bounds of the ordering scope's flags.
const (
	MaxOrderingDuplicates = 6
	MaxOrderingAttempts   = 10
	maxOrderingLen        = 3 + MaxOrderingDuplicates + 1
)

var orderingInvariants = []string{"moved-back", "applied-twice", "diverged", "duplicate-refused"}

const (
	brokeMovedBack uint8 = 1 << iota
	brokeAppliedTwice
	brokeDiverged
	brokeDupRefused // an event already applied was retried or dead-lettered
)

const (
	retryThenReconcile = iota
	retryOnly
)

var orderingStrategies = []bookStrategy{
	{"retry-then-reconcile", true},
	{"retry-only", false},
}

// The events of order o-1, as the 8.3 drills name them; the poison event
// is the poison drill's unknown type. The source of truth has the order
// fulfilled.
var (
	orderingEvents = [4]ordering.Event{
		{ID: "evt-1", OrderID: "o-1", Version: 1, Type: "reserve"},
		{ID: "evt-2", OrderID: "o-1", Version: 2, Type: "pay"},
		{ID: "evt-3", OrderID: "o-1", Version: 3, Type: "fulfill"},
		{ID: "evt-9", OrderID: "o-1", Version: 1, Type: "refund"},
	}
	orderingTruth = ordering.OrderState{Version: 3, Status: ordering.StatusFulfilled}
)

const orderingOrder = "o-1"

const poisonEvent = 3

// orderingSchedule is one retry budget and one delivery order, as indexes
// into orderingEvents.
type orderingSchedule struct {
	budget uint8
	n      uint8
	events [maxOrderingLen]uint8
}

// String is the schedule's canonical one-line form:
// "max-attempts=1: evt-1(o-1 reserve v1), evt-3(o-1 fulfill v3), evt-2(o-1 pay v2)".
func (s *orderingSchedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "max-attempts=%d: ", s.budget)
	for i := range int(s.n) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(orderingEvents[s.events[i]].String())
	}
	return b.String()
}

// orderingSpace is every (budget, delivery order) of one scope.
type orderingSpace struct {
	// students, when set, runs the student's decision instead of
	// ordering.Consumer (archlab check).
	students *harness.Students
	sc       OrderingScope
	// multisets lists, for every number of duplicates, how many copies of
	// each event a delivery order holds, with its number of distinct orders.
	multisets []multiset
	weights   []float64 // each multiset's orders, for sample
	perBudget uint64    // delivery orders per budget
}

type multiset struct {
	counts [4]int // copies of reserve, pay, fulfill, poison
	n      int
	orders uint64 // distinct arrangements: n! / prod(counts!)
}

func newOrderingSpace(sc OrderingScope) *orderingSpace {
	sp := &orderingSpace{sc: sc}
	for d := 0; d <= sc.Duplicates; d++ {
		for x0 := d; x0 >= 0; x0-- {
			for x1 := d - x0; x1 >= 0; x1-- {
				m := multiset{counts: [4]int{1 + x0, 1 + x1, 1 + d - x0 - x1, 0}}
				if sc.Poison {
					m.counts[poisonEvent] = 1
				}
				for _, c := range m.counts {
					m.n += c
				}
				m.orders = factorial(m.n)
				for _, c := range m.counts {
					m.orders /= factorial(c)
				}
				sp.multisets = append(sp.multisets, m)
				sp.weights = append(sp.weights, float64(m.orders))
				sp.perBudget += m.orders
			}
		}
	}
	return sp
}

func factorial(n int) uint64 {
	f := uint64(1)
	for i := 2; i <= n; i++ {
		f *= uint64(i)
	}
	return f
}

func (sp *orderingSpace) size() uint64 { return uint64(sp.sc.MaxAttempts) * sp.perBudget }

// each enumerates budget by budget, then by number of duplicates, then each
// multiset's distinct orders in lexicographic order of event index.
func (sp *orderingSpace) each(yield func(orderingSchedule) bool) {
	for budget := 1; budget <= sp.sc.MaxAttempts; budget++ {
		for _, m := range sp.multisets {
			s := orderingSchedule{budget: uint8(budget)}
			counts := m.counts
			var walk func() bool
			walk = func() bool {
				if int(s.n) == m.n {
					return yield(s)
				}
				for e := range counts {
					if counts[e] == 0 {
						continue
					}
					counts[e]--
					s.events[s.n] = uint8(e)
					s.n++
					more := walk()
					s.n--
					counts[e]++
					if !more {
						return false
					}
				}
				return true
			}
			if !walk() {
				return
			}
		}
	}
}

// sample draws a budget, a multiset weighted by its number of orders, and
// a uniform shuffle of it: every (budget, distinct order) equally likely.
func (sp *orderingSpace) sample(r *rand.Rand) orderingSchedule {
	s := orderingSchedule{budget: uint8(1 + r.IntN(sp.sc.MaxAttempts))}
	m := sp.multisets[pick(r, sp.weights)]
	for e, c := range m.counts {
		for range c {
			s.events[s.n] = uint8(e)
			s.n++
		}
	}
	r.Shuffle(int(s.n), func(i, j int) { s.events[i], s.events[j] = s.events[j], s.events[i] })
	return s
}

// Budget is one row of the retry-budget table: how the delivery orders of
// the scope end under one retry budget, for retry-then-reconcile.
type Budget struct {
	MaxAttempts int
	Schedules   uint64
	ByRetry     uint64 // converged to the source of truth with no repair
	Reconciled  uint64 // needed the DLQ and a Reconcile repair
	Deliveries  uint64 // Handle calls over all schedules: the cost of retrying
}

// Ordering runs every (budget, delivery order) of the scope, or a sample,
// against both strategies of §8.3.
func Ordering(ctx context.Context, sc OrderingScope, o Options) (*Report, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	sp := newOrderingSpace(sc)
	engine := o.engine()
	var t *orderingTally
	var n, states uint64
	if engine == EngineStates {
		t = &orderingTally{sp: sp, budgets: make([]Budget, sc.MaxAttempts)}
		var err error
		if states, err = sp.byStates(ctx, o, t); err != nil {
			return nil, err
		}
		n = sp.size()
	} else {
		if err := checkSize(o, sp.size(), EnumerateLimit); err != nil {
			return nil, err
		}
		var err error
		t, n, err = walk(ctx, sp, sp.size(), o, func() *orderingTally {
			return &orderingTally{sp: sp, budgets: make([]Budget, sc.MaxAttempts)}
		})
		if err != nil {
			return nil, err
		}
	}
	rep, err := assemble(&harness.OrderingSection, walked[orderingSchedule]{scope: sc.params(), o: o, engine: engine, states: states,
		space: sp.size(), n: n, how: section[orderingSchedule]{invariants: orderingInvariants, schedule: (*orderingSchedule).String, file: orderingFile()},
		runs: numbered(orderingStrategies, t.st[:], sp.outcome, sp.run)})
	if err != nil {
		return nil, err
	}
	rep.Budgets = t.budgets
	for i := range rep.Budgets {
		rep.Budgets[i].MaxAttempts = i + 1
	}
	return rep, nil
}

type orderingTally struct {
	sp      *orderingSpace
	st      [2]strategyTally[orderingSchedule]
	budgets []Budget
}

func (t *orderingTally) add(index uint64, s *orderingSchedule) error {
	for k := range t.st {
		res, err := t.sp.run(k, s, nil, nil)
		if err != nil {
			return err
		}
		t.st[k].record(int(s.n), index, s, res.broken)
		if k == retryThenReconcile {
			b := &t.budgets[s.budget-1]
			b.Schedules++
			b.Deliveries += uint64(res.deliveries)
			if res.fixes == 0 {
				b.ByRetry++
			} else {
				b.Reconciled++
			}
		}
	}
	return nil
}

func (t *orderingTally) merge(o *orderingTally) {
	for k := range t.st {
		t.st[k].merge(&o.st[k])
	}
	for i := range t.budgets {
		b, ob := &t.budgets[i], o.budgets[i]
		b.Schedules += ob.Schedules
		b.ByRetry += ob.ByRetry
		b.Reconciled += ob.Reconciled
		b.Deliveries += ob.Deliveries
	}
}

// orderingResult is what one run observed.
type orderingResult struct {
	broken     uint8
	deliveries int
	dead       int
	fixes      int
	final      ordering.OrderState
}

// outcome is the end of a counterexample: "v2/PAID, source v3/FULFILLED,
// dlq 1".
func (sp *orderingSpace) outcome(strategy int, s *orderingSchedule) ([]harness.Msg, error) {
	res, err := sp.run(strategy, s, nil, nil)
	if err != nil {
		return nil, err
	}
	var out []harness.Msg
	if res.broken&brokeDiverged != 0 {
		out = append(out, harness.M("explore.outcome.diverged", res.final, orderingTruth))
	}
	if res.broken&brokeMovedBack != 0 {
		out = append(out, harness.M("explore.outcome.moved-back"))
	}
	if res.broken&brokeAppliedTwice != 0 {
		out = append(out, harness.M("explore.outcome.applied-twice"))
	}
	if res.broken&brokeDupRefused != 0 {
		out = append(out, harness.M("explore.outcome.duplicate-refused"))
	}
	if res.broken&brokeStuck != 0 { // only a student's consumer retries past its budget
		out = append(out, harness.M("student.outcome.past-budget"))
	}
	if res.broken&brokeSkipped != 0 {
		out = append(out, harness.M("student.outcome.skipped"))
	}
	return append(out, harness.M("explore.outcome.dlq", res.dead)), nil
}

// check refuses a scope outside the explorer's bounds, naming the flag.
func (sc OrderingScope) check() error {
	if err := checkParam("duplicates", sc.Duplicates, 0, MaxOrderingDuplicates); err != nil {
		return err
	}
	return checkParam("max-attempts", sc.MaxAttempts, 1, MaxOrderingAttempts)
}

// params is the scope as its flags name it, in flag order (poison as 0 or 1).
func (sc OrderingScope) params() []Param {
	poison := 0
	if sc.Poison {
		poison = 1
	}
	return []Param{{"duplicates", sc.Duplicates}, {"poison", poison}, {"max-attempts", sc.MaxAttempts}}
}

// orderingFile is how a §8.3 counterexample is written as a drill file: its
// counters and one check per invariant.
func orderingFile() drillFile {
	return drillFile{counters: []string{"deliveries", "dlq", "fixes", "moved_back", "applied_twice", "diverged", "duplicate_refused"},
		checks: []check{{"not-moved-back", "!moved_back", "moved-back"}, {"not-applied-twice", "!applied_twice", "applied-twice"},
			{"not-diverged", "diverged == 0", "diverged"}, {"duplicate-not-refused", "!duplicate_refused", "duplicate-refused"}}}
}

// run plays one schedule through the harness: the source of truth, a
// consumer with the schedule's budget, the events published in the
// schedule's order, one Dispatch (the broker requeues each retry at the
// back), and for retry-then-reconcile a Reconcile. The harness keeps the
// invariants after every step.
func (sp *orderingSpace) run(strategy int, s *orderingSchedule, rec *harness.Recorder, tp *tape) (orderingResult, error) {
	o := harness.NewOrdering(rec)
	if sp.students != nil { // the student's decision as the consumer
		o = harness.NewStudentOrdering(sp.students, rec)
	}
	if tp != nil {
		tp.h = o
	}
	for i := range sp.events() {
		e := orderingEvents[i]
		o.Declare(e, false)
		if tp != nil {
			tp.say("event %s %s v%d %s", e.ID, e.OrderID, e.Version, e.Type)
		}
	}
	o.Truth(orderingOrder, orderingTruth)
	o.Consumer(int(s.budget))
	if tp != nil {
		tp.say("truth %s %s", orderingOrder, orderingTruth)
		tp.say("consumer max-attempts=%d", s.budget)
	}
	for i := range int(s.n) {
		o.Publish(int(s.events[i]))
		if tp != nil {
			tp.say("publish %s", orderingEvents[s.events[i]].ID)
		}
	}
	if err := o.Dispatch(); err != nil {
		return orderingResult{}, err
	}
	if tp != nil {
		tp.say("dispatch")
	}
	res := orderingResult{deliveries: o.Deliveries(), dead: len(o.DLQ())}
	if strategy == retryThenReconcile {
		res.fixes = o.Reconcile(orderingOrder)
		if tp != nil {
			tp.say("reconcile %s", orderingOrder)
		}
	}
	if rec != nil {
		rec.Phase(harness.Verdict)
		o.Read(orderingOrder)
		o.Compare(orderingOrder)
	}
	if tp != nil {
		tp.say("[verdict]")
		tp.say("read %s", orderingOrder)
		tp.say("compare %s", orderingOrder)
	}
	st, err := o.Observe("state", []any{orderingOrder})
	if err != nil {
		return res, err
	}
	res.final = st.(ordering.OrderState)
	if o.MovedBack() {
		res.broken |= brokeMovedBack
	}
	if o.AppliedTwice() {
		res.broken |= brokeAppliedTwice
	}
	if o.Diverged() > 0 {
		res.broken |= brokeDiverged
	}
	if o.DuplicateRefused() {
		res.broken |= brokeDupRefused
	}
	if o.OverBudget() > 0 { // only the student's consumer can retry past its budget
		res.broken |= brokeStuck
	}
	if o.Skipped() { // only a student's projection can apply a gap
		res.broken |= brokeSkipped
	}
	return res, nil
}

// events is how many of orderingEvents the scope declares: the poison
// event only with --poison.
func (sp *orderingSpace) events() int {
	if sp.sc.Poison {
		return len(orderingEvents)
	}
	return poisonEvent
}
