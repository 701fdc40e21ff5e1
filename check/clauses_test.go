package check

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"archlab/harness"
	"archlab/internal/inbox"
	"archlab/internal/ordering"
	"archlab/internal/shardjob"
)

// The mechanism exercises' wrong variants that break one clause of the
// doc comment each, written the way students write them and apart from
// the book's code: each names the clause it breaks and, where one fits,
// the known mistake it is. TestEveryClauseBrokenIsCaught holds the
// checker to both; the variants also join `wrong`, so every other test of
// the wrong variants (one verdict, the hint, the replay) runs them too.
var clauseVariants = []struct {
	name, exercise string
	students       *harness.Students
	clause         string // the clause the verdict must name
	mistake        string // the known mistake it must name, "" for none
}{
	// §8.2, the ledger.
	{"ledger-concatenated-key", "ledger", ledger2(ledgerFlaws{concatKey: true}), "key-separator", "key-concatenation"},
	{"ledger-arrival-window", "ledger", ledger2(ledgerFlaws{arrivalWindow: true}), "prune-out-of-order", "window-by-arrival"},
	{"ledger-one-key-per-seq", "ledger", ledger2(ledgerFlaws{onePerSeq: true}), "prune-shared-seq", "prune-too-little"},
	{"ledger-prune-counts-kept", "ledger", ledger2(ledgerFlaws{countKept: true}), "prune-count", ""},
	{"ledger-prune-undoes-applies", "ledger", ledger2(ledgerFlaws{pruneUndoes: true}), "prune-keeps-effects", "prune-undoes-effects"},
	{"ledger-old-seq-refused", "ledger", ledger2(ledgerFlaws{belowRefused: true}), "below-window", "old-seq-refused"},
	{"ledger-prune-forgets-nothing", "ledger", ledger2(ledgerFlaws{forgetNothing: true}), "pruned-applies-again", "prune-too-little"},
	{"ledger-balance-by-producer", "ledger", ledger2(ledgerFlaws{balanceByProducer: true}), "new-key", ""},
	{"ledger-duplicate-is-error", "ledger", ledger2(ledgerFlaws{dupError: true}), "duplicate", ""},
	{"ledger-seq-as-id", "ledger", ledger2(ledgerFlaws{seqKey: true}), "new-key", ""},
	{"ledger-positive-amounts-only", "ledger", ledger2(ledgerFlaws{positiveOnly: true}), "any-message", ""},
	{"ledger-two-locks", "ledger", &harness.Students{Ledger: func() harness.Ledger { return newTwoLockLedger() }}, atomicClause, "check-then-write"},

	// §8.3, the projection.
	{"projection-unknown-type-conflict", "projection", projection2(projectionFlaws{unknownConflict: true}), "poison-type", "poison-as-conflict"},
	{"projection-version-of-type-ignored", "projection", projection2(projectionFlaws{typeVersionIgnored: true}), "poison-version", "poison-as-conflict"},
	{"projection-no-default-budget", "projection", projection2(projectionFlaws{noDefaultBudget: true}), "default-budget", "no-default-budget"},
	{"projection-repair-forgotten", "projection", projection2(projectionFlaws{repairForgotten: true}), "after-repair", "repair-forgotten"},
	{"projection-dlq-attempt-one", "projection", projection2(projectionFlaws{dlqAttemptOne: true}), "dlq", ""},
	{"projection-dlq-newest-first", "projection", projection2(projectionFlaws{dlqNewestFirst: true}), "dlq-order", ""},
	{"projection-errors-not-wrapped", "projection", projection2(projectionFlaws{unwrapped: true}), "poison-version", "error-not-wrapped"},
	{"projection-get-makes-rows", "projection", projection2(projectionFlaws{getMakesRows: true}), "get-missing", ""},
	{"projection-counts-refused", "projection", projection2(projectionFlaws{countsRefused: true}), "refused-changes-nothing", ""},
	{"projection-status-not-moved", "projection", projection2(projectionFlaws{statusStays: true}), "advance", ""},
	{"projection-dlq-unlocked", "projection", projection2(projectionFlaws{dlqUnlocked: true}), atomicClause, "projection-unlocked"},
	{"projection-older-is-conflict", "projection", projection2(projectionFlaws{olderConflict: true}), "older", "duplicate-as-conflict"},

	// §11.2, the runner.
	{"runner-zombie-ahead-accepted", "runner", runner2(runnerFlaws{staleAheadOK: true}), "stale-epoch-ahead", "stale-epoch-accepted"},
	{"runner-new-owner-refused", "runner", runner2(runnerFlaws{offsetFirst: true}), "higher-epoch-lower-offset", "new-owner-refused"},
	{"runner-first-epoch-kept", "runner", runner2(runnerFlaws{firstEpochKept: true}), "epoch-stored", "epoch-not-kept"},
	{"runner-epoch-one-when-none", "runner", runner2(runnerFlaws{epochOne: true}), "epoch-empty", ""},
	{"runner-every-zero-is-one", "runner", runner2(runnerFlaws{zeroIsOne: true}), "run-every-zero", ""},
	{"runner-every-zero-divides", "runner", runner2(runnerFlaws{modEvery: true}), "run-every-zero", ""},
	{"runner-no-end-commit", "runner", runner2(runnerFlaws{noEndCommit: true}), "run-end", ""},
	{"runner-crash-before-effect", "runner", runner2(runnerFlaws{crashFirst: true}), "run-crash", ""},
	{"runner-crash-counted-from-zero", "runner", runner2(runnerFlaws{crashFromZero: true}), "run-crash-resumed", ""},
	{"runner-result-checkpoint-zero", "runner", runner2(runnerFlaws{resultFromZero: true}), "result", ""},
	{"runner-replays-counted-applied", "runner", runner2(runnerFlaws{replaysApplied: true}), "result", ""},
	{"runner-one-offset-for-all", "runner", runner2(runnerFlaws{oneOffset: true}), "epoch-empty", ""},
	{"runner-refused-still-writes", "runner", runner2(runnerFlaws{writesFirst: true}), "refused-changes-nothing", ""},
}

func init() {
	for _, v := range clauseVariants {
		wrong = append(wrong, variant{v.name, v.exercise, v.students})
	}
}

// ledgerFlaws are the mistakes a plainLedger makes; the zero value makes
// none, and is the book's Ledger written another way.
type ledgerFlaws struct {
	concatKey         bool // the key is Producer+ID, no separator
	arrivalWindow     bool // Prune pops keys in arrival order while they are <= maxSeq
	onePerSeq         bool // the window keeps one key per Seq
	countKept         bool // Prune reports the keys it kept
	pruneUndoes       bool // Prune takes its keys' applies back
	belowRefused      bool // a Seq at or below a pruned maxSeq is taken for a duplicate
	forgetNothing     bool // Prune counts the keys to forget, and keeps them
	balanceByProducer bool // the balance is kept per producer
	dupError          bool // a duplicate is an error
	seqKey            bool // the key is the producer and the Seq
	positiveOnly      bool // an amount of 0 or below is refused as invalid
}

// plainLedger keeps the keys in a map and their arrival order in a slice,
// and scans for Prune: the book's Ledger without its heap.
type plainLedger struct {
	f        ledgerFlaws
	mu       sync.Mutex
	keys     map[string]int64
	order    []string // the keys in arrival order
	bySeq    map[int64]string
	balances map[string]int64
	applies  int
	prunedTo int64
}

func ledger2(f ledgerFlaws) *harness.Students {
	return &harness.Students{Ledger: func() harness.Ledger {
		return &plainLedger{f: f, keys: map[string]int64{}, bySeq: map[int64]string{}, balances: map[string]int64{}}
	}}
}

func (l *plainLedger) key(m inbox.Message) string {
	switch {
	case l.f.concatKey:
		return m.Producer + m.ID
	case l.f.seqKey:
		return m.Producer + ":" + strconv.FormatInt(m.Seq, 10)
	}
	return inbox.DedupKey(m)
}

func (l *plainLedger) ApplyOnce(m inbox.Message) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := l.key(m)
	if l.f.positiveOnly && m.AmountCents <= 0 {
		return false, fmt.Errorf("invalid amount %d", m.AmountCents)
	}
	if _, dup := l.keys[key]; dup || l.f.belowRefused && m.Seq <= l.prunedTo {
		if l.f.dupError {
			return false, errors.New("duplicate message " + key)
		}
		return false, nil
	}
	l.keys[key] = m.Seq
	l.order = append(l.order, key)
	l.bySeq[m.Seq] = key
	order := m.OrderID
	if l.f.balanceByProducer {
		order = m.Producer
	}
	l.balances[order] += m.AmountCents
	l.applies++
	return true, nil
}

func (l *plainLedger) Prune(maxSeq int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prunedTo = max(l.prunedTo, maxSeq)
	var forget []string
	switch {
	case l.f.arrivalWindow:
		for _, k := range l.order {
			if l.keys[k] > maxSeq {
				break
			}
			forget = append(forget, k)
		}
	case l.f.onePerSeq:
		for seq, k := range l.bySeq {
			if seq <= maxSeq {
				forget = append(forget, k)
				delete(l.bySeq, seq)
			}
		}
	default:
		for k, seq := range l.keys {
			if seq <= maxSeq {
				forget = append(forget, k)
			}
		}
	}
	if l.f.forgetNothing {
		return len(forget)
	}
	for _, k := range forget {
		delete(l.keys, k)
		l.order = slices.DeleteFunc(l.order, func(o string) bool { return o == k })
		if l.f.pruneUndoes {
			l.applies--
		}
	}
	if l.f.countKept {
		return len(l.keys)
	}
	return len(forget)
}

func (l *plainLedger) Balance(orderID string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balances[orderID]
}

func (l *plainLedger) Applies() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.applies
}

// twoLockLedger checks the key under one lock and writes it under
// another: every sequence of calls answers as the book's, but two
// deliveries of one message at once can both find the key new. Its table
// is a sync.Map, so the race shows as two effects, not as Go's fatal
// "concurrent map read and map write" (which a child process reports: see
// the script check_ledger_two_locks.txtar).
type twoLockLedger struct {
	check, write sync.Mutex
	keys         sync.Map
	balances     map[string]int64
	applies      int
}

func newTwoLockLedger() *twoLockLedger { return &twoLockLedger{balances: map[string]int64{}} }

func (l *twoLockLedger) ApplyOnce(m inbox.Message) (bool, error) {
	key := inbox.DedupKey(m)
	l.check.Lock()
	_, dup := l.keys.Load(key)
	l.check.Unlock()
	if dup {
		return false, nil
	}
	l.write.Lock()
	defer l.write.Unlock()
	l.keys.Store(key, m.Seq)
	l.balances[m.OrderID] += m.AmountCents
	l.applies++
	return true, nil
}

func (l *twoLockLedger) Prune(maxSeq int64) int {
	l.write.Lock()
	defer l.write.Unlock()
	n := 0
	l.keys.Range(func(k, v any) bool {
		if v.(int64) <= maxSeq {
			l.keys.Delete(k)
			n++
		}
		return true
	})
	return n
}

func (l *twoLockLedger) Balance(orderID string) int64 {
	l.write.Lock()
	defer l.write.Unlock()
	return l.balances[orderID]
}

func (l *twoLockLedger) Applies() int {
	l.write.Lock()
	defer l.write.Unlock()
	return l.applies
}

// projectionFlaws are the mistakes a keyedProjection makes.
type projectionFlaws struct {
	unknownConflict    bool // an unknown type is ErrConflict
	typeVersionIgnored bool // the gate never checks a type's own version
	noDefaultBudget    bool // NewConsumer keeps n <= 0 as it is
	repairForgotten    bool // the versions live apart from the rows, and Repair writes only the rows
	dlqAttemptOne      bool // a dead letter always says attempt 1
	dlqNewestFirst     bool // DLQ lists the newest first
	unwrapped          bool // the errors quote the sentinels' words (%v), not wrap them
	getMakesRows       bool // Get of an unknown order says it has one
	countsRefused      bool // AppliedCount counts every Apply that got past the type check
	statusStays        bool // an advance moves the version, not the status
	olderConflict      bool // a version below the current one is ErrConflict
	dlqUnlocked        bool // Handle appends to the dead-letter queue without the lock
}

// keyedProjection keeps each order's version in a map of its own beside
// the rows: another way to write the book's gate.
type keyedProjection struct {
	f       projectionFlaws
	mu      sync.Mutex
	rows    map[string]ordering.OrderState
	version map[string]int64
	applied int
}

func projection2(f projectionFlaws) *harness.Students {
	return &harness.Students{Projection: &harness.ProjectionMechanism{
		NewProjection: func() harness.StudentProjection {
			return &keyedProjection{f: f, rows: map[string]ordering.OrderState{}, version: map[string]int64{}}
		},
		NewConsumer: func(p harness.StudentProjection, n int) harness.StudentConsumer {
			if n <= 0 && !f.noDefaultBudget {
				n = 3
			}
			return &listConsumer{f: f, p: p, budget: n}
		},
	}}
}

func (p *keyedProjection) fail(sentinel error, format string, args ...any) error {
	if p.f.unwrapped {
		return fmt.Errorf(format+": %v", append(args, sentinel)...)
	}
	return fmt.Errorf(format+": %w", append(args, sentinel)...)
}

func (p *keyedProjection) Apply(e ordering.Event) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, known := targets[e.Type]
	switch {
	case !known && p.f.unknownConflict:
		return false, p.fail(ordering.ErrConflict, "unknown type %q", e.Type)
	case !known:
		return false, p.fail(ordering.ErrPoison, "unknown type %q", e.Type)
	case t.version != e.Version && !p.f.typeVersionIgnored:
		return false, p.fail(ordering.ErrPoison, "%s is v%d, not v%d", e.Type, t.version, e.Version)
	}
	if p.f.countsRefused {
		p.applied++
	}
	cur := p.version[e.OrderID]
	switch {
	case e.Version < cur && p.f.olderConflict:
		return false, p.fail(ordering.ErrConflict, "%s behind v%d", e, cur)
	case e.Version <= cur:
		return false, nil
	case e.Version > cur+1:
		return false, p.fail(ordering.ErrConflict, "%s after v%d", e, cur)
	}
	status := t.status
	if p.f.statusStays {
		status = p.rows[e.OrderID].Status
	}
	p.rows[e.OrderID] = ordering.OrderState{Version: e.Version, Status: status}
	p.version[e.OrderID] = e.Version
	if !p.f.countsRefused {
		p.applied++
	}
	return true, nil
}

func (p *keyedProjection) Get(orderID string) (ordering.OrderState, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.rows[orderID]
	return st, ok || p.f.getMakesRows
}

func (p *keyedProjection) AppliedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied
}

func (p *keyedProjection) Repair(orderID string, st ordering.OrderState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows[orderID] = st
	if !p.f.repairForgotten {
		p.version[orderID] = st.Version
	}
}

// listConsumer is the book's Consumer, written with a switch on the
// sentinel.
type listConsumer struct {
	f      projectionFlaws
	mu     sync.Mutex
	p      harness.StudentProjection
	budget int
	dlq    []ordering.DLQEntry
}

func (c *listConsumer) Handle(e ordering.Event, attempt int) ordering.Outcome {
	ok, err := c.p.Apply(e)
	switch {
	case err == nil && ok:
		return ordering.OutcomeApplied
	case err == nil:
		return ordering.OutcomeDuplicate
	case errors.Is(err, ordering.ErrConflict) && attempt < c.budget,
		c.f.unwrapped && !errors.Is(err, ordering.ErrPoison) && attempt < c.budget:
		return ordering.OutcomeRetry
	}
	if c.f.dlqAttemptOne {
		attempt = 1
	}
	if !c.f.dlqUnlocked {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.dlq = append(c.dlq, ordering.DLQEntry{Event: e, Attempts: attempt, Reason: err.Error()})
	return ordering.OutcomeDead
}

func (c *listConsumer) DLQ() []ordering.DLQEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]ordering.DLQEntry(nil), c.dlq...)
	if c.f.dlqNewestFirst {
		slices.Reverse(out)
	}
	return out
}

func (c *listConsumer) Budget() int { return c.budget }

// runnerFlaws are the mistakes a mapCheckpoint and a loopRunner make.
type runnerFlaws struct {
	staleAheadOK   bool // a lower epoch is refused only when its offset is not ahead
	offsetFirst    bool // the offset is compared before the epoch: a new owner may not go lower
	firstEpochKept bool // the epoch of the first commit is kept for good
	epochOne       bool // Epoch is 1 for a shard with no commit
	zeroIsOne      bool // CommitEvery 0 commits after every item
	modEvery       bool // commits when the items done divide by CommitEvery: 0 divides by zero
	noEndCommit    bool // the end is committed only when CommitEvery is 0
	crashFirst     bool // the crash strikes before the item's effect
	crashFromZero  bool // crashAfter counts from item 0, not from the resume
	resultFromZero bool // Result.Checkpoint starts at 0, not at the resume offset
	replaysApplied bool // Result.Applied counts the replays the sink suppressed
	oneOffset      bool // one offset and one epoch for every shard
	writesFirst    bool // Commit writes the offset, then checks the epoch
}

type mapCheckpoint struct {
	f       runnerFlaws
	mu      sync.Mutex
	offsets map[string]int
	epochs  map[string]uint64
}

func runner2(f runnerFlaws) *harness.Students {
	return &harness.Students{Runner: &harness.ShardMechanism{
		NewCheckpoint: func() harness.Checkpoint {
			return &mapCheckpoint{f: f, offsets: map[string]int{}, epochs: map[string]uint64{}}
		},
		NewRunner: func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, every int) harness.ShardRunner {
			return &loopRunner{f: f, sink: sink, cp: cp, epoch: epoch, every: every}
		},
	}}
}

func (c *mapCheckpoint) shard(s string) string {
	if c.f.oneOffset {
		return "all"
	}
	return s
}

func (c *mapCheckpoint) Load(shard string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offsets[c.shard(shard)]
}

func (c *mapCheckpoint) Epoch(shard string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.epochs[c.shard(shard)]
	if !ok && c.f.epochOne {
		return 1
	}
	return e
}

func (c *mapCheckpoint) Commit(shard string, epoch uint64, offset int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	shard = c.shard(shard)
	if err := c.fence(shard, epoch, offset); err != nil {
		return err
	}
	if _, had := c.epochs[shard]; !had || !c.f.firstEpochKept {
		c.epochs[shard] = epoch
	}
	c.offsets[shard] = offset
	return nil
}

// fence is Commit's check of the epoch and the offset.
func (c *mapCheckpoint) fence(shard string, epoch uint64, offset int) error {
	cur, at := c.epochs[shard], c.offsets[shard]
	if c.f.writesFirst {
		c.offsets[shard] = max(offset, at)
	}
	switch {
	case c.f.offsetFirst && offset < at && epoch >= cur:
		return fmt.Errorf("offset %d below %d: %w", offset, at, shardjob.ErrStaleOffset)
	case epoch < cur && !(c.f.staleAheadOK && offset > at):
		return fmt.Errorf("epoch %d below %d: %w", epoch, cur, shardjob.ErrStaleEpoch)
	case epoch == cur && offset < at:
		return fmt.Errorf("offset %d below %d: %w", offset, at, shardjob.ErrStaleOffset)
	}
	return nil
}

// loopRunner is the book's Runner.Run written with a counter of the items
// since the last commit.
type loopRunner struct {
	f     runnerFlaws
	sink  shardjob.Effects
	cp    shardjob.Progress
	epoch uint64
	every int
}

func (r *loopRunner) Run(shard string, items []string, crashAfter int) (shardjob.Result, error) {
	start := r.cp.Load(shard)
	res := shardjob.Result{Checkpoint: start}
	if r.f.resultFromZero {
		res.Checkpoint = 0
	}
	every := r.every
	if every == 0 && r.f.zeroIsOne {
		every = 1
	}
	since := 0
	for i := start; i < len(items); i++ {
		res.Attempts++
		crashNow := crashAfter > 0 && res.Attempts == crashAfter
		if r.f.crashFromZero {
			crashNow = crashAfter > 0 && i+1 == crashAfter
		}
		if crashNow && r.f.crashFirst {
			return res, fmt.Errorf("crash at %d: %w", i, shardjob.ErrInjectedCrash)
		}
		if r.sink.Apply(items[i]) || r.f.replaysApplied {
			res.Applied++
		} else {
			res.Suppressed++
		}
		if crashNow {
			return res, fmt.Errorf("crash at %d: %w", i, shardjob.ErrInjectedCrash)
		}
		if r.f.modEvery {
			every = max(every, 1) // the modulo's only use
			if (i+1-start)%r.every == 0 {
				since = every - 1
			}
		}
		if since++; every > 0 && since == every {
			if err := r.cp.Commit(shard, r.epoch, i+1); err != nil {
				return res, err
			}
			res.Checkpoint, since = i+1, 0
		}
	}
	if r.f.noEndCommit && r.every > 0 {
		return res, nil
	}
	if err := r.cp.Commit(shard, r.epoch, len(items)); err != nil {
		return res, err
	}
	res.Checkpoint = len(items)
	return res, nil
}
