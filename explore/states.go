package explore

import (
	"errors"
	"fmt"
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
// state graph yet: its harness verbs are coarser than its states (one
// Dispatch delivers the whole queue; one Run works the whole shard).
var ErrNoStateGraph = errors.New("no state graph for this mechanism")

// enumerateOnly is the engine of a mechanism with no state graph: it
// refuses an explicit --engine states.
func enumerateOnly(o Options) error {
	if o.Engine == EngineStates && o.Samples == 0 {
		return ErrNoStateGraph
	}
	return nil
}

// edge is one step out of a state, in the canonical order the enumerator
// walks them. A stop edge ends the schedule in that state; its broken bits
// are the invariants the finished schedule breaks.
type edge struct {
	to     int32 // the next state, or stop
	step   uint16
	broken uint8 // stop edges only
}

const stop int32 = -1

// graph is one strategy's state graph: states numbered so that every edge
// goes to a higher number (each step adds to a quantity no step takes
// away: messages acked plus faults spent), state 0 the empty schedule.
// Edges are in the canonical order, so the enumerator's numbering of
// schedules can be recovered from the stateCounts.
type graph struct {
	first []int32 // state i's edges are edges[first[i]:first[i+1]]
	edges []edge
}

func (g *graph) states() int { return len(g.first) - 1 }

func (g *graph) out(i int) []edge { return g.edges[g.first[i]:g.first[i+1]] }

// stateCounts is what dynamic programming learns of one state: over every way
// to finish a schedule from it, how many there are, how many break each
// invariant and at least one, and the fewest steps to a broken end.
type stateCounts struct {
	total, broken uint64
	viol          [8]uint64
	dist          int32 // -1: no broken end is reachable
}

// count fills every state's stateCounts, last state first: a state's successors
// are all numbered higher, so they are done when it is. A sum past
// MaxUint64 is ErrOverflow, never a wrapped small number.
func (g *graph) count() ([]stateCounts, error) {
	n := g.states()
	cs := make([]stateCounts, n)
	var carry uint64
	add := func(a, b uint64) uint64 {
		s, c := bits.Add64(a, b, 0)
		carry |= c
		return s
	}
	for i := n - 1; i >= 0; i-- {
		c := &cs[i]
		c.dist = -1
		for _, e := range g.out(i) {
			if e.to == stop {
				c.total = add(c.total, 1)
				if e.broken != 0 {
					c.broken = add(c.broken, 1)
					c.dist = 0
				}
				for k := range c.viol {
					if e.broken&(1<<k) != 0 {
						c.viol[k] = add(c.viol[k], 1)
					}
				}
				continue
			}
			if int(e.to) <= i {
				return nil, fmt.Errorf("explore: state %d steps back to state %d: the graph is not layered", i, e.to)
			}
			s := &cs[e.to]
			c.total = add(c.total, s.total)
			c.broken = add(c.broken, s.broken)
			for k := range c.viol {
				c.viol[k] = add(c.viol[k], s.viol[k])
			}
			if s.dist >= 0 && (c.dist < 0 || s.dist+1 < c.dist) {
				c.dist = s.dist + 1
			}
		}
	}
	if carry != 0 {
		return nil, &ScopeError{Schedules: math.MaxUint64, Err: ErrOverflow}
	}
	return cs, nil
}

// shortest is the shortest broken schedule from state 0, as its steps, and
// its number in the enumerator's order. Of the shortest ones it is the
// first in that order: at every state it takes the first edge that stays
// on a shortest path, and the schedules it passes over on the way, those
// of the earlier edges, are exactly the ones numbered before it (a
// schedule is numbered when it stops, before the longer ones through the
// same state). ok is false when no schedule breaks anything.
func (g *graph) shortest(cs []stateCounts) (steps []uint16, index uint64, broken uint8, ok bool) {
	if cs[0].dist < 0 {
		return nil, 0, 0, false
	}
	i := 0
	for {
		d := cs[i].dist
		next := stop
		for _, e := range g.out(i) {
			if e.to == stop {
				if e.broken != 0 && d == 0 {
					return steps, index, e.broken, true
				}
				index++
				continue
			}
			if s := cs[e.to]; s.dist >= 0 && s.dist+1 == d {
				steps, next = append(steps, e.step), e.to
				break
			}
			index += cs[e.to].total
		}
		if next == stop {
			panic("explore: shortest path lost its way") // count guarantees a way
		}
		i = int(next)
	}
}

// tallyFrom turns a counted graph into the tally the enumerator would have
// made: the same sums, the same shortest counterexample.
func tallyFrom[S any](g *graph, cs []stateCounts, sched func(steps []uint16) S, length func(*S) int) strategyTally[S] {
	var t strategyTally[S]
	t.violations = cs[0].viol
	t.broken = cs[0].broken
	if steps, index, broken, ok := g.shortest(cs); ok {
		s := sched(steps)
		t.shortest = best[S]{found: true, length: length(&s), index: index, sched: s, broken: broken}
	}
	return t
}

// checkStates refuses a graph past the state limit.
func checkStates(n int, limit int) error {
	if n > limit {
		return &ScopeError{States: uint64(n), Limit: uint64(limit), Err: ErrTooManyStates}
	}
	return nil
}

// ErrTooManyStates is wrapped by a ScopeError whose scope has more distinct
// states than the state engine keeps.
var ErrTooManyStates = errors.New("too many states")
