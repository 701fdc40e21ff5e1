package explore

import (
	"context"
	"fmt"
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
// the default scopes, with the poison event added to §8.3's.
var (
	StudentInboxScope    = DefaultInbox
	StudentOrderingScope = OrderingScope{Duplicates: DefaultOrdering.Duplicates, Poison: true, MaxAttempts: DefaultOrdering.MaxAttempts}
	StudentShardjobScope = DefaultShardjob
)

// The student's extra invariants, after the section's own.
const (
	brokeUnacked   = brokeDoubled << 1
	brokeStuck     = brokeDiverged << 1
	studentUnacked = "unacked"
	studentStuck   = "past-budget"
)

// StudentInbox runs every schedule of the scope against the student's §8.2
// handler, s.Inbox.
func StudentInbox(ctx context.Context, sc InboxScope, s *harness.Students) (*Report, error) {
	if err := checkParam("messages", sc.Messages, 1, MaxInboxMessages); err != nil {
		return nil, err
	}
	if err := checkParam("faults", sc.Faults, 1, MaxInboxFaults); err != nil {
		return nil, err
	}
	msgs := inboxMessages(sc.Messages)
	rep := &Report{Mechanism: "inbox", Section: "8.2", Scope: []Param{{"messages", sc.Messages}, {"faults", sc.Faults}}}
	for i, m := range msgs {
		rep.Legend = append(rep.Legend, fmt.Sprintf("m%d=%s", i+1, m))
	}
	sp := &studentInbox{n: sc.Messages, faults: sc.Faults, msgs: msgs, s: s}
	var t strategyTally[inboxSchedule]
	var n uint64
	var runErr error
	sp.each(func(sched inboxSchedule, broken uint8) bool {
		if err := ctx.Err(); err != nil {
			runErr = err
			return false
		}
		t.record(int(sched.n), n, &sched, broken)
		n++
		return true
	}, &runErr)
	if runErr != nil {
		return nil, runErr
	}
	rep.Space, rep.Schedules = n, n
	var acked []string
	for _, m := range msgs {
		acked = append(acked, fmt.Sprintf("acked(%q)", m.String()))
	}
	file := drillFile{mechanism: "inbox", section: "8.2", scope: scopeLine(rep.Scope), strategyLine: true,
		counters: []string{"deliveries", "effects", "lost", "doubled"},
		checks: []check{{"not-lost", "lost == 0", "lost"}, {"not-doubled", "doubled == 0", "doubled"},
			{"all-acked", strings.Join(acked, " && "), studentUnacked}}}
	st, err := strategyResult(harness.Student, true, n, false, &t, section[inboxSchedule]{
		invariants: []string{"lost", "doubled", studentUnacked},
		schedule:   (*inboxSchedule).String,
		outcome:    sp.outcome,
		replay: func(sched *inboxSchedule, rec *harness.Recorder, tp *tape) error {
			_, _, err := sp.run(sched, rec, tp)
			return err
		},
		file: file,
	})
	if err != nil {
		return nil, err
	}
	rep.Strategies = append(rep.Strategies, st)
	return rep, nil
}

// studentInbox is the §8.2 scope as the student's handler meets it.
type studentInbox struct {
	n, faults int
	msgs      []inbox.Message
	s         *harness.Students
}

// each walks the schedules depth first in Inbox's canonical order, asking
// the harness after each prefix which messages the broker holds acked. It
// yields each finished schedule with the invariants it broke: one that
// ends with every message acked, or one where the broker can do nothing
// more (every message delivered once without a fault, every fault spent)
// yet still holds an unacked message.
func (sp *studentInbox) each(yield func(inboxSchedule, uint8) bool, errp *error) {
	var s inboxSchedule
	var walk func(oks, faults int) bool
	walk = func(oks, faults int) bool {
		acked, broken, err := sp.run(&s, nil, nil)
		if err != nil {
			*errp = err
			return false
		}
		full := true
		for _, a := range acked {
			full = full && a
		}
		if full || (oks == sp.n && faults == sp.faults) {
			if !full {
				broken |= brokeUnacked
			}
			if !yield(s, broken) {
				return false
			}
		}
		try := func(msg int, what delivery, oks, faults int) bool {
			s.steps[s.n].msg, s.steps[s.n].what = uint8(msg), what
			s.n++
			more := walk(oks, faults)
			s.n--
			return more
		}
		for i := range sp.n {
			if !acked[i] {
				if oks < sp.n && !try(i, ok, oks+1, faults) {
					return false
				}
				if faults < sp.faults {
					for what := crashBefore; what <= ackLost; what++ {
						if !try(i, what, oks, faults+1) {
							return false
						}
					}
				}
			} else if faults < sp.faults && !try(i, replay, oks, faults+1) {
				return false
			}
		}
		return true
	}
	walk(0, 0)
}

// run plays s through the harness with the student's handler. It reports
// which messages the broker holds acked and the invariants broken so far
// (lost, doubled); with a recorder or a tape it adds the reader's verdict.
func (sp *studentInbox) run(s *inboxSchedule, rec *harness.Recorder, tp *tape) ([]bool, uint8, error) {
	h, err := harness.NewStudentInbox(sp.s, harness.InboxEnv{}, rec)
	if err != nil {
		return nil, 0, err
	}
	if tp != nil {
		tp.h = h
	}
	for _, m := range sp.msgs {
		h.Declare(m)
		if tp != nil {
			tp.say("message %s seq=%d order=%s amount=%d", m, m.Seq, m.OrderID, m.AmountCents)
		}
	}
	for i := range int(s.n) {
		msg, what := int(s.steps[i].msg), s.steps[i].what
		if tp != nil {
			if what == ok {
				tp.say("deliver %s", sp.msgs[msg])
			} else {
				tp.say("deliver %s %s", sp.msgs[msg], what)
			}
		}
		if err := deliver(h, msg, what); err != nil {
			return nil, 0, err
		}
	}
	acked := make([]bool, len(sp.msgs))
	var broken uint8
	for i, m := range sp.msgs {
		acked[i] = h.Acks().Acked(m)
		switch n := h.Applied(i); {
		case n == 0:
			broken |= brokeLost
		case n > 1:
			broken |= brokeDoubled
		}
	}
	if rec != nil || tp != nil {
		if rec != nil {
			rec.Phase(harness.Verdict)
		}
		if tp != nil {
			tp.say("[verdict]")
		}
		for i, m := range sp.msgs {
			h.CheckOnce(i)
			if tp != nil {
				tp.say("once %s", m)
			}
		}
	}
	return acked, broken, h.Finish()
}

// outcome names what the schedule broke: "m1 lost", "m1 applied 2×", "m2
// never acked".
func (sp *studentInbox) outcome(s *inboxSchedule) ([]harness.Msg, error) {
	h, err := harness.NewStudentInbox(sp.s, harness.InboxEnv{}, nil)
	if err != nil {
		return nil, err
	}
	for _, m := range sp.msgs {
		h.Declare(m)
	}
	for i := range int(s.n) {
		if err := deliver(h, int(s.steps[i].msg), s.steps[i].what); err != nil {
			return nil, err
		}
	}
	var out []harness.Msg
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
func StudentOrdering(ctx context.Context, sc OrderingScope, s *harness.Students) (*Report, error) {
	if err := checkParam("duplicates", sc.Duplicates, 0, MaxOrderingDuplicates); err != nil {
		return nil, err
	}
	if err := checkParam("max-attempts", sc.MaxAttempts, 1, MaxOrderingAttempts); err != nil {
		return nil, err
	}
	sp := newOrderingSpace(sc)
	if err := checkSize(Options{}, sp.size(), EnumerateLimit); err != nil {
		return nil, err
	}
	var t strategyTally[orderingSchedule]
	var n uint64
	var runErr error
	sp.each(func(sched orderingSchedule) bool {
		if runErr = ctx.Err(); runErr != nil {
			return false
		}
		res, err := studentOrderingRun(sp, s, &sched, nil, nil)
		if err != nil {
			runErr = err
			return false
		}
		t.record(int(sched.n), n, &sched, res.broken)
		n++
		return true
	})
	if runErr != nil {
		return nil, runErr
	}
	poison := 0
	if sc.Poison {
		poison = 1
	}
	rep := &Report{Mechanism: "ordering", Section: "8.3", Space: n, Schedules: n,
		Scope: []Param{{"duplicates", sc.Duplicates}, {"poison", poison}, {"max-attempts", sc.MaxAttempts}}}
	var settled []string
	for i := range sp.events() {
		settled = append(settled, fmt.Sprintf("outcome(%q) != \"retry\"", orderingEvents[i].ID))
	}
	file := drillFile{mechanism: "ordering", section: "8.3", scope: scopeLine(rep.Scope), strategyLine: true,
		counters: []string{"deliveries", "dlq", "fixes", "moved_back", "applied_twice", "diverged"},
		checks: []check{{"not-moved-back", "!moved_back", "moved-back"}, {"not-applied-twice", "!applied_twice", "applied-twice"},
			{"not-diverged", "diverged == 0", "diverged"}, {"within-budget", strings.Join(settled, " && "), studentStuck}}}
	st, err := strategyResult(harness.Student, true, n, false, &t, section[orderingSchedule]{
		invariants: append(append([]string(nil), orderingInvariants...), studentStuck),
		schedule:   (*orderingSchedule).String,
		outcome: func(sched *orderingSchedule) ([]harness.Msg, error) {
			res, err := studentOrderingRun(sp, s, sched, nil, nil)
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
			if res.broken&brokeStuck != 0 {
				out = append(out, harness.M("student.outcome.past-budget"))
			}
			return append(out, harness.M("explore.outcome.dlq", res.dead)), nil
		},
		replay: func(sched *orderingSchedule, rec *harness.Recorder, tp *tape) error {
			_, err := studentOrderingRun(sp, s, sched, rec, tp)
			return err
		},
		file: file,
	})
	if err != nil {
		return nil, err
	}
	rep.Strategies = append(rep.Strategies, st)
	return rep, nil
}

// studentOrderingRun is the ordering scope's run, the book's loop (retry,
// then reconcile), with the student's decision as the consumer.
func studentOrderingRun(sp *orderingSpace, s *harness.Students, sched *orderingSchedule, rec *harness.Recorder, tp *tape) (orderingResult, error) {
	with := *sp
	with.students = s
	return with.run(retryThenReconcile, sched, rec, tp)
}

// StudentShardjob runs every (commit interval, crash point, zombie step) of
// the scope against the student's §11.2 shard loop, s.Shardjob, which
// takes the shard over on its own.
func StudentShardjob(ctx context.Context, sc ShardjobScope, s *harness.Students) (*Report, error) {
	if err := checkParam("keys", sc.Keys, 1, MaxShardjobKeys); err != nil {
		return nil, err
	}
	sp := newShardSpace(sc)
	if err := checkSize(Options{}, sp.size(), ShardjobEnumerateLimit); err != nil {
		return nil, err
	}
	var t strategyTally[shardSchedule]
	var n uint64
	var runErr error
	sp.each(func(sched shardSchedule) bool {
		if runErr = ctx.Err(); runErr != nil {
			return false
		}
		res, err := studentShardRun(sp, s, &sched, nil, nil)
		if err != nil {
			runErr = err
			return false
		}
		t.record(int(sched.k+sched.z), n, &sched, res.broken)
		n++
		return true
	})
	if runErr != nil {
		return nil, runErr
	}
	rep := &Report{Mechanism: "shardjob", Section: "11.2", Scope: []Param{{"keys", sc.Keys}}, Space: n, Schedules: n}
	file := drillFile{mechanism: "shardjob", section: "11.2", scope: scopeLine(rep.Scope), strategyLine: true,
		counters: []string{"applied", "keys", "moved_back", "zombie_accepted"},
		checks: []check{{"exactly-once", "applied == keys", "not-exactly-once"},
			{"replay-matches", "rerun.suppressed == first.attempts - first.checkpoint", "replay-mismatch"},
			{"never-back", "!moved_back", "moved-back"}, {"zombie-rejected", "zombie_accepted == 0", "zombie-accepted"}}}
	st, err := strategyResult(harness.Student, true, n, false, &t, section[shardSchedule]{
		invariants: shardjobInvariants,
		schedule:   (*shardSchedule).String,
		outcome: func(sched *shardSchedule) ([]harness.Msg, error) {
			res, err := studentShardRun(sp, s, sched, nil, nil)
			if err != nil {
				return nil, err
			}
			var out []harness.Msg
			if res.broken&brokeZombie != 0 {
				out = append(out, harness.M("explore.outcome.zombie-accepted", sched.k))
			}
			if res.broken&brokeReplay != 0 {
				out = append(out, harness.M("explore.outcome.replay-mismatch", res.replay, sched.k, res.checkpoint))
			}
			if res.broken&brokeCheckpointBack != 0 {
				out = append(out, harness.M("explore.outcome.checkpoint-back"))
			}
			if res.broken&brokeNotOnce != 0 {
				out = append(out, harness.M("explore.outcome.not-exactly-once", res.applied, sp.n))
			}
			return out, nil
		},
		replay: func(sched *shardSchedule, rec *harness.Recorder, tp *tape) error {
			_, err := studentShardRun(sp, s, sched, rec, tp)
			return err
		},
		file: file,
	})
	if err != nil {
		return nil, err
	}
	rep.Strategies = append(rep.Strategies, st)
	return rep, nil
}

// studentShardRun is the shardjob scope's run with the student's loop as
// both workers and no harness fence: split, run under epoch 1 with the
// schedule's crash, then, after a crash, the rerun under epoch 2 while the
// epoch-1 zombie commits at the schedule's step.
func studentShardRun(sp *shardSpace, s *harness.Students, sched *shardSchedule, rec *harness.Recorder, tp *tape) (shardResult, error) {
	with := *sp
	with.students = s
	return with.run(fenceAtFirstCommit, sched, rec, tp)
}
