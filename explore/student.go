package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"archlab/harness"
	"archlab/internal/inbox"
)

// The student's code is one more strategy, and it faces the schedules the
// book's strategies face, through the same harness verbs. Three things
// differ from the book's strategies, and only because the student's code is
// unknown in advance:
//
//   - §8.2: whether a delivery leaves its message acked is the student's
//     doing (an ack sent before the effect, or never sent), so the broker
//     reads the ack store, not the schedule, to know what it still has to
//     deliver. For a handler that acks after every successful delivery the
//     schedules are exactly Inbox's. A third invariant joins lost and
//     doubled: every message ends acked.
//   - §8.3: the student's decision runs under the book's loop (retry, then
//     reconcile); a fourth invariant joins the three: no event is left
//     retrying past its budget (the lab's broker stops requeueing it there).
//     The student's scope has the poison event in it.
//   - §11.2: there is no harness fence; taking over is the student's loop's
//     to do, and the zombie wakes before the owner's first item or at its
//     j-th commit.
//
// The student runs on one goroutine, so a panic in the student's code
// reaches the caller, which recovers it.

// StudentScopes are the scopes the checker explores a student's code in:
// the default scopes, with the poison event added to §8.3's and the
// failing sink to §11.2's (the shard loop's, not the runner's). Code that
// survives them meets the wide scopes, the largest the flags allow, which
// the state engine counts in a second or so: 8 messages and 6 faults are
// about 10^16 schedules (a student's handler that acks every delivery has
// few states). §11.2 is enumerated, so it has no wide scope.
var (
	StudentInboxScope    = InboxScope{Messages: DefaultInbox.Messages, Faults: DefaultInbox.Faults, Extra: true, Notify: true, AtCalls: true}
	StudentOrderingScope = OrderingScope{Duplicates: DefaultOrdering.Duplicates, Poison: true, MaxAttempts: DefaultOrdering.MaxAttempts}
	StudentShardjobScope = ShardjobScope{Keys: DefaultShardjob.Keys, Fails: true}

	StudentInboxWide    = InboxScope{Messages: MaxInboxMessages, Faults: MaxInboxFaults}
	StudentOrderingWide = OrderingScope{Duplicates: MaxOrderingDuplicates, Poison: true, MaxAttempts: MaxOrderingAttempts}
	// StudentProjectionWide is the widest §8.3 scope enumerated schedule
	// by schedule (StudentProjection) in about a second.
	StudentProjectionWide = OrderingScope{Duplicates: 3, Poison: true, MaxAttempts: 4}
)

// The student's extra invariants, after the section's own.
const (
	brokeUnacked   = brokeDoubled << 1
	brokeStuck     = brokeDupRefused << 1
	brokeSkipped   = brokeStuck << 1 // the projection exercise's: an apply past the next version
	studentUnacked = "unacked"
	// studentOutside: a notify message whose outside call was never made
	// (a handler that calls only when ApplyOnce reports a new payment, and
	// died between the commit and the call).
	brokeOutside   = brokeUnacked << 1
	studentOutside = "outside-lost"
	studentStuck   = "past-budget"
	studentSkipped = "skipped-version"
)

// StudentInbox runs every schedule of the scope against the student's §8.2
// handler, s.Inbox, through the states by default (o.Engine). The student's
// code runs on this goroutine whatever o.Workers says.
func StudentInbox(ctx context.Context, sc InboxScope, s *harness.Students, o Options) (*Report, error) {
	return studentInboxReport(ctx, sc, &studentInbox{s: s}, o)
}

// StudentLedger runs every schedule of the scope with the book's Consume
// over the student's §8.2 ledger, s.Ledger (exercise ledger), in place of
// the book's Ledger.
//
// It enumerates, whatever o.Engine says. The state engine keys a state on
// what the harness sees of each message (acked, applied, its dedup key
// held), reading the key off the book's Ledger, and reuses a delivery's
// move in every state with the same key. A student's ledger keeps state
// the key cannot see (a table that forgets on the third key, a counter
// that drifts): two states the key calls equal may behave differently, and
// the engine would count a schedule it never ran as passing. Enumeration
// runs each schedule from the start on a fresh ledger, so it only reports
// what it ran.
func StudentLedger(ctx context.Context, sc InboxScope, s *harness.Students) (*Report, error) {
	return studentInboxReport(ctx, sc, &studentInbox{s: s, ledger: true}, Options{Engine: EngineEnumerate})
}

// studentInboxReport is StudentInbox and StudentLedger: sp says which of
// the student's code runs.
func studentInboxReport(ctx context.Context, sc InboxScope, sp *studentInbox, o Options) (*Report, error) {
	s := sp.s
	if err := sc.check(); err != nil {
		return nil, err
	}
	msgs := inboxMessages(sc.Messages)
	sp.inboxBounds, sp.msgs = sc.bounds(), msgs
	// The ledger exercise runs the book's Consume, which makes the book's
	// outside call itself: the notify message is the handler's lesson.
	sp.notify = sc.Notify && !sp.ledger
	if sp.notify {
		o.Engine = EngineEnumerate // the states have no bit for the call
	}
	var t strategyTally[inboxSchedule]
	var n, states uint64
	engine := o.engine()
	if engine == EngineStates {
		isp := newInboxSpace(sc)
		x := &inboxStates{sp: isp, strategy: harness.Student, students: s}
		lv, err := walkStates(ctx, x, inboxKey(0, 0, 0), brokeLost|brokeDoubled|brokeUnacked, 0, StateLimit, nil)
		if err != nil {
			return nil, err
		}
		if t, err = tallyOf(lv, x, 0, isp.schedule, func(s *inboxSchedule) int { return int(s.n) }); err != nil {
			return nil, err
		}
		n, states = lv.root().total, uint64(lv.states())
	} else {
		var runErr error
		sp.each(func(sched inboxSchedule, broken uint8) bool {
			if err := ctx.Err(); err != nil {
				runErr = err
				return false
			}
			t.record(int(sched.n), n, &sched, broken)
			t.fired(sched.faults(), len(inboxClasses(sc)))
			n++
			return true
		}, &runErr)
		if runErr != nil {
			return nil, runErr
		}
	}
	var acked []string
	for _, m := range msgs {
		acked = append(acked, fmt.Sprintf("acked(%q)", m.String()))
	}
	file := inboxFile()
	file.exercise = sp.exercise()
	file.checks = append(file.checks, check{"all-acked", strings.Join(acked, " && "), studentUnacked})
	invariants := append(slices.Clone(inboxInvariants), studentUnacked)
	if sp.notify {
		file.checks = append(file.checks, check{"outside-called", fmt.Sprintf("called(%q) >= 1", msgs[0].String()), studentOutside})
		invariants = append(invariants, studentOutside)
	}
	rep, err := assemble(&harness.InboxSection, walked[inboxSchedule]{scope: sc.params(), engine: engine, states: states, space: n, n: n,
		how: section[inboxSchedule]{invariants: invariants, faults: inboxClasses(sc), schedule: (*inboxSchedule).String, file: file},
		runs: studentRun(&t, sp.outcome, func(sched *inboxSchedule, rec *harness.Recorder, tp *tape) error {
			_, _, err := sp.run(sched, rec, tp)
			return err
		})})
	if err != nil {
		return nil, err
	}
	rep.Legend = inboxLegend(msgs)
	return rep, nil
}

// studentRun is the student's code as the one strategy a report walks: it
// should hold, whatever the book teaches of the others.
func studentRun[S any](t *strategyTally[S], outcome func(*S) ([]harness.Msg, error), replay func(*S, *harness.Recorder, *tape) error) []strategyRun[S] {
	return []strategyRun[S]{{name: harness.Student, safe: true, tally: t, outcome: outcome, replay: replay}}
}

// studentInbox is the §8.2 scope as the student's handler meets it.
type studentInbox struct {
	inboxBounds
	msgs []inbox.Message
	s    *harness.Students
	// ledger: the student's code is its Ledger, under the book's Consume
	// (exercise ledger); else its handler, over the book's Ledger.
	ledger bool
	// notify: m1's handler calls the outside service (InboxScope.Notify).
	notify bool
}

// exercise is the mechanism exercise the runs plug in, "" for the handler.
func (sp *studentInbox) exercise() string {
	if sp.ledger {
		return harness.LedgerExercise
	}
	return ""
}

// open starts one run of the student's code.
func (sp *studentInbox) open(rec *harness.Recorder) (*harness.Inbox, error) {
	if sp.ledger {
		return harness.NewStudentLedgerInbox(sp.s, harness.InboxEnv{}, rec)
	}
	return harness.NewStudentInbox(sp.s, harness.InboxEnv{}, rec)
}

// each walks the schedules depth first in Inbox's canonical order, asking
// the harness after each prefix which messages the broker holds acked. It
// yields each finished schedule with the invariants it broke: one that
// ends with every message acked, or one where the broker can do nothing
// more (every message delivered once without a fault, every fault spent)
// yet still holds an unacked message.
func (sp *studentInbox) each(yield func(inboxSchedule, uint8) bool, errp *error) {
	var s inboxSchedule
	// walk reports whether to go on, and whether its last step was a gap
	// row past its step's calls.
	var walk func(oks, faults int) (more, beyond bool)
	walk = func(oks, faults int) (bool, bool) {
		sp.s.Watch.At(&s)
		acked, broken, err := sp.run(&s, nil, nil)
		if errors.Is(err, errBeyond) {
			return true, true // a run walked already
		}
		if err != nil {
			*errp = err
			return false, false
		}
		var mask uint16
		for i, a := range acked {
			if a {
				mask |= 1 << i
			}
		}
		if sp.ends(mask == 1<<sp.n-1, oks, faults) {
			if mask != 1<<sp.n-1 {
				broken |= brokeUnacked
			}
			if !yield(s, broken) {
				return false, false
			}
		}
		// Past a message's first gap row beyond its step's calls, its
		// later gap rows are beyond too.
		var past [MaxInboxMessages]bool
		return sp.choices(mask, oks, faults, func(msg int, d delivery, oks, faults int) bool {
			if inboxRows[d].gap > 0 && past[msg] {
				return true
			}
			s.steps[s.n].msg, s.steps[s.n].what = uint8(msg), d
			s.n++
			more, beyond := walk(oks, faults)
			s.n--
			past[msg] = past[msg] || beyond && inboxRows[d].gap > 0
			return more
		}), false
	}
	walk(0, 0)
}

// run plays s through the harness with the student's handler. It reports
// which messages the broker holds acked and the invariants broken so far
// (lost, doubled); with a recorder or a tape it adds the reader's verdict.
func (sp *studentInbox) run(s *inboxSchedule, rec *harness.Recorder, tp *tape) ([]bool, uint8, error) {
	h, err := sp.open(rec)
	if err != nil {
		return nil, 0, err
	}
	if tp != nil {
		tp.h = h
	}
	declare(h, sp.msgs, tp, sp.notify)
	for i := range int(s.n) {
		if err := deliverTaped(h, sp.msgs, int(s.steps[i].msg), s.steps[i].what, tp); err != nil {
			return nil, 0, err
		}
	}
	// The schedule ends here: the consumer's recovery runs a last time
	// before the books are read (a durable inbox's rows).
	if err := h.Settle(); err != nil {
		return nil, 0, err
	}
	acked := make([]bool, len(sp.msgs))
	for i, m := range sp.msgs {
		acked[i] = h.Acks().Acked(m)
	}
	broken := onceBroken(h, len(sp.msgs))
	if sp.notify && h.Calls(0) == 0 {
		broken |= brokeOutside
	}
	checkEach(h, sp.msgs, rec, tp)
	return acked, broken, h.Finish()
}

// outcome names what the schedule broke: "m1 lost", "m1 applied 2×", "m2
// never acked".
func (sp *studentInbox) outcome(s *inboxSchedule) ([]harness.Msg, error) {
	h, err := sp.open(nil)
	if err != nil {
		return nil, err
	}
	declare(h, sp.msgs, nil, sp.notify)
	for i := range int(s.n) {
		if err := deliver(h, int(s.steps[i].msg), s.steps[i].what); err != nil {
			return nil, err
		}
	}
	if err := h.Settle(); err != nil {
		return nil, err
	}
	var out []harness.Msg
	if sp.notify && h.Calls(0) == 0 {
		out = append(out, harness.M("student.outcome.outside-lost", 1))
	}
	for i, m := range sp.msgs {
		acked := h.Acks().Acked(m)
		switch n := h.Applied(i); {
		case n == 0:
			out = append(out, harness.M("explore.outcome.lost", i+1))
		case n > 1:
			out = append(out, harness.M("explore.outcome.doubled", i+1, n))
		}
		if !acked {
			out = append(out, harness.M("student.outcome.unacked", i+1))
		}
	}
	return out, nil
}

// StudentOrdering runs every (budget, delivery order) of the scope against
// the student's §8.3 decision, s.Ordering, under the book's loop: the
// broker's retries, then reconciliation.
//
// Like StudentInbox, it walks the states unless o says enumerate, on this
// goroutine.
func StudentOrdering(ctx context.Context, sc OrderingScope, s *harness.Students, o Options) (*Report, error) {
	return studentOrdering(ctx, sc, s.Only(""), o, "")
}

// StudentProjection runs every (budget, delivery order) of the scope with
// the student's §8.3 mechanism, s.Projection, in place of the book's
// projection and consumer, under the book's loop: the broker's retries,
// then the book's Reconcile over the student's rows. It enumerates the
// schedules one by one: the state engine merges runs whose harness
// snapshots agree, and a snapshot reads a projection only through Get, so a
// student's projection that keeps more (a set of event IDs seen, a count)
// could behave differently after two runs the snapshot calls the same.
func StudentProjection(ctx context.Context, sc OrderingScope, s *harness.Students) (*Report, error) {
	return studentOrdering(ctx, sc, s.Only(harness.ProjectionExercise), Options{Engine: EngineEnumerate}, "projection")
}

// studentOrdering is StudentOrdering for either tier: s holds the
// decision or the mechanism, and mechanism names the latter.
func studentOrdering(ctx context.Context, sc OrderingScope, s *harness.Students, o Options, mechanism string) (*Report, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	sp := newOrderingSpace(sc)
	engine := o.engine()
	var t *strategyTally[orderingSchedule]
	var n, states uint64
	if engine == EngineStates {
		with := sp.withStudents(s)
		all := &orderingTally{sp: with, budgets: make([]Budget, sc.MaxAttempts)}
		var err error
		if states, err = with.byStates(ctx, Options{}, all); err != nil {
			return nil, err
		}
		t, n = &all.st[retryThenReconcile], sp.size()
	} else {
		if err := checkSize(Options{}, sp.size(), EnumerateLimit); err != nil {
			return nil, err
		}
		var err error
		t, n, err = tallyEach(ctx, sp.each, func(sched *orderingSchedule) (uint8, int, uint32, error) {
			s.Watch.At(sched)
			res, err := studentOrderingRun(sp, s, sched, nil, nil)
			return res.broken, int(sched.n), sched.faults(), err
		}, len(orderingFaultClasses))
		if err != nil {
			return nil, err
		}
	}
	var settled []string
	for i := range sp.events() {
		settled = append(settled, fmt.Sprintf("outcome(%q) != \"retry\"", orderingEvents[i].ID))
	}
	file := orderingFile()
	file.strategyLine, file.exercise = true, mechanism
	file.checks = append(file.checks, check{"within-budget", strings.Join(settled, " && "), studentStuck})
	invariants := append(slices.Clone(orderingInvariants), studentStuck)
	if mechanism != "" {
		// The student's own version gate may let a gap through, which
		// reconciliation would later hide: every apply must move an order
		// by one version.
		file.checks = append(file.checks, check{"no-skipped-version", "!skipped", studentSkipped})
		invariants = append(invariants, studentSkipped)
	}
	return assemble(&harness.OrderingSection, walked[orderingSchedule]{scope: sc.params(), engine: engine, states: states, space: n, n: n,
		how: section[orderingSchedule]{invariants: invariants, faults: orderingFaultClasses, schedule: (*orderingSchedule).String, file: file},
		runs: studentRun(t, func(sched *orderingSchedule) ([]harness.Msg, error) {
			return sp.withStudents(s).outcome(retryThenReconcile, sched)
		}, func(sched *orderingSchedule, rec *harness.Recorder, tp *tape) error {
			_, err := studentOrderingRun(sp, s, sched, rec, tp)
			return err
		})})
}

// tallyEach runs every schedule each yields, in order, on this goroutine
// (the student's code may panic; the checker recovers it), and tallies
// what each broke. run reports the invariants broken, the schedule's
// length, by which the shortest counterexample is chosen, and the fault
// classes (of classes) the schedule hit.
func tallyEach[S any](ctx context.Context, each func(func(S) bool), run func(*S) (uint8, int, uint32, error), classes int) (*strategyTally[S], uint64, error) {
	var t strategyTally[S]
	var n uint64
	var runErr error
	each(func(sched S) bool {
		if runErr = ctx.Err(); runErr != nil {
			return false
		}
		broken, length, faults, err := run(&sched)
		if err != nil {
			runErr = err
			return false
		}
		t.record(length, n, &sched, broken)
		t.fired(faults, classes)
		n++
		return true
	})
	return &t, n, runErr
}

// studentOrderingRun is the ordering scope's run, the book's loop (retry,
// then reconcile), with the student's decision as the consumer.
func studentOrderingRun(sp *orderingSpace, s *harness.Students, sched *orderingSchedule, rec *harness.Recorder, tp *tape) (orderingResult, error) {
	return sp.withStudents(s).run(retryThenReconcile, sched, rec, tp)
}

// withStudents is the same scope run on the student's code.
func (sp *orderingSpace) withStudents(s *harness.Students) *orderingSpace {
	with := *sp
	with.students = s
	return &with
}

// StudentShardjob runs every (commit interval, crash point, zombie step) of
// the scope against the student's §11.2 shard loop, s.Shardjob, which
// takes the shard over on its own.
func StudentShardjob(ctx context.Context, sc ShardjobScope, s *harness.Students) (*Report, error) {
	return studentShardjob(ctx, sc, s, fenceAtFirstCommit, "")
}

// StudentRunner runs every schedule of the scope against the student's
// §11.2 mechanism, s.Runner: the student's Runner.Run and Checkpoint where
// the book's sit, with the lab's takeover fence raised around them
// (fence-at-takeover). The book's Runner.Run and Checkpoint hold every
// invariant there; without the fence (fence-at-first-commit) they let a
// zombie move the checkpoint, which is the book's loop's window, not a
// fault of the mechanism the student copies, so those schedules are not
// asked of it.
func StudentRunner(ctx context.Context, sc ShardjobScope, s *harness.Students) (*Report, error) {
	// The book's Runner.Run hears a failing sink as a suppression and
	// loses the item (drill sink-fails): not a fault of the mechanism the
	// student copies, so not asked of it.
	sc.Fails = false
	return studentShardjob(ctx, sc, s.Only("runner"), fenceAtTakeover, "runner")
}

// studentShardjob runs the scope on the student's code with one way to
// take over; exercise, when set, is the exercise whose code the emitted
// drill file plugs in alone.
func studentShardjob(ctx context.Context, sc ShardjobScope, s *harness.Students, strategy int, exercise string) (*Report, error) {
	if err := checkParam("keys", sc.Keys, 1, MaxShardjobKeys); err != nil {
		return nil, err
	}
	sp := newShardSpace(sc).withStudents(s)
	if err := checkSize(Options{}, sp.size(), ShardjobEnumerateLimit); err != nil {
		return nil, err
	}
	t, n, err := tallyEach(ctx, sp.each, func(sched *shardSchedule) (uint8, int, uint32, error) {
		s.Watch.At(sched)
		res, err := sp.run(strategy, sched, nil, nil)
		return res.broken, sched.length(), sp.faults(sched), err
	}, len(sp.classes()))
	if err != nil {
		return nil, err
	}
	file := shardjobFile()
	file.strategyLine, file.exercise = true, exercise
	return assemble(&harness.ShardjobSection, walked[shardSchedule]{scope: []Param{{"keys", sc.Keys}}, engine: EngineEnumerate, space: n, n: n,
		how: section[shardSchedule]{invariants: shardjobInvariants, faults: sp.classes(), schedule: (*shardSchedule).String, file: file},
		runs: studentRun(t, func(sched *shardSchedule) ([]harness.Msg, error) {
			return sp.outcome(strategy, sched)
		}, func(sched *shardSchedule, rec *harness.Recorder, tp *tape) error {
			_, err := sp.run(strategy, sched, rec, tp)
			return err
		})})
}

// withStudents is the same scope run on the student's code.
func (sp *shardSpace) withStudents(s *harness.Students) *shardSpace {
	with := *sp
	with.students = s
	return &with
}
