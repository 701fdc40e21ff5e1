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
// states in the order they were first reached, the state and step that
// first reached each, each state's ways out as they were listed (its
// successors' indexes in the next layer, and the stops), and, after count,
// what dynamic programming learnt of each. Keeping the ways out as indexes
// lets count run over arrays, with no second expansion and no map: the one
// map of a layer lives only while the layer before it is expanded.
type layers struct {
	keys   [][]uint64
	parent [][]int32
	via    [][]uint16
	// out[l] from first[l][i] to first[l][i+1] are state i's successors'
	// indexes, in expand's order, and cost[l] their costs (empty when
	// every step of the layer is free); stops[l] are the layer's stops,
	// by state.
	out    []chunks[int32]
	cost   []chunks[uint32]
	first  [][]int32
	stops  [][]stop
	counts [][]stateCounts
	// broken is the mask of stop bits that are invariants; the others are
	// tags.
	broken uint8
}

// chunks is an append-only slice kept in fixed-size chunks, so that the
// hundreds of millions of steps of the largest scopes are written once,
// never copied as a slice grows.
type chunks[T any] struct {
	c [][]T
	n int
}

const chunkBits = 16

// add appends v. The first chunk grows as a slice does, so that a small
// walk allocates little; every chunk after it is full-sized from the
// start.
func (c *chunks[T]) add(v T) {
	if c.n == 0 || c.n&(1<<chunkBits-1) == 0 && c.n >= 1<<chunkBits {
		c.c = append(c.c, nil)
		if c.n > 0 {
			c.c[len(c.c)-1] = make([]T, 0, 1<<chunkBits)
		}
	}
	c.c[len(c.c)-1] = append(c.c[len(c.c)-1], v)
	c.n++
}

func (c *chunks[T]) at(i int32) T { return c.c[i>>chunkBits][i&(1<<chunkBits-1)] }

// keyIndex maps a layer's keys to their indexes: open addressing with
// linear probing over one array, a key and its index side by side, so a
// lookup usually touches one cache line. It is what the walk spends most of
// its time in: every step of the largest scopes looks up its successor.
type keyIndex struct {
	slots []keySlot
	n     int
	shift uint
}

type keySlot struct {
	key uint64
	idx int32 // -1: empty
}

func newKeyIndex(hint int) *keyIndex {
	k := &keyIndex{}
	k.resize(max(64, 2*hint))
	return k
}

func (k *keyIndex) resize(size int) {
	bits := uint(64 - bits.LeadingZeros(uint(size-1)))
	old := k.slots
	k.slots, k.shift = make([]keySlot, 1<<bits), 64-bits
	for i := range k.slots {
		k.slots[i].idx = -1
	}
	for _, s := range old {
		if s.idx >= 0 {
			k.put(s.key, s.idx)
		}
	}
}

// slot is where key's probe starts: Fibonacci hashing.
func (k *keyIndex) slot(key uint64) int { return int((key * 0x9E3779B97F4A7C15) >> k.shift) }

func (k *keyIndex) put(key uint64, idx int32) {
	mask := len(k.slots) - 1
	for i := k.slot(key); ; i = (i + 1) & mask {
		if k.slots[i].idx < 0 {
			k.slots[i] = keySlot{key, idx}
			return
		}
	}
}

// find returns key's index; a key not held yet gets idx, and fresh is
// true.
func (k *keyIndex) find(key uint64, idx int32) (int32, bool) {
	mask := len(k.slots) - 1
	for i := k.slot(key); ; i = (i + 1) & mask {
		s := &k.slots[i]
		if s.idx < 0 {
			if 2*(k.n+1) > len(k.slots) { // keep it at most half full
				k.resize(2 * len(k.slots))
				k.put(key, idx)
			} else {
				*s = keySlot{key, idx}
			}
			k.n++
			return idx, true
		}
		if s.key == key {
			return s.idx, false
		}
	}
}

// stop is where a schedule may end at a state, with what it broke and
// its cost.
type stop struct {
	state  int32
	broken uint8
	cost   uint64
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
// refuses more than limit states: the states this walk holds, in every
// layer so far, and seen, the states other walks of the same exploration
// already hold. progress, when set, is told each layer's states as they
// are expanded; they sum to the states the walk holds.
func walkStates(ctx context.Context, sp stateSpace, root uint64, broken uint8, seen, limit int, progress func(int)) (*layers, error) {
	lv := &layers{keys: [][]uint64{{root}}, parent: [][]int32{{-1}}, via: [][]uint16{{0}}, broken: broken}
	n := 1
	for l := 0; l < len(lv.keys); l++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := newKeyIndex(len(lv.keys[l]))
		var keys []uint64
		var parent []int32
		var via []uint16
		var out chunks[int32]
		var costs chunks[uint32]
		costly := false // a step of the layer costs something: costs holds them all
		var stops []stop
		first := make([]int32, 0, len(lv.keys[l])+1)
		for i, key := range lv.keys[l] {
			first = append(first, int32(out.n))
			var cerr error
			err := sp.expand(key, func() []uint16 { return lv.path(l, i) }, func(step uint16, to, cost uint64) {
				j, fresh := next.find(to, int32(len(keys)))
				if fresh {
					keys, parent, via = append(keys, to), append(parent, int32(i)), append(via, step)
				}
				if cost > math.MaxUint32 {
					cerr = errors.New("explore: a step costs more than 2^32")
				}
				if cost != 0 && !costly {
					costly = true
					for range out.n {
						costs.add(0) // the free steps before the first that costs
					}
				}
				out.add(j)
				if costly {
					costs.add(uint32(cost))
				}
			}, func(b uint8, cost uint64) {
				stops = append(stops, stop{state: int32(i), broken: b, cost: cost})
			})
			if err == nil {
				err = cerr
			}
			if err != nil {
				return nil, err
			}
		}
		if out.n >= math.MaxInt32 {
			return nil, errors.New("explore: more than 2^31 steps out of one layer")
		}
		first = append(first, int32(out.n))
		lv.out, lv.cost = append(lv.out, out), append(lv.cost, costs)
		lv.first, lv.stops = append(lv.first, first), append(lv.stops, stops)
		if progress != nil {
			progress(len(lv.keys[l]))
		}
		if len(keys) == 0 {
			break
		}
		if n += len(keys); seen+n > limit {
			return nil, &ScopeError{States: uint64(seen + n), Limit: uint64(limit), Err: ErrTooManyStates}
		}
		lv.keys = append(lv.keys, keys)
		lv.parent, lv.via = append(lv.parent, parent), append(lv.via, via)
	}
	return lv, lv.count(ctx)
}

// count fills every state's stateCounts, deepest layer first: a state's
// successors are all one layer deeper, so they are done when it is. A sum
// past MaxUint64 is ErrOverflow, never a wrapped small number.
func (lv *layers) count(ctx context.Context) error {
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
		for i := range cs {
			cs[i].dist = -1
		}
		for _, st := range lv.stops[l] {
			c := &cs[st.state]
			c.total = add(c.total, 1)
			c.cost = add(c.cost, st.cost)
			if st.broken&lv.broken != 0 {
				c.broken = add(c.broken, 1)
				c.dist = 0
			}
			for k := range c.viol {
				if st.broken&(1<<k) != 0 {
					c.viol[k] = add(c.viol[k], 1)
				}
			}
		}
		if l+1 < len(lv.counts) {
			below := lv.counts[l+1]
			first, out, costs := lv.first[l], &lv.out[l], &lv.cost[l]
			for i := range cs {
				c := &cs[i]
				for e := first[i]; e < first[i+1]; e++ {
					s := &below[out.at(e)]
					var cost uint64
					if costs.n > 0 {
						cost = uint64(costs.at(e))
					}
					c.total = add(c.total, s.total)
					c.broken = add(c.broken, s.broken)
					c.cost = add(c.cost, add(s.cost, mul(cost, s.total)))
					for k := range c.viol {
						c.viol[k] = add(c.viol[k], s.viol[k])
					}
					if s.dist >= 0 && (c.dist < 0 || s.dist+1 < c.dist) {
						c.dist = s.dist + 1
					}
				}
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
// through the same state). The state's steps are listed again by expand, in
// the order they were walked, so the k-th is its k-th edge. ok is false
// when no schedule breaks anything.
func (lv *layers) shortest(sp stateSpace) (steps []uint16, index uint64, broken uint8, ok bool, err error) {
	if lv.root().dist < 0 {
		return nil, 0, 0, false, nil
	}
	for l, i := 0, 0; ; l++ {
		d := lv.counts[l][i].dist
		next, done, k := int32(-1), false, int(lv.first[l][i])
		err := sp.expand(lv.keys[l][i], func() []uint16 { return lv.path(l, i) }, func(step uint16, _, _ uint64) {
			j := lv.out[l].at(int32(k))
			k++
			if next >= 0 || done {
				return
			}
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
