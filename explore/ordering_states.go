package explore

import (
	"context"
	"errors"
	"fmt"

	"archlab/harness"
)

// The §8.3 state. A delivery order is walked one delivery at a time: the
// harness's Deliver hands the next event of the order to the consumer, and
// a retry waits at the back of the queue; when the order is exhausted,
// Dispatch drains the retries, and retry-then-reconcile reconciles. What
// the rest of a run depends on is the harness's Snapshot (the row, the
// queue of retries with their attempts, the applies, the invariants so
// far) and the events still to deliver, so a state is the snapshot, by
// number, and how many copies of each event remain. Delivery orders that
// differ only in their past share their futures.
//
// A snapshot's successors are learnt once per budget by replaying the
// events that first reached it and delivering one more; its end by running
// that schedule as the enumerator does (orderingSpace.run), so every rule is
// the harness's and the end is the enumerator's own.
type orderingLearner struct {
	// world, when set, is a state page's world: the learner's runs start
	// from its world and path instead of the scope's.
	world  *orderingWorld
	sp     *orderingSpace
	budget int
	ids    map[string]uint32
	paths  [][]uint8     // snapshot → the events that first reached it
	next   [][4]int32    // snapshot, event → snapshot after it (-1: not learnt)
	ends   []orderingEnd // snapshot → how the run ends from it
	now    []uint8       // snapshot → the invariants it breaks already (a state page's world only)
}

type orderingEnd struct {
	known  bool
	broken [2]uint8 // per strategy
	drain  uint64   // deliveries after the order is exhausted: the retries
	fixes  int      // Reconcile's repairs (retry-then-reconcile)
}

// tagReconciled marks an end that needed Reconcile: counted for the
// retry-budget table, not an invariant.
const tagReconciled uint8 = 1 << 7

// A state's key: the snapshot's number, then three bits per event for the
// copies left.
const orderingCountBits = 3

func orderingKey(id uint32, left [4]int) uint64 {
	k := uint64(id)
	for e := 3; e >= 0; e-- {
		k = k<<orderingCountBits | uint64(left[e])
	}
	return k
}

func orderingLeft(key uint64) (id uint32, left [4]int) {
	for e := range left {
		left[e] = int(key >> (orderingCountBits * e) & (1<<orderingCountBits - 1))
	}
	return uint32(key >> (4 * orderingCountBits)), left
}

func newOrderingLearner(sp *orderingSpace, budget int) (*orderingLearner, error) {
	l := &orderingLearner{sp: sp, budget: budget, ids: map[string]uint32{}}
	o, err := l.play(nil)
	if err != nil {
		return nil, err
	}
	l.intern(o.Snapshot(), nil)
	return l, nil
}

func (l *orderingLearner) intern(snap string, path []uint8) uint32 {
	id, ok := l.ids[snap]
	if !ok {
		id = uint32(len(l.paths))
		l.ids[snap] = id
		l.paths = append(l.paths, path)
		l.next = append(l.next, [4]int32{-1, -1, -1, -1})
		l.ends = append(l.ends, orderingEnd{})
		l.now = append(l.now, 0)
	}
	return id
}

// play delivers events one at a time in a fresh harness with the
// budget's consumer.
func (l *orderingLearner) play(events []uint8) (*harness.Ordering, error) {
	if l.world != nil {
		return l.world.play(events)
	}
	o := harness.NewOrdering(nil)
	if l.sp.students != nil {
		o = harness.NewStudentOrdering(l.sp.students, nil)
	}
	for i := range l.sp.events() {
		if _, err := o.Declare(orderingEvents[i], false); err != nil {
			return nil, err
		}
	}
	o.Truth(orderingOrder, orderingTruth)
	o.Consumer(l.budget)
	for _, e := range events {
		if err := o.Deliver(int(e)); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// step is the snapshot after delivering event e in snapshot id.
func (l *orderingLearner) step(id uint32, e int) (uint32, error) {
	if n := l.next[id][e]; n >= 0 {
		return uint32(n), nil
	}
	path := append(append([]uint8(nil), l.paths[id]...), uint8(e))
	o, err := l.play(path)
	if err != nil {
		return 0, err
	}
	n := l.intern(o.Snapshot(), path)
	l.next[id][e] = int32(n)
	if l.world != nil {
		l.now[n] = brokenNow(o)
	}
	return n, nil
}

// end is how a run in snapshot id ends once its order is exhausted: the
// enumerator's run of the schedule that first reached it, per strategy.
func (l *orderingLearner) end(id uint32) (*orderingEnd, error) {
	e := &l.ends[id]
	if e.known {
		return e, nil
	}
	path := l.paths[id]
	if l.world != nil {
		end, err := l.world.end(path)
		if err != nil {
			return nil, err
		}
		*e = end
		return e, nil
	}
	s := orderingSchedule{budget: uint8(l.budget), n: uint8(len(path))}
	copy(s.events[:], path)
	for _, k := range l.sp.strategies() {
		res, err := l.sp.run(k, &s, nil, nil)
		if err != nil {
			return nil, err
		}
		e.broken[k] = res.broken
		if k == retryThenReconcile {
			e.drain, e.fixes = uint64(res.deliveries-len(path)), res.fixes
		}
	}
	e.known = true
	return e, nil
}

// orderingStates is one strategy's view of a budget's states.
type orderingStates struct {
	l        *orderingLearner
	strategy int
}

// expand lists a state's steps in the enumerator's order: the events left,
// by event index (orderingSpace.each), each costing one delivery; with
// none left, the end, costing the retries' deliveries.
func (x orderingStates) expand(key uint64, _ func() []uint16, to func(uint16, uint64, uint64), end func(uint8, uint64)) error {
	id, left := orderingLeft(key)
	more := false
	for e, n := range left {
		if n == 0 {
			continue
		}
		more = true
		next, err := x.l.step(id, e)
		if err != nil {
			return err
		}
		left[e]--
		to(uint16(e), orderingKey(next, left), 1)
		left[e]++
	}
	if !more {
		r, err := x.l.end(id)
		if err != nil {
			return err
		}
		b := r.broken[x.strategy]
		if x.strategy == retryThenReconcile && r.fixes > 0 {
			b |= tagReconciled
		}
		end(b, r.drain)
	}
	return nil
}

// byStates counts both strategies' schedules through their states, budget
// by budget on o's workers, each budget's multisets in the enumerator's
// order, and fills the retry-budget table.
func (sp *orderingSpace) byStates(ctx context.Context, o Options, t *orderingTally) (states uint64, err error) {
	var progress func(int)
	if o.Progress != nil {
		progress = func(k int) { o.Progress(k, 0) }
	}
	budgets := sp.sc.MaxAttempts
	tallies := make([]orderingTally, budgets)
	counted := make([]int, budgets)
	errs := make([]error, budgets)
	workers := o.workers()
	if sp.students != nil {
		workers = 1 // the student's code runs on the caller's goroutine
	}
	each(workers, budgets, func(b int) {
		errs[b] = sp.countBudget(ctx, b+1, &tallies[b], &counted[b], progress)
	})
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	for b := range tallies {
		t.merge(&tallies[b])
		states += uint64(counted[b])
	}
	return states, nil
}

// countBudget walks one budget's multisets for both strategies.
func (sp *orderingSpace) countBudget(ctx context.Context, budget int, t *orderingTally, states *int, progress func(int)) error {
	l, err := newOrderingLearner(sp, budget)
	if err != nil {
		return err
	}
	t.budgets = make([]Budget, sp.sc.MaxAttempts)
	row := &t.budgets[budget-1]
	offset := uint64(budget-1) * sp.perBudget
	broken := brokeMovedBack | brokeAppliedTwice | brokeDiverged | brokeDupRefused
	if sp.students != nil {
		broken |= brokeStuck
	}
	for _, m := range sp.multisets {
		for _, k := range sp.strategies() {
			x := orderingStates{l: l, strategy: k}
			lv, err := walkStates(ctx, x, orderingKey(0, m.counts), broken, *states, StateLimit, progress)
			if err != nil {
				return err
			}
			c := lv.root()
			if c.total != m.orders {
				return drift(orderingStrategies[k].name, fmt.Errorf("budget %d, multiset %v: its states count %d orders, the multiset has %d", budget, m.counts, c.total, m.orders))
			}
			sched := func(steps []uint16) orderingSchedule {
				s := orderingSchedule{budget: uint8(budget), n: uint8(len(steps))}
				for i, e := range steps {
					s.events[i] = uint8(e)
				}
				return s
			}
			tl, err := tallyOf(lv, x, offset, sched, func(s *orderingSchedule) int { return int(s.n) })
			if err != nil {
				return err
			}
			t.st[k].merge(&tl)
			*states += lv.states()
			if k == retryThenReconcile {
				row.Schedules += c.total
				row.Reconciled += c.viol[7]
				row.ByRetry += c.total - c.viol[7]
				row.Deliveries += c.cost
			}
		}
		offset += m.orders
	}
	return nil
}

// strategies are the strategies the scope runs: both of the book's, or the
// student's decision under the book's loop (retry, then reconcile).
func (sp *orderingSpace) strategies() []int {
	if sp.students != nil {
		return []int{retryThenReconcile}
	}
	return []int{retryThenReconcile, retryOnly}
}
