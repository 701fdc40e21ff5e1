package harness

import (
	"fmt"

	"archlab/internal/inbox"
)

// What a §8.2 consumer process (adapters/consumerproc) and the lab say to
// each other: the process runs the strategy's handler on a real store and
// reports every statement, write and ack as it happens, so the run is
// recorded as the in-memory one is, and a kill is real.

// Statement is one SQL statement a real store sent, with its arguments
// written in, and the rows it changed (-1 for BEGIN, COMMIT, ...).
type Statement struct {
	SQL  string
	Rows int64
}

// String is the statement's canonical text form: its SQL.
func (s Statement) String() string { return s.SQL }

// Event is one thing a consumer process reports about its delivery, in the
// order it happened: a statement, a write, the ack sent, a prune asked for.
type Event struct {
	SQL   *Statement `json:"sql,omitempty"`
	Wrote *Wrote     `json:"wrote,omitempty"`
	Ack   bool       `json:"ack,omitempty"`
	Prune *int64     `json:"prune,omitempty"`
}

// Handled is what one delivery's handler did in a consumer process.
type Handled struct {
	Events   []Event
	Crashed  Point // where the process was killed, "" when it returned
	Reported bool  // what the handler returned as applied
	Pid      int
	Exit     string
}

// Consumer runs one delivery's handler in a consumer process of its own
// (adapters/consumerproc), killed with SIGKILL at crash ("" for nowhere).
type Consumer interface {
	Handle(strategy Strategy, m inbox.Message, crash Point) (Handled, error)
}

// ServeDelivery is a consumer process's side of one delivery: it runs
// strategy's handler for m on the store open opens (handing open the
// function its store calls between its writes), tells at every point the
// handler passes and whether the process dies there (at then blocks until
// it is killed), and tells report every write, ack and prune. The ack and
// the prune are the broker's side's to carry out.
func ServeDelivery(open func(between func()) (inbox.Store, error), strategy Strategy, m inbox.Message, crash Point,
	at func(p Point, die bool), report func(Event)) (bool, error) {
	handler, ok := InboxHandler(strategy)
	if !ok {
		return false, fmt.Errorf("unknown strategy %q", strategy)
	}
	d := &deliveryEnv{m: m, crash: crash, at: at,
		wrote: func(w Wrote) { report(Event{Wrote: &w}) },
		ack:   func(bool) error { report(Event{Ack: true}); return nil },
		prune: func(seq int64) int { report(Event{Prune: &seq}); return 0 },
	}
	s, err := open(d.between)
	if err != nil {
		return false, err
	}
	d.store = s
	reported, err := handler(d, m, d)
	if d.err != nil {
		return false, d.err
	}
	if !expected(err) {
		return false, err
	}
	return reported, nil
}
