package drills

import (
	"errors"

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

// real reports whether deliveries go to consumer processes.
func (c *consumer) real() bool { return c.procs != nil }

// deliver hands m to a fresh consumer process with op, to be killed at
// killAt (or not, for ""), and records the delivery and every statement
// the process ran. The caller records the kill, in its fault phase.
func (c *consumer) deliver(op consumerproc.Op, m inbox.Message, attempt int, killAt sqlstore.Point) (consumerproc.Outcome, error) {
	out, err := c.run(op, m, killAt)
	if err != nil {
		return out, err
	}
	c.recordDeliver(m, attempt, out)
	c.recordStatements(out)
	return out, nil
}

// run is deliver without recording anything.
func (c *consumer) run(op consumerproc.Op, m inbox.Message, killAt sqlstore.Point) (consumerproc.Outcome, error) {
	out, err := c.procs.Deliver(consumerproc.Delivery{Op: op, Msg: m, KillAt: killAt})
	if out.Killed {
		c.killed++
	}
	return out, err
}

// recordDeliver records the broker's delivery to a process.
func (c *consumer) recordDeliver(m inbox.Message, attempt int, out consumerproc.Outcome) {
	c.r.Step("broker", "consumer", M("step.deliver-process", m, attempt, out.Pid), M("res.received"), Neutral)
}

// recordStatements records the statements a process ran, with its pid.
func (c *consumer) recordStatements(out consumerproc.Outcome) {
	for _, st := range out.Statements {
		c.recordSQL("consumer", out.Pid, st)
	}
}

// recordKill records the SIGKILL of a consumer process at its point.
func (c *consumer) recordKill(out consumerproc.Outcome, at sqlstore.Point) {
	c.r.Step("broker", "consumer", M("step.kill."+string(at), out.Pid), M("res.killed", out.Exit), Bad)
}

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

// killAt is the point to kill a delivery's process at: at when kill holds.
func killAt(kill bool, at sqlstore.Point) sqlstore.Point {
	if kill {
		return at
	}
	return ""
}

// brokerAck settles the ack of a delivery that ran in a process. A consumer
// killed between its commit and its ack never sends it; the broker's ack
// deadline passes, and that is exactly the book's lost ack (ErrAckLost marks
// "a crash between the local commit and the broker ack"). So the ack store
// counts one ack per delivery, lost or received, as in the book.
func brokerAck(acks *inbox.MemoryAck, m inbox.Message, out consumerproc.Outcome) error {
	if out.Killed {
		acks.LoseNext()
	}
	return acks.Ack(m)
}

// applyOnce delivers m to the consumer, which runs ApplyOnce (and, in a
// process, acks), and records the delivery and the store's SQL.
func (c *consumer) applyOnce(m inbox.Message, attempt int) (bool, error) {
	if c.real() {
		out, err := c.deliver(consumerproc.ApplyOnce, m, attempt, "")
		return out.Applied, err
	}
	c.r.Step("broker", "consumer", M("step.deliver", m, attempt), M("res.received"), Neutral)
	return c.store.ApplyOnce(m)
}
