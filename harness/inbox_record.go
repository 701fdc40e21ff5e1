package harness

// How a §8.2 run is recorded: one step per delivery, write, crash, ack and
// statement, in the words the catalogue gives them.

// recordDelivery records the broker handing message i over; row names the
// copy when it is the row's own (last); pid names the consumer process, 0
// this one.
func (h *Inbox) recordDelivery(i int, row InboxFault, last bool, pid int) {
	if h.rec == nil {
		return // the explorer's enumeration: build no messages
	}
	m := h.msgs[i]
	var action Msg
	switch {
	case last && row.Step != (Words{}):
		// A delivery that is itself the fault (a duplicate, a replay)
		// opens the fault phase.
		h.fault("broker", "consumer", M(row.StepKey(pid != 0), m, h.attempts[i], pid), M("res.received"))
		return
	case pid != 0:
		action = M("step.deliver-process", m, h.attempts[i], pid)
	default:
		action = M("step.deliver", m, h.attempts[i])
	}
	h.step("broker", "consumer", action, M("res.received"), Neutral)
}

// recordWrote records one write of the handler, as it returned.
func (h *Inbox) recordWrote(i int, w Wrote) {
	if h.rec == nil {
		return
	}
	m := h.msgs[i]
	if w.Failed {
		h.recordFailed(i, w)
		return
	}
	switch w.Call {
	case "ApplyOnce":
		h.recordWrite(i, M("step.apply-once", m), w.Applied)
	case "NaiveApply":
		h.recordWrite(i, M("step.naive-apply", m), w.Applied)
	case "MarkBeforeEffect":
		// The book's one call, shown as its two writes: the key (a
		// duplicate stops there) and then the effect.
		if !w.NewKey {
			h.recordWrite(i, M("step.mark", m), false)
			return
		}
		h.step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
		if w.Applied {
			h.recordWrite(i, M("step.effect", m), true)
		}
	case "Mark":
		res := M("res.marked")
		if !w.NewKey {
			res = M("res.duplicate")
		}
		h.step("consumer", "ledger", M("step.mark", m), res, Neutral)
	case "Effect":
		h.recordWrite(i, M("student.step.effect", m), w.Applied)
	}
}

// recordFailed records a write the store refused (effect-fails): the
// fault itself. A lone key committed before it stays.
func (h *Inbox) recordFailed(i int, w Wrote) {
	m := h.msgs[i]
	switch w.Call {
	case "MarkBeforeEffect":
		h.step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
		h.fault("consumer", "ledger", M("step.effect", m), M("res.effect-failed"))
	case "ApplyOnce":
		h.fault("consumer", "ledger", M("step.apply-once", m), M("res.write-refused"))
	case "NaiveApply":
		h.fault("consumer", "ledger", M("step.naive-apply", m), M("res.effect-failed"))
	default:
		h.fault("consumer", "ledger", M("student.step.effect", m), M("res.effect-failed"))
	}
}

// recordWrite records a write that may have applied message i. Applying it
// the first time or suppressing a duplicate is good; applying it again, or
// dropping it as a duplicate when it was never applied, is the bug showing.
func (h *Inbox) recordWrite(i int, action Msg, applied bool) {
	m := h.msgs[i]
	bal := h.store.Balance(m.OrderID)
	var res Msg
	tone := Good
	switch {
	case !applied && h.applied[i] == 0:
		res, tone = M("res.taken-for-duplicate"), Harm
	case !applied:
		res = M("res.duplicate")
	case h.applied[i] > 1:
		res, tone = M("res.applied-again", 1, bal), Harm
	case h.strategy == Naive:
		res, tone = M("res.applied", bal), Neutral
	default:
		res = M("res.applied", bal)
	}
	h.step("consumer", "ledger", action, res, tone)
}

// recordCrash records the consumer dying at p in this process; inside
// names the write it died in.
func (h *Inbox) recordCrash(p Point, inside string, calls int) {
	var action Msg
	crashed := "simulated"
	switch {
	case p == AtCall && inside == "":
		action = M("student.step.crash-after-calls", calls)
	case p == AtCall:
		action = M("student.step.crash-before-call", calls, inside)
	case inside == "MarkBeforeEffect":
		action, crashed = M("step.crash-before-effect"), "ErrSimulatedCrash"
	case inside != "":
		action = M("explore.step.crash-in-write", inside)
	case p == BeforeWrites:
		action = M("explore.step.crash-before")
	case p == BetweenWrites:
		action = M("student.step.crash-between")
	case p == AfterAck:
		action = M("durable.step.crash-after-ack")
	default:
		action = M("explore.step.crash-after")
	}
	h.fault("consumer", "consumer", action, M("res.crashed", crashed))
}

// recordSQL records one statement: from a process (pid) or from this one.
func (h *Inbox) recordSQL(actor string, pid int, st Statement) {
	action := M("step.sql", st.SQL)
	if pid != 0 {
		action = M("step.sql-pid", pid, st.SQL)
	}
	result := M("res.sql-ok")
	if st.Rows >= 0 {
		result = M("res.sql-rows", st.Rows)
	}
	h.step(actor, "database", action, result, Neutral)
}

func (h *Inbox) step(actor, target string, action, result Msg, tone Tone) {
	if h.rec != nil {
		h.rec.Step(actor, target, action, result, tone)
	}
}

// fault records the fault itself: in the fault phase, with recovery after.
func (h *Inbox) fault(actor, target string, action, result Msg) {
	if h.rec != nil {
		h.rec.Fault(actor, target, action, result)
	}
}
