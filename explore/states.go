package explore

import (
	"context"
	"errors"
	"math"
	"math/bits"
)

// Engine is how a scope is walked: schedule by schedule, or state by state.
type Engine string

// The engines. States is the default wherever a section has a state graph;
// both give the same report, byte for byte (TestEnginesAgree).
const (
	EngineStates    Engine = "states"
	EngineEnumerate Engine = "enumerate"
)

// Engines lists the engines in the order --engine names them.
var Engines = []Engine{EngineStates, EngineEnumerate}

// StateLimit is the most distinct states the state engine visits; beyond
// it the scope must be sampled.
const StateLimit = 20_000_000

// ErrOverflow is wrapped by a ScopeError whose scope has more than 2^64
// schedules: the stateCounts would not fit the report's numbers.
var ErrOverflow = errors.New("more than 2^64 schedules")

// ErrNoStateGraph is a mechanism asked for --engine states that has no
// state graph: §11.2, whose schedule is one pass of the book's Runner.Run
// per worker, so no two schedules share a state past their first run.
var ErrNoStateGraph = errors.New("no state graph for this mechanism")

// enumerateOnly is the engine of a mechanism with no state graph: it
// refuses an explicit --engine states.
func enumerateOnly(o Options) error {
	if o.Engine == EngineStates && o.Samples == 0 {
		return ErrNoStateGraph
	}
	return nil
}

// stateSpace is one strategy's scope seen state by state. A state is a uint64
// key: the section's canonical state, memoised by its value. Every step
// goes one layer deeper (it acks a message or spends a fault; it delivers
// one more event), so the layers need no ordering of their own.
type stateSpace interface {
	// expand lists the ways out of state key in the enumerator's canonical
	// order: to for a step to the state next, costing cost (what the
	// section sums over schedules: deliveries), end where a schedule may
	// stop, with the invariants it broke (tag bits, outside the section's
	// invariants, are counted but break nothing) and its cost. path, when
	// a successor must be learnt, is the steps that first reached key.
	expand(key uint64, path func() []uint16, to func(step uint16, next uint64, cost uint64), end func(broken uint8, cost uint64)) error
}

// layers is a space walked breadth first from one root: per layer, the
// states in the order they were first reached, each one's index by key, the
// state and step that first reached it, and, after count, what dynamic
// programming learnt of it.
type layers struct {
	keys   [][]uint64
	index  []map[uint64]int32
	parent [][]int32
	via    [][]uint16
	counts [][]stateCounts
	// broken is the mask of stop bits that are invariants; the others are
	// tags.
	broken uint8
}

// stateCounts is what dynamic programming learns of one state: over every
// way to finish a schedule from it, how many there are, how many break each
// invariant (or carry each tag) and at least one invariant, the sum of their
// costs, and the fewest steps to a broken end.
type stateCounts struct {
	total, broken, cost uint64
	viol                [8]uint64
	dist                int32 // -1: no broken end is reachable
}

func (lv *layers) states() int {
	n := 0
	for _, k := range lv.keys {
		n += len(k)
	}
	return n
}

// path is the steps that first reached state i of layer l: the shortest,
// and of those the first in canonical order.
func (lv *layers) path(l, i int) []uint16 {
	steps := make([]uint16, l)
	for ; l > 0; l-- {
		steps[l-1] = lv.via[l][i]
		i = int(lv.parent[l][i])
	}
	return steps
}

// walkStates finds every state of sp reachable from root, layer by layer, and
// refuses more than limit states (seen, the states other walks of the same
// exploration already hold, count against it). progress, when set, is told
// each layer's states.
func walkStates(ctx context.Context, sp stateSpace, root uint64, broken uint8, seen, limit int, progress func(int)) (*layers, error) {
	lv := &layers{keys: [][]uint64{{root}}, index: []map[uint64]int32{{root: 0}}, parent: [][]int32{{-1}}, via: [][]uint16{{0}},
		broken: broken}
	n := 1
	for l := 0; l < len(lv.keys); l++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := map[uint64]int32{}
		var keys []uint64
		var parent []int32
		var via []uint16
		for i, key := range lv.keys[l] {
			err := sp.expand(key, func() []uint16 { return lv.path(l, i) }, func(step uint16, to, _ uint64) {
				if _, ok := next[to]; !ok {
					next[to] = int32(len(keys))
					keys, parent, via = append(keys, to), append(parent, int32(i)), append(via, step)
				}
			}, func(uint8, uint64) {})
			if err != nil {
				return nil, err
			}
		}
		if progress != nil {
			progress(len(lv.keys[l]))
		}
		if len(keys) == 0 {
			break
		}
		if n += len(keys); seen+n > limit {
			return nil, &ScopeError{States: uint64(seen + n), Limit: uint64(limit), Err: ErrTooManyStates}
		}
		lv.keys, lv.index = append(lv.keys, keys), append(lv.index, next)
		lv.parent, lv.via = append(lv.parent, parent), append(lv.via, via)
	}
	return lv, lv.count(ctx, sp)
}

// count fills every state's stateCounts, deepest layer first: a state's
// successors are all one layer deeper, so they are done when it is. A sum
// past MaxUint64 is ErrOverflow, never a wrapped small number.
func (lv *layers) count(ctx context.Context, sp stateSpace) error {
	var carry uint64
	add := func(a, b uint64) uint64 {
		s, c := bits.Add64(a, b, 0)
		carry |= c
		return s
	}
	mul := func(a, b uint64) uint64 {
		hi, lo := bits.Mul64(a, b)
		carry |= hi
		return lo
	}
	lv.counts = make([][]stateCounts, len(lv.keys))
	for l := len(lv.keys) - 1; l >= 0; l-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		cs := make([]stateCounts, len(lv.keys[l]))
		for i, key := range lv.keys[l] {
			c := &cs[i]
			c.dist = -1
			err := sp.expand(key, func() []uint16 { return lv.path(l, i) }, func(_ uint16, to, cost uint64) {
				s := &lv.counts[l+1][lv.index[l+1][to]]
				c.total = add(c.total, s.total)
				c.broken = add(c.broken, s.broken)
				c.cost = add(c.cost, add(s.cost, mul(cost, s.total)))
				for k := range c.viol {
					c.viol[k] = add(c.viol[k], s.viol[k])
				}
				if s.dist >= 0 && (c.dist < 0 || s.dist+1 < c.dist) {
					c.dist = s.dist + 1
				}
			}, func(broken uint8, cost uint64) {
				c.total = add(c.total, 1)
				c.cost = add(c.cost, cost)
				if broken&lv.broken != 0 {
					c.broken = add(c.broken, 1)
					c.dist = 0
				}
				for k := range c.viol {
					if broken&(1<<k) != 0 {
						c.viol[k] = add(c.viol[k], 1)
					}
				}
			})
			if err != nil {
				return err
			}
		}
		lv.counts[l] = cs
	}
	if carry != 0 {
		return &ScopeError{Schedules: math.MaxUint64, Err: ErrOverflow}
	}
	return nil
}

// root is what the walk learnt of its root: every schedule of the space.
func (lv *layers) root() *stateCounts { return &lv.counts[0][0] }

// shortest is the shortest broken schedule from the root, as its steps,
// and its number in the enumerator's order. Of the shortest ones it is the
// first in that order: at every state it takes the first step that stays on
// a shortest broken path, and the schedules it passes over on the way,
// those of the earlier steps and stops, are exactly the ones numbered
// before it (a schedule is numbered when it stops, before the longer ones
// through the same state). ok is false when no schedule breaks anything.
func (lv *layers) shortest(sp stateSpace) (steps []uint16, index uint64, broken uint8, ok bool, err error) {
	if lv.root().dist < 0 {
		return nil, 0, 0, false, nil
	}
	for l, i := 0, 0; ; l++ {
		d := lv.counts[l][i].dist
		next, done := int32(-1), false
		err := sp.expand(lv.keys[l][i], func() []uint16 { return lv.path(l, i) }, func(step uint16, to, _ uint64) {
			if next >= 0 || done {
				return
			}
			j := lv.index[l+1][to]
			if s := lv.counts[l+1][j]; s.dist >= 0 && s.dist+1 == d {
				steps, next = append(steps, step), j
				return
			}
			index += lv.counts[l+1][j].total
		}, func(b uint8, _ uint64) {
			if next >= 0 || done {
				return
			}
			if b&lv.broken != 0 && d == 0 {
				broken, done = b, true
				return
			}
			index++
		})
		if err != nil || done {
			return steps, index, broken, done, err
		}
		if next < 0 {
			return nil, 0, 0, false, errors.New("explore: the shortest path lost its way") // count guarantees a way
		}
		i = int(next)
	}
}

// tallyOf turns a walked space into the tally the enumerator would have
// made: the same sums, the same shortest counterexample, its number offset
// by the schedules of the spaces enumerated before it.
func tallyOf[S any](lv *layers, sp stateSpace, offset uint64, sched func(steps []uint16) S, length func(*S) int) (strategyTally[S], error) {
	var t strategyTally[S]
	c := lv.root()
	for k := range t.violations {
		if lv.broken&(1<<k) != 0 {
			t.violations[k] = c.viol[k]
		}
	}
	t.broken = c.broken
	steps, index, broken, ok, err := lv.shortest(sp)
	if err != nil {
		return t, err
	}
	if ok {
		s := sched(steps)
		t.shortest = best[S]{found: true, length: length(&s), index: offset + index, sched: s, broken: broken & lv.broken}
	}
	return t, nil
}

// ErrTooManyStates is wrapped by a ScopeError whose scope has more distinct
// states than the state engine keeps.
var ErrTooManyStates = errors.New("too many states")
