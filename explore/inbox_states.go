package explore

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"archlab/harness"
	"archlab/internal/inbox"
)

// The §8.2 state: what a run's future depends on, read from the harness
// after the run's prefix. Per message, four bits: acked by the broker
// (harness.Inbox.Acks), effects written, counted up to 2
// (harness.Inbox.Applied: the invariants only ask "none", "one" or "more"),
// and whether the store holds its dedup key (keyStore). Faults spent make
// the fifth part: they decide which steps remain, not what a step does.
type inboxState uint32

const inboxBits = 4

func (h inboxState) acked(i int) bool  { return h>>(inboxBits*i)&1 != 0 }
func (h inboxState) applied(i int) int { return int(h >> (inboxBits*i + 1) & 3) }

// broken is what a schedule ending in h breaks.
func (h inboxState) broken(n int) uint8 {
	var b uint8
	for i := range n {
		switch h.applied(i) {
		case 0:
			b |= brokeLost
		case 2:
			b |= brokeDoubled
		}
	}
	return b
}

func (h inboxState) allAcked(n int) bool {
	for i := range n {
		if !h.acked(i) {
			return false
		}
	}
	return true
}

// inboxNode is one state of the graph: the harness's state and the faults
// spent reaching it.
type inboxNode struct {
	h      inboxState
	faults uint8
}

// Steps are coded msg<<3 | delivery.
func inboxStep(msg int, d delivery) uint16 { return uint16(msg)<<3 | uint16(d) }

// successors is the harness's answer for every delivery from one state:
// next[msg][d] is the state after delivering msg with d.
type successors [MaxInboxMessages][replay + 1]inboxState

// graph builds strategy's state graph breadth first. A state's successors
// are learnt once, by replaying a schedule that reaches it into a fresh
// harness and taking one more step; every other way to reach the state
// shares them. The steps that exist at a state are the scope's (the
// broker delivers what is unacked, replays what is acked, the faults stay
// within the budget): the enumerator's own rules, so both walk one space.
func (sp *inboxSpace) graph(ctx context.Context, strategy harness.Strategy, o Options) (*graph, error) {
	g := &graph{first: []int32{0}}
	ids := map[inboxNode]int32{{}: 0}
	nodes := []inboxNode{{}}
	parent, via := []int32{-1}, []uint16{0}
	learnt := map[inboxState]*successors{}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for level := 0; level < len(nodes); {
		end := len(nodes) // this level: every state its predecessors found
		// Learn the new harness states of the level, in parallel.
		var todo []int
		seen := map[inboxState]bool{}
		for i := level; i < end; i++ {
			nd := nodes[i]
			if nd.h.allAcked(sp.n) && int(nd.faults) == sp.faults {
				continue // the end of every schedule through it: nothing to learn
			}
			if h := nd.h; learnt[h] == nil && !seen[h] {
				seen[h] = true
				todo = append(todo, i)
			}
		}
		got := make([]*successors, len(todo))
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for j := w; j < len(todo); j += workers {
					if ctx.Err() != nil {
						return
					}
					path := pathTo(parent, via, todo[j])
					got[j], errs[w] = sp.learn(strategy, nodes[todo[j]].h, path)
					if errs[w] != nil {
						return
					}
				}
			})
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		for j, i := range todo {
			learnt[nodes[i].h] = got[j]
		}
		// Link the level's states to the next level's, in canonical order.
		for i := level; i < end; i++ {
			nd := nodes[i]
			next := learnt[nd.h]
			link := func(msg int, d delivery, to inboxNode) {
				id, ok := ids[to]
				if !ok {
					id = int32(len(nodes))
					ids[to] = id
					nodes = append(nodes, to)
					parent, via = append(parent, int32(i)), append(via, inboxStep(msg, d))
				}
				g.edges = append(g.edges, edge{to: id, step: inboxStep(msg, d)})
			}
			if nd.h.allAcked(sp.n) {
				g.edges = append(g.edges, edge{to: stop, broken: nd.h.broken(sp.n)})
			}
			more := int(nd.faults) < sp.faults
			for msg := range sp.n {
				if !nd.h.acked(msg) {
					link(msg, ok, inboxNode{next[msg][ok], nd.faults})
					if more {
						for d := crashBefore; d <= ackLost; d++ {
							link(msg, d, inboxNode{next[msg][d], nd.faults + 1})
						}
					}
				} else if more {
					link(msg, replay, inboxNode{next[msg][replay], nd.faults + 1})
				}
			}
			g.first = append(g.first, int32(len(g.edges)))
		}
		if err := checkStates(len(nodes), StateLimit); err != nil {
			return nil, err
		}
		if o.Progress != nil {
			o.Progress(end-level, 0)
		}
		level = end
	}
	return g, nil
}

// pathTo is the schedule that first reached state i: the shortest, and of
// those the first in canonical order.
func pathTo(parent []int32, via []uint16, i int) []uint16 {
	var rev []uint16
	for ; parent[i] >= 0; i = int(parent[i]) {
		rev = append(rev, via[i])
	}
	for a, b := 0, len(rev)-1; a < b; a, b = a+1, b-1 {
		rev[a], rev[b] = rev[b], rev[a]
	}
	return rev
}

// learn asks the harness what every delivery does in state h, reached by
// path: each delivery is path replayed into a fresh harness plus that one
// delivery, and the state read back.
func (sp *inboxSpace) learn(strategy harness.Strategy, h inboxState, path []uint16) (*successors, error) {
	var next successors
	var s inboxSchedule
	for _, st := range path {
		s.steps[s.n].msg, s.steps[s.n].what = uint8(st>>3), delivery(st&7)
		s.n++
	}
	for msg := range sp.n {
		ds := []delivery{replay}
		if !h.acked(msg) {
			ds = []delivery{ok, crashBefore, crashMid, crashAfter, ackLost}
		}
		for _, d := range ds {
			s.steps[s.n].msg, s.steps[s.n].what = uint8(msg), d
			s.n++
			to, err := sp.state(strategy, &s)
			s.n--
			if err != nil {
				return nil, err
			}
			next[msg][d] = to
		}
	}
	return &next, nil
}

// state plays s into a fresh harness and reads its state.
func (sp *inboxSpace) state(strategy harness.Strategy, s *inboxSchedule) (inboxState, error) {
	ks := &keyStore{Ledger: inbox.NewLedger(), msgs: sp.msgs}
	env := harness.InboxEnv{Open: func(func(harness.Statement)) (inbox.Store, error) { return ks, nil }}
	h, err := harness.NewInbox(strategy, env, nil)
	if err != nil {
		return 0, err
	}
	for _, m := range sp.msgs {
		h.Declare(m)
	}
	for i := range int(s.n) {
		if err := deliver(h, int(s.steps[i].msg), s.steps[i].what); err != nil {
			return 0, err
		}
	}
	if ks.err != nil {
		return 0, fmt.Errorf("explore: %s under %s: %w", s, strategy, ks.err)
	}
	var st inboxState
	for i, m := range sp.msgs {
		var bits inboxState
		if h.Acks().Acked(m) {
			bits |= 1
		}
		bits |= inboxState(min(h.Applied(i), 2)) << 1
		if ks.present&(1<<i) != 0 {
			bits |= 1 << 3
		}
		st |= bits << (inboxBits * i)
	}
	return st, nil
}

// keyStore is the book's Ledger, watched: it notes which messages' dedup
// keys the ledger holds, from the ledger's own answers (ApplyOnce and Mark
// say whether the key was new; Prune how many keys it forgot), and fails
// the run if an answer disagrees with what it noted.
type keyStore struct {
	*inbox.Ledger
	msgs    []inbox.Message
	present uint16
	err     error
}

func (s *keyStore) index(m inbox.Message) int {
	for i := range s.msgs {
		if s.msgs[i].Producer == m.Producer && s.msgs[i].ID == m.ID {
			return i
		}
	}
	return -1
}

// written notes that m's key is held now; isNew is the ledger's answer.
func (s *keyStore) written(m inbox.Message, isNew bool) {
	i := s.index(m)
	if i < 0 {
		s.fail(fmt.Errorf("the ledger was handed %s, not a message of the scope", m))
		return
	}
	if had := s.present&(1<<i) != 0; had == isNew {
		s.fail(fmt.Errorf("the ledger says %s's key new=%v, but it was held=%v", m, isNew, had))
	}
	s.present |= 1 << i
}

func (s *keyStore) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *keyStore) ApplyOnce(m inbox.Message) (bool, error) {
	applied, err := s.Ledger.ApplyOnce(m)
	if err == nil {
		s.written(m, applied)
	}
	return applied, err
}

func (s *keyStore) Mark(m inbox.Message) (bool, error) {
	isNew, err := s.Ledger.Mark(m)
	if err == nil {
		s.written(m, isNew)
	}
	return isNew, err
}

func (s *keyStore) Prune(maxSeq int64) int {
	n := s.Ledger.Prune(maxSeq)
	forgot := 0
	for i, m := range s.msgs {
		if s.present&(1<<i) != 0 && m.Seq <= maxSeq {
			s.present &^= 1 << i
			forgot++
		}
	}
	if forgot != n {
		s.fail(fmt.Errorf("the ledger forgot %d keys through seq %d, the keys it held say %d", n, maxSeq, forgot))
	}
	return n
}
