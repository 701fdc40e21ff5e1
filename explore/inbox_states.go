package explore

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
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

// local is message i's four bits.
func (h inboxState) local(i int) uint8 { return uint8(h >> (inboxBits * i) & 15) }

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

// ackedMask has bit i set when message i is acked.
func (h inboxState) ackedMask(n int) uint16 {
	var m uint16
	for i := range n {
		if h.acked(i) {
			m |= 1 << i
		}
	}
	return m
}

// inboxKey is a state's key: the harness's state, the faults spent and
// the deliveries that met no fault. The last is the harness's state again
// for the book's handlers, which ack every such delivery; a student's
// handler may not, and the broker gives up when every message has had one
// and every fault is spent.
func inboxKey(h inboxState, faults, oks int) uint64 {
	return uint64(h) | uint64(faults)<<32 | uint64(oks)<<40
}

// With --notify, a key also counts m1's calls to the outside service,
// up to 2 (the report asks "never" or "more than once"): bits 48 and 49.
// A schedule's end is tagged with what its count says, so the state
// engine sums the calls over schedules as the enumerator does (issue 43:
// --notify walked every schedule one by one, 60 s for a scope the states
// count in a second).
const inboxCallsShift = 48

func inboxCalls(key uint64) int { return int(key >> inboxCallsShift & 3) }

// The tags of an end (counted, breaking nothing): m1's call never made,
// or made more than once.
const (
	tagCallNever    = brokeOutside << 1 // past the student's invariants: never met in one walk, kept apart all the same
	tagCallRepeated = brokeOutside << 2
)

// Steps are coded msg<<inboxRowBits | delivery: a row of the fault table
// fits in inboxRowBits bits.
const inboxRowBits = 5

// The table must fit: a compile-time check that it has at most 32 rows.
var _ = [1<<inboxRowBits - len(harness.InboxFaults)]struct{}{}

func inboxStep(msg int, d delivery) uint16 { return uint16(msg)<<inboxRowBits | uint16(d) }

// A delivery of message i is local: what it does depends on message i's
// four bits alone, and it changes only those, except that it may forget
// other messages' dedup keys without looking at them (the janitor's prune).
// So one harness run teaches a move for every state where message i has
// the same bits: at most messages × table rows × sixteen runs, however many
// states share them. The claim is checked,
// not assumed: keyStore watches every store call the delivery makes, and
// learn refuses a delivery that touches another message's key, effect or
// the ledger's totals, or leaves another message's bits other than the
// prune says.
type inboxMove struct {
	known bool
	to    uint8      // message i's bits after the delivery
	clear inboxState // other messages' key bits the delivery forgot
	calls uint8      // m1's outside calls the delivery made (notify)
}

// inboxStates is one strategy's §8.2 scope as a space of states: a book's
// strategy, or the student's handler when students is set.
type inboxStates struct {
	sp       *inboxSpace
	strategy harness.Strategy
	students *harness.Students
	// prefix, when set, replays the steps that led to the walk's root (a
	// state page's path) on every run that learns a move.
	prefix func(harness.Harness) error
	// notify: m1's handler calls the outside service, counted in the key.
	notify bool
	moves  [MaxInboxMessages][len(harness.InboxFaults)][1 << inboxBits]inboxMove
}

// expand lists a state's steps in the enumerators' order: the schedule may
// end here (inboxBounds.ends), then the broker's choices
// (inboxBounds.choices), each step the move learnt for its message's bits.
func (x *inboxStates) expand(key uint64, path func() []uint16, to func(uint16, uint64, uint64), end func(uint8, uint64)) error {
	h, faults, oks, calls := inboxState(key), int(key>>32&0xff), int(key>>40&0xff), inboxCalls(key)
	n := x.sp.n
	acked := h.ackedMask(n)
	if full := acked == 1<<n-1; x.sp.ends(full, oks, faults) {
		broken := h.broken(n)
		if !full {
			broken |= brokeUnacked
		}
		if x.notify && calls == 0 {
			broken |= tagCallNever
		}
		if x.notify && calls == 2 {
			broken |= tagCallRepeated
		}
		end(broken, 0)
	}
	var err error
	x.sp.choices(acked, oks, faults, func(msg int, d delivery, oks, faults int) bool {
		mv := &x.moves[msg][d][h.local(msg)]
		if !mv.known {
			if err = x.learn(h, msg, d, path()); err != nil {
				return false
			}
		}
		shift := inboxBits * msg
		own := inboxState(1<<inboxBits-1) << shift
		next := h&^mv.clear&^own | inboxState(mv.to)<<shift
		to(inboxStep(msg, d), inboxKey(next, faults, oks)|uint64(min(calls+int(mv.calls), 2))<<inboxCallsShift, 0)
		return true
	})
	return err
}

// learn runs path and then message msg's delivery d through a fresh
// harness, and keeps what the delivery did to message msg's bits as the
// move for every state with those bits.
func (x *inboxStates) learn(h inboxState, msg int, d delivery, path []uint16) error {
	sp := x.sp
	ks := &keyStore{Ledger: inbox.NewLedger(), msgs: sp.msgs, watch: -1}
	env := harness.InboxEnv{Open: func(func(harness.Statement)) (inbox.Store, error) { return ks, nil }}
	var hn *harness.Inbox
	var err error
	if x.students != nil {
		hn, err = harness.NewStudentInbox(x.students, env, nil)
	} else {
		hn, err = harness.NewInbox(x.strategy, env, nil)
	}
	if err != nil {
		return err
	}
	declare(hn, sp.msgs, nil, x.notify)
	if x.prefix != nil {
		if err := x.prefix(hn); err != nil {
			return err
		}
	}
	s := sp.schedule(path)
	for i := range int(s.n) {
		if err := deliver(hn, int(s.steps[i].msg), s.steps[i].what); err != nil {
			return err
		}
	}
	if before := sp.read(hn, ks); before != h || ks.err != nil {
		return drift(string(x.strategy), fmt.Errorf("%s reached state %08x, not %08x: %v", &s, before, h, ks.err))
	}
	ks.watch = msg
	calls := hn.Calls(0)
	if err := deliver(hn, msg, d); err != nil {
		return err
	}
	calls = min(hn.Calls(0)-calls, 2)
	s.steps[s.n].msg, s.steps[s.n].what = uint8(msg), d
	s.n++
	if ks.err != nil {
		return drift(string(x.strategy), fmt.Errorf("%s: %w", &s, ks.err))
	}
	if hn.Durable() {
		// A table of the code's own, an inbox or an outbox: a row stored
		// and not done, or not relayed, is state the key has no bit for,
		// and a restart's recovery reaches every message.
		return drift(string(x.strategy), fmt.Errorf("%s: the handler keeps a table of its own: %w", &s, ErrNotLocal))
	}
	after := sp.read(hn, ks)
	shift := inboxBits * msg
	own := inboxState(1<<inboxBits-1) << shift
	if (h&^ks.forgot)&^own != after&^own {
		return drift(string(x.strategy), fmt.Errorf("%s: delivering m%d changed other messages' state (%08x to %08x): %w",
			&s, msg+1, h, after, ErrNotLocal))
	}
	x.moves[msg][d][h.local(msg)] = inboxMove{known: true, to: after.local(msg), clear: ks.forgot &^ own, calls: uint8(calls)}
	return nil
}

// ErrNotLocal is a delivery that reached past its own message, or keeps
// state of its own (an inbox table): the state engine cannot share its
// moves, and says so rather than count wrong.
var ErrNotLocal = fmt.Errorf("the delivery is not local to its message; run with --engine enumerate")

// read is the harness's state after a run.
func (sp *inboxSpace) read(h *harness.Inbox, ks *keyStore) inboxState {
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
	return st
}

// keyStore is the book's Ledger, watched: it notes which messages' dedup
// keys the ledger holds, from the ledger's own answers (ApplyOnce and Mark
// say whether the key was new; Prune how many keys it forgot), and fails
// the run if an answer disagrees with what it noted. While watch is a
// message's index, it also fails any call that reaches another message
// (ErrNotLocal), and notes in forgot the key bits a prune clears.
type keyStore struct {
	*inbox.Ledger
	msgs    []inbox.Message
	present uint16
	watch   int // -1: not watching
	forgot  inboxState
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

// touch is a call about message m: while watching, it must be the watched
// message.
func (s *keyStore) touch(m inbox.Message, call string) {
	if s.watch >= 0 && s.index(m) != s.watch {
		s.fail(fmt.Errorf("delivering %s called %s(%s): %w", s.msgs[s.watch], call, m, ErrNotLocal))
	}
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
	s.touch(m, "ApplyOnce")
	applied, err := s.Ledger.ApplyOnce(m)
	if err == nil {
		s.written(m, applied)
	}
	return applied, err
}

// MarkBeforeEffect's key is held afterwards, new or not: it was new when
// the book's function crashed after it or applied the effect.
func (s *keyStore) MarkBeforeEffect(m inbox.Message, crash bool) error {
	s.touch(m, "MarkBeforeEffect")
	before := s.Ledger.Applies()
	err := s.Ledger.MarkBeforeEffect(m, crash)
	if err == nil || errors.Is(err, inbox.ErrSimulatedCrash) {
		s.written(m, err != nil || s.Ledger.Applies() > before)
	}
	return err
}

func (s *keyStore) Mark(m inbox.Message) (bool, error) {
	s.touch(m, "Mark")
	isNew, err := s.Ledger.Mark(m)
	if err == nil {
		s.written(m, isNew)
	}
	return isNew, err
}

func (s *keyStore) Effect(m inbox.Message) error {
	s.touch(m, "Effect")
	return s.Ledger.Effect(m)
}

func (s *keyStore) NaiveApply(m inbox.Message) {
	s.touch(m, "NaiveApply")
	s.Ledger.NaiveApply(m)
}

func (s *keyStore) Balance(orderID string) int64 {
	if s.watch >= 0 && orderID != s.msgs[s.watch].OrderID {
		s.fail(fmt.Errorf("delivering %s read the balance of %s: %w", s.msgs[s.watch], orderID, ErrNotLocal))
	}
	return s.Ledger.Balance(orderID)
}

// Applies is read around every write: the harness measures what each
// write did from it (deliveryEnv), so a delivery reads the total but only
// to compare it with itself; it is not a dependency on other messages.
func (s *keyStore) Applies() int { return s.Ledger.Applies() }

// Prune forgets keys without reading them: while watching, every key with
// Seq <= maxSeq is noted as forgotten, held or not.
func (s *keyStore) Prune(maxSeq int64) int {
	n := s.Ledger.Prune(maxSeq)
	forgot := 0
	for i, m := range s.msgs {
		if m.Seq > maxSeq {
			continue
		}
		if s.watch >= 0 {
			s.forgot |= 1 << (inboxBits*i + 3)
		}
		if s.present&(1<<i) != 0 {
			s.present &^= 1 << i
			forgot++
		}
	}
	if forgot != n {
		s.fail(fmt.Errorf("the ledger forgot %d keys through seq %d, the keys it held say %d", n, maxSeq, forgot))
	}
	return n
}

// byStates counts every strategy's schedules through its states, the
// strategies side by side on o's workers.
func (sp *inboxSpace) byStates(ctx context.Context, o Options, tallies *[4]strategyTally[inboxSchedule], calls *[4]OutsideCalls) (n, states uint64, err error) {
	var progress func(int)
	if o.Progress != nil {
		progress = func(k int) { o.Progress(k, 0) }
	}
	counted := make([]int, len(harness.InboxStrategies))
	errs := make([]error, len(counted))
	each(o.workers(), len(counted), func(k int) {
		x := &inboxStates{sp: sp, strategy: harness.InboxStrategies[k], notify: sp.notify}
		lv, err := walkStates(ctx, x, inboxKey(0, 0, 0), brokeLost|brokeDoubled, 0, StateLimit, progress)
		if err == nil {
			tallies[k], err = tallyOf(lv, x, 0, sp.schedule, func(s *inboxSchedule) int { return int(s.n) })
			root := lv.root()
			calls[k] = OutsideCalls{Never: root.viol[bits.TrailingZeros8(tagCallNever)], Repeated: root.viol[bits.TrailingZeros8(tagCallRepeated)]}
		}
		if err == nil && lv.root().total != sp.size() {
			err = drift(string(x.strategy), fmt.Errorf("its states count %d schedules, the scope has %d", lv.root().total, sp.size()))
		}
		if err == nil {
			counted[k] = lv.states()
		}
		errs[k] = err
	})
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	for _, c := range counted {
		states += uint64(c)
	}
	return sp.size(), states, nil
}

// each runs f(0) … f(n-1) on up to workers goroutines; with one worker,
// on this one (a student's code runs on the caller's goroutine, which
// recovers its panics).
func each(workers, n int, f func(int)) {
	if workers == 1 {
		for k := range n {
			f(k)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(workers, n) {
		wg.Go(func() {
			for k := range next {
				f(k)
			}
		})
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
}
