package drills

import (
	"errors"
	"fmt"

	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
	"archlab/internal/inbox/sqlstore"
)

// Env says where the consumer of an 8.2 drill runs. The zero Env is the
// book's: an in-memory inbox.Ledger in this process, every crash modelled by
// a flag. The command fills in the rest (--store sqlite, --crash real); the
// drills do no I/O of their own.
type Env struct {
	// Open opens an empty store for one run; a store that speaks SQL
	// reports each statement it sends to onSQL, which records it as a step.
	// Nil is the book's inbox.NewLedger(). A store with a Close method is
	// closed when the run ends.
	Open func(onSQL func(sqlstore.Statement)) (inbox.Store, error)
	// Processes, when set, hands every delivery to a consumer process of
	// its own on the database Open opens, and kills it with SIGKILL at the
	// drill's injected point. The drill's broker, reader and janitor use
	// Open's store on the same file.
	Processes Processes
}

// Processes starts one consumer process per delivery;
// *consumerproc.Spawner is the real one.
type Processes interface {
	Deliver(consumerproc.Delivery) (consumerproc.Outcome, error)
}

func (e Env) book() bool { return e.Open == nil && e.Processes == nil }

// consumer is an 8.2 drill's view of its consumer, wherever it runs: store
// is the Ledger or the SQL store (with procs, the broker's own connection to
// the consumers' file), procs the real processes or nil.
type consumer struct {
	r      *Recorder
	store  inbox.Store
	procs  Processes
	actor  string // who sends the SQL the store reports: the consumer, or the janitor
	killed int    // consumer processes killed with SIGKILL
}

// openConsumer opens the env's store, or the book's Ledger.
func openConsumer(env Env, r *Recorder) (*consumer, error) {
	c := &consumer{r: r, procs: env.Processes, actor: "consumer"}
	if env.Open == nil {
		if env.Processes != nil {
			return nil, errors.New("a consumer process needs a database: Env.Open is nil")
		}
		c.store = inbox.NewLedger()
		return c, nil
	}
	s, err := env.Open(func(st sqlstore.Statement) { c.recordSQL(c.actor, 0, st) })
	if err != nil {
		return nil, err
	}
	c.store = s
	return c, nil
}

// close ends the run: the store's first error (inbox.Err) and its Close
// error, if any, become the drill's error.
func (c *consumer) close(err *error) {
	errs := []error{*err, inbox.Err(c.store)}
	if cl, ok := c.store.(interface{ Close() error }); ok {
		errs = append(errs, cl.Close())
	}
	*err = errors.Join(errs...)
}

// delivery is one message the broker hands to the consumer.
type delivery struct {
	handler consumerproc.Op // ApplyOnce (the book's Consume), NaiveApply or MarkBeforeEffect
	msg     inbox.Message
	attempt int
	replay  bool // an acked message delivered again, as after an offset rewind
	// fault injects the drill's failure into this delivery: for ApplyOnce
	// and NaiveApply the ack is lost (a real process is killed after its
	// COMMIT, before its ack); for MarkBeforeEffect the handler crashes
	// between the mark and the effect.
	fault bool
}

// handle runs one delivery through the consumer, wherever it lives, and
// records what happened: the delivery, the handler's answer (and a real
// process's SQL), the fault, the ack. It reports whether the effect was
// applied. This is the one place where the book's in-memory model and the
// real processes differ; the drills read the same either way.
func (c *consumer) handle(d delivery, acks *inbox.MemoryAck) (applied bool, err error) {
	var ackErr error
	var out consumerproc.Outcome
	if c.real() {
		out, err = c.procs.Deliver(consumerproc.Delivery{Op: d.handler, Msg: d.msg, KillAt: c.killPoint(d)})
		if err != nil {
			return false, err
		}
		if out.Killed {
			c.killed++
		}
		c.recordDelivery(d, out.Pid)
		for _, st := range out.Statements {
			c.recordSQL("consumer", out.Pid, st)
		}
		applied = out.Applied
		if d.handler != consumerproc.MarkBeforeEffect || !d.fault {
			// A process killed before its ack never sends it: to the broker
			// that is the book's lost ack.
			if out.Killed {
				acks.LoseNext()
			}
			ackErr = acks.Ack(d.msg)
		}
	} else {
		c.recordDelivery(d, 0)
		applied, ackErr, err = c.handleHere(d, acks)
		if err != nil {
			return false, err
		}
	}
	c.recordHandler(d, applied, out)
	if d.handler == consumerproc.MarkBeforeEffect && d.fault {
		return applied, nil // it crashed: there is no ack to send
	}
	return applied, c.recordAck(d.msg, ackErr, out)
}

// redeliverUntilAcked plays the at-least-once broker: it delivers m to the
// handler again and again until it sees an ack. The acks of every delivery
// before delivery number ackedAt are lost. It returns how many deliveries it
// made, as the broker counted them.
func (c *consumer) redeliverUntilAcked(handler consumerproc.Op, m inbox.Message, acks *inbox.MemoryAck, ackedAt int) (int, error) {
	deliveries := 0
	for !acks.Acked(m) {
		deliveries++
		d := delivery{handler: handler, msg: m, attempt: deliveries, fault: deliveries < ackedAt}
		if _, err := c.handle(d, acks); err != nil {
			return deliveries, err
		}
	}
	return deliveries, nil
}

// handleHere runs a delivery on the book's in-memory store, in this process,
// through the book's own verbs. It returns the ack's error apart from any
// other failure.
func (c *consumer) handleHere(d delivery, acks *inbox.MemoryAck) (applied bool, ackErr, err error) {
	if d.fault && d.handler != consumerproc.MarkBeforeEffect {
		acks.LoseNext()
	}
	switch d.handler {
	case consumerproc.ApplyOnce:
		applied, err = inbox.Consume(c.store, d.msg, acks)
		if errors.Is(err, inbox.ErrAckLost) {
			return applied, err, nil
		}
		return applied, nil, err
	case consumerproc.NaiveApply:
		c.store.NaiveApply(d.msg)
		return true, acks.Ack(d.msg), nil
	default: // MarkBeforeEffect
		before := c.store.Applies()
		err = c.store.MarkBeforeEffect(d.msg, d.fault)
		if d.fault {
			if !errors.Is(err, inbox.ErrSimulatedCrash) {
				return false, nil, fmt.Errorf("MarkBeforeEffect with a crash returned %v, want ErrSimulatedCrash", err)
			}
			return false, nil, nil
		}
		if err != nil {
			return false, nil, err
		}
		return c.store.Applies() > before, acks.Ack(d.msg), nil
	}
}

// killPoint is where a real process dies for a delivery with a fault.
func (c *consumer) killPoint(d delivery) sqlstore.Point {
	switch {
	case !d.fault:
		return ""
	case d.handler == consumerproc.MarkBeforeEffect:
		return sqlstore.BetweenMarkAndEffect
	default:
		return consumerproc.BeforeAck
	}
}

// recordDelivery records the broker handing a message over; pid names the
// consumer process, 0 this one.
func (c *consumer) recordDelivery(d delivery, pid int) {
	var action Msg
	switch {
	case d.replay && pid != 0:
		action = M("step.replay-process", d.msg, pid)
	case d.replay:
		action = M("step.replay", d.msg)
	case pid != 0:
		action = M("step.deliver-process", d.msg, d.attempt, pid)
	default:
		action = M("step.deliver", d.msg, d.attempt)
	}
	c.r.Step("broker", "consumer", action, M("res.received"), Neutral)
}

// recordHandler records the handler's answer: an effect, a suppressed
// duplicate, or for MarkBeforeEffect the mark and the crash after it.
func (c *consumer) recordHandler(d delivery, applied bool, out consumerproc.Outcome) {
	m, bal := d.msg, c.store.Balance(d.msg.OrderID)
	switch d.handler {
	case consumerproc.ApplyOnce:
		switch {
		case applied && d.replay:
			c.r.Step("consumer", "ledger", M("step.apply-once", m), M("res.applied-again", 1, bal), Bad)
		case applied:
			c.r.Step("consumer", "ledger", M("step.apply-once", m), M("res.applied", bal), Good)
		default:
			c.r.Step("consumer", "ledger", M("step.apply-once", m), M("res.duplicate"), Good)
		}
	case consumerproc.NaiveApply:
		if d.attempt > 1 || d.replay {
			c.r.Step("consumer", "ledger", M("step.naive-apply", m), M("res.applied-again", 1, bal), Bad) // a second charge
		} else {
			c.r.Step("consumer", "ledger", M("step.naive-apply", m), M("res.applied", bal), Neutral)
		}
	case consumerproc.MarkBeforeEffect:
		switch {
		case d.fault:
			c.r.Step("consumer", "ledger", M("step.mark", m), M("res.marked"), Neutral)
			c.r.Phase(Fault)
			if c.real() {
				c.r.Step("broker", "consumer", M("step.kill."+string(sqlstore.BetweenMarkAndEffect), out.Pid), M("res.killed", out.Exit), Bad)
			} else {
				c.r.Step("consumer", "consumer", M("step.crash-before-effect"), M("res.crashed", "ErrSimulatedCrash"), Bad)
			}
			c.r.Phase(Recovery)
		case applied:
			c.r.Step("consumer", "ledger", M("step.mark-then-apply", m), M("res.applied", bal), Good)
		default:
			c.r.Step("consumer", "ledger", M("step.mark-then-apply", m), M("res.taken-for-duplicate"), Bad)
		}
	}
}

// recordAck records how the ack went: acked, lost, or never sent because a
// real consumer was killed first. A lost ack is the drill's fault; any
// other ack error ends the drill.
func (c *consumer) recordAck(m inbox.Message, err error, out consumerproc.Outcome) error {
	switch {
	case errors.Is(err, inbox.ErrAckLost):
		c.r.Phase(Fault)
		if out.Killed {
			c.r.Step("broker", "consumer", M("step.kill."+string(consumerproc.BeforeAck), out.Pid), M("res.killed", out.Exit), Bad)
			c.r.Step("consumer", "broker", M("step.ack", m), M("res.ack-never-sent"), Bad)
		} else {
			c.r.Step("consumer", "broker", M("step.ack", m), M("res.ack-lost"), Bad)
		}
		c.r.Phase(Recovery)
	case err != nil:
		return err
	default:
		c.r.Step("consumer", "broker", M("step.ack", m), M("res.acked"), Good)
	}
	return nil
}

// real reports whether deliveries go to consumer processes.
func (c *consumer) real() bool { return c.procs != nil }

// recordSQL records one statement: from a process (pid) or from this one.
func (c *consumer) recordSQL(actor string, pid int, st sqlstore.Statement) {
	action := M("step.sql", st.SQL)
	if pid != 0 {
		action = M("step.sql-pid", pid, st.SQL)
	}
	result := M("res.sql-ok")
	if st.Rows >= 0 {
		result = M("res.sql-rows", st.Rows)
	}
	c.r.Step(actor, "database", action, result, Neutral)
}

// checkKilled records, for a run with real processes, that the crash was
// real: wantKills consumers were killed with SIGKILL.
func (c *consumer) checkKilled(wantKills int) {
	if c.real() {
		c.r.Check("check.crash-real.killed", c.killed == wantKills)
	}
}

// recordBalance records the final read of an order's balance.
func recordBalance(r *Recorder, l inbox.Store, orderID string) {
	r.Step("reader", "ledger", M("step.read-balance", orderID), M("res.balance", l.Balance(orderID), l.Applies()), Neutral)
}
