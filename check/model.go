package check

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"archlab/exercises"
	"archlab/harness"
	"archlab/internal/ordering"
)

// The book's code is the model. A mechanism exercise (ledger, projection,
// runner) is the book's type written again, so the book's type says what
// every call must answer: random sequences of calls run on the student's
// type and on the book's side by side, and after every call both sides
// are also read (the balances and counts, the rows and the dead letters,
// the offsets and the epochs), so a call that changes what it must not
// shows at that very call. This is model-based testing, as QuickCheck's
// state machines do it, with the book's code for the state machine.
//
// Each call is drawn to reach a clause of the exercise's doc comment, and
// the clauses a call exercised are named from the book's state before it
// (not from what the generator hoped), so a pass can count how often each
// clause was reached, and a clause never reached is no pass.
//
// The first call where the two sides answer differently is a
// counterexample. It is shrunk, deterministically, to the shortest
// sequence that still breaks the same clause the same way, and then it is
// the whole verdict: its clause is the headline, its harm (an effect lost,
// one applied twice, a count off, an error) decides whether a known mistake
// is named, and that mistake's hint comes first.

// Answer is one value a call or a read returned, as Go writes it: "true,
// nil", "false, ErrPoison", "Result{Attempts: 2, …}".
type Answer struct {
	What  string `json:"what"` // the call or read: "ApplyOnce(m2)", "Balance(\"o-1\")"
	Value string `json:"value"`
}

// Call is one call of a sequence, run on both sides.
type Call struct {
	Text    string   // the call as the report shows it: "ApplyOnce(m2)"
	Clauses []string // the clauses it exercised, the most telling first
	Book    []Answer // the book's answers: the call's, then the reads after it
	Yours   []Answer // the student's, in the same order
}

// differs is the first answer where the two sides part, or -1.
func (c *Call) differs() int {
	for i := range c.Book {
		if i >= len(c.Yours) || c.Book[i] != c.Yours[i] {
			return i
		}
	}
	return -1
}

// CallRun is the model's counterexample: the shortest sequence of calls
// where the student's type answers otherwise than the book's, the last
// call the one that differs.
type CallRun struct {
	Exercise string
	Type     string // the student's type the calls are made on: "Ledger"
	Calls    []Call
	Clause   string // the clause the last call breaks
	Harm     string // how it breaks it (the harm* constants)
	GoTest   string // a Go test that replays the run on the student's code
	ops      []op   // the calls, to replay them (in the process that ran them)
}

// Last is the call that differs.
func (r *CallRun) Last() *Call { return &r.Calls[len(r.Calls)-1] }

// TestName is the Go test GoTest holds: "TestLedgerReplay".
func (r *CallRun) TestName() string { return "Test" + r.Type + "Replay" }

// TestFile is where the student saves it: "exercises/ledger_replay_test.go".
func (r *CallRun) TestFile() string {
	return "exercises/" + strings.ToLower(r.Type) + "_replay_test.go"
}

// The harms a difference can do, as the report names them; a known
// mistake is named only when the harm seen is the one it describes.
const (
	harmLost      = "lost"      // an effect the book applies, yours does not
	harmDouble    = "double"    // an effect the book suppresses, yours applies
	harmTooMany   = "too-many"  // a count (pruned keys, applied, attempts) above the book's
	harmTooFew    = "too-few"   // below it
	harmRefused   = "refused"   // yours refuses (an error) what the book accepts
	harmAccepted  = "accepted"  // yours accepts what the book refuses
	harmWrongErr  = "wrong-err" // both refuse, with different sentinels
	harmUnwrapped = "unwrapped" // the book's error wraps a sentinel, yours wraps none
	harmOther     = "other"     // any other difference
	harmAtomicity = "atomicity" // two calls at once answer as no order of them could
	harmPanic     = "panic"     // yours panics where the book answers
)

// The consumer's outcomes, as a Handle's harm: what yours said instead.
const (
	outcomeApplied = ordering.OutcomeApplied
	outcomeRetry   = ordering.OutcomeRetry
	outcomeDead    = ordering.OutcomeDead
)

// ClauseCount is how many generated calls exercised one clause.
type ClauseCount struct {
	Name string
	N    uint64
}

// op is one call of a sequence, before it is run.
type op interface {
	String() string
}

// readOp is a read of a type's state (Balance, Get, Load …) as a call of
// its own, as the races make them.
type readOp struct {
	What string // the method: "Balance"
	Arg  string // its argument, "" for none
}

func (r readOp) String() string {
	if r.Arg == "" {
		return r.What + "()"
	}
	return fmt.Sprintf("%s(%q)", r.What, r.Arg)
}

// sides is a fresh pair, the book's type and the student's, that a
// sequence runs on.
type sides interface {
	// step runs o on both sides: the clauses it exercises, named from the
	// book's state before it, then each side's answers (the call's, then
	// the reads after it).
	step(o op) (clauses []string, book, yours []Answer, err error)
}

// machine is one mechanism exercise's model: its clauses, how a fresh
// pair of sides opens, how calls are drawn and made simpler, how a
// difference is read, and the Go test that replays one.
type machine struct {
	exercise string
	typ      string // the student's type, as the report names it: "Ledger"
	// clauses are the doc comment's clauses, in its order; the report and
	// the catalogue (check.clause.EXERCISE.NAME) use these names.
	clauses []string
	open    func(s *harness.Students) (sides, error)
	// draw draws the next call of a sequence, given the calls before it.
	draw func(r *rand.Rand, before []op) op
	// simpler lists simpler forms of one call, for the shrinker.
	simpler func(o op) []op
	// harm says how the call differs where it does: answer i of c.
	harm func(c *Call, i int) string
	// headline, when set, picks the clause a difference breaks (else the
	// call's first, the most telling). It may replay ops on s to ask the
	// student's type more (which keys a Prune really forgot).
	headline func(s *harness.Students, ops []op, c *Call, i int) string
	// goTest writes the run down as a Go test (model_replay.go).
	goTest func(ops []op, calls []Call) string
	// solo opens one fresh value of s's and returns a function that makes
	// one call on it (a read too) and returns the call's answer; it may be
	// called from several goroutines at once (linear.go).
	solo func(s *harness.Students) (func(o op) (string, error), error)
	// edges are sequences run after the random ones: values the random
	// draws never take (an amount of 0 or below, an empty ID).
	edges [][]op
	// races are the calls run at once; reads, every read of the type's.
	races []race
	reads []op
	// mistakes are its known mistakes (model_mistakes.go).
	mistakes []modelMistake
}

// The model's budget: sequences of length calls each. Fixed, with a fixed
// seed, so a check says the same thing twice; about a millisecond a
// hundred sequences for each exercise on this lab's 2-core machine.
const (
	modelSeed      = 82
	modelSequences = 400
	modelLength    = 24
)

// ModelResult is what the model found: a counterexample, or a pass with
// each clause's count.
type ModelResult struct {
	Run      *CallRun
	Coverage []ClauseCount
	Calls    uint64 // calls run in all
}

// check runs the machine's sequences on the student's code s.
func (m *machine) check(s *harness.Students) (*ModelResult, error) {
	r := rand.New(rand.NewPCG(modelSeed, uint64(len(m.exercise))))
	res := &ModelResult{}
	counts := make(map[string]uint64, len(m.clauses))
	for i := range modelSequences + len(m.edges) {
		// Short sequences first, as QuickCheck grows its size: the first
		// counterexample found is then already a short one. The edges
		// last: a counterexample of the random ones reads as before.
		var ops []op
		if i < modelSequences {
			n := 4 + i*(modelLength-4)/modelSequences
			ops = make([]op, 0, n)
			for range n {
				ops = append(ops, m.draw(r, ops))
			}
		} else {
			ops = m.edges[i-modelSequences]
		}
		calls, err := m.replay(s, ops)
		if err != nil {
			return nil, err
		}
		last := &calls[len(calls)-1]
		if last.differs() >= 0 {
			run, err := m.shrink(s, ops[:len(calls)], calls)
			if err != nil {
				return nil, err
			}
			res.Run = run
			return res, nil
		}
		for _, c := range calls {
			res.Calls++
			for _, name := range c.Clauses {
				counts[name]++
			}
		}
	}
	for _, name := range m.clauses {
		res.Coverage = append(res.Coverage, ClauseCount{Name: name, N: counts[name]})
	}
	return res, nil
}

// replay runs ops on a fresh pair of sides, stopping after the first call
// that differs. An error is the student's code stopping the check: the
// stub, or a panic.
func (m *machine) replay(s *harness.Students, ops []op) ([]Call, error) {
	var calls []Call
	err := safely(func() error {
		pair, err := m.open(s)
		if err != nil {
			return err
		}
		for i, o := range ops {
			s.Watch.At(modelCall{o})
			var (
				clauses     []string
				book, yours []Answer
			)
			err := safely(func() error {
				var err error
				clauses, book, yours, err = pair.step(o)
				return err
			})
			var p *panicError
			if errors.As(err, &p) {
				// A panic is an answer that differs, with its run: the
				// calls up to it, shrunk as any other.
				c, err := m.panicked(ops[:i+1], p.value)
				if err != nil {
					return err
				}
				calls = append(calls, c)
				return nil
			}
			if err != nil {
				return err
			}
			calls = append(calls, Call{Text: o.String(), Clauses: clauses, Book: book, Yours: yours})
			if calls[len(calls)-1].differs() >= 0 {
				return nil
			}
		}
		return nil
	})
	return calls, err
}

// panicked is the last of ops as the call where the student's code
// panicked with value: the book's answers (from the book's type on both
// sides), and the panic as the student's.
func (m *machine) panicked(ops []op, value string) (Call, error) {
	pair, err := m.open(Book())
	if err != nil {
		return Call{}, err
	}
	var c Call
	for _, o := range ops {
		clauses, book, _, err := pair.step(o)
		if err != nil {
			return Call{}, err
		}
		c = Call{Text: o.String(), Clauses: clauses, Book: book}
	}
	c.Yours = []Answer{{What: c.Book[0].What, Value: panicValue + value}}
	return c, nil
}

// panicValue begins the answer of a call that panicked.
const panicValue = "panic: "

// modelCall is where the model is, for a hang: the call it made.
type modelCall struct{ o op }

func (c modelCall) String() string { return "call " + c.o.String() }

// broken is the clause and harm of a run's last call, "" when it does not
// differ.
func (m *machine) broken(s *harness.Students, ops []op, calls []Call) (clause, harm string) {
	last := &calls[len(calls)-1]
	i := last.differs()
	if i < 0 {
		return "", ""
	}
	clause = "contract"
	if len(last.Clauses) > 0 {
		clause = last.Clauses[0]
	}
	if strings.HasPrefix(last.Yours[0].Value, panicValue) {
		return clause, harmPanic
	}
	if m.headline != nil {
		if h := m.headline(s, ops[:len(calls)], last, i); h != "" {
			clause = h
		}
	}
	return clause, m.harm(last, i)
}

// shrink makes a differing run as short and as plain as it can while it
// still does the same harm: it drops one call at a time, then makes each
// call simpler, until neither helps. Deterministic: the same run shrinks
// to the same run. The clause is read off the run it ends with: the
// shortest run says most plainly which promise the code breaks.
func (m *machine) shrink(s *harness.Students, ops []op, calls []Call) (*CallRun, error) {
	_, harm := m.broken(s, ops, calls)
	same := func(try []op) ([]op, []Call, bool, error) {
		got, err := m.replay(s, try)
		if err != nil {
			// A simpler run that makes the student's code panic or return
			// its own error is another story: not this one, smaller.
			return nil, nil, false, nil
		}
		if _, h := m.broken(s, try, got); h != harm {
			return nil, nil, false, nil
		}
		return try[:len(got)], got, true, nil
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(ops); i++ {
			try := append(append([]op{}, ops[:i]...), ops[i+1:]...)
			if len(try) == 0 {
				continue
			}
			if o, c, ok, err := same(try); err != nil {
				return nil, err
			} else if ok {
				ops, calls, changed = o, c, true
				i--
			}
		}
		for i := 0; i < len(ops); i++ { // a simpler call may end the run sooner
			for _, simpler := range m.simpler(ops[i]) {
				try := append([]op{}, ops...)
				try[i] = simpler
				if o, c, ok, err := same(try); err != nil {
					return nil, err
				} else if ok {
					ops, calls, changed = o, c, true
					break
				}
			}
		}
	}
	clause, _ := m.broken(s, ops, calls)
	return &CallRun{Exercise: m.exercise, Type: m.typ, Calls: calls, Clause: clause, Harm: harm,
		GoTest: gofmt(m.goTest(ops, calls)), ops: ops}, nil
}

// errValue is an error as an answer: nil, the first of the book's
// sentinels it wraps, or "an error of its own" (whose text differs from
// student to student, so it is never compared).
func errValue(err error, sentinels ...namedErr) string {
	if err == nil {
		return "nil"
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	return "error(" + fmt.Sprintf("%q", firstLine(err.Error())) + ")"
}

// ownErr says whether an answer is an error that wraps none of the book's
// sentinels.
func ownErr(value string) bool { return strings.Contains(value, "error(\"") }

// namedErr is one of the book's sentinel errors with its Go name.
type namedErr struct {
	name string
	err  error
}

// stub is the stub's error, which stops the check as "not started".
func stub(err error) error {
	if errors.Is(err, exercises.ErrNotImplemented) {
		return exercises.ErrNotImplemented
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// countHarm is the harm of a count that differs: above or below the
// book's.
func countHarm(book, yours string) string {
	var b, y int64
	if _, err := fmt.Sscan(book, &b); err != nil {
		return harmOther
	}
	if _, err := fmt.Sscan(yours, &y); err != nil {
		return harmOther
	}
	if y > b {
		return harmTooMany
	}
	return harmTooFew
}

// errHarm is the harm of an error answer that differs.
func errHarm(book, yours string) string {
	bookOK, yoursOK := strings.HasSuffix(book, "nil"), strings.HasSuffix(yours, "nil")
	switch {
	case bookOK && !yoursOK:
		return harmRefused
	case !bookOK && yoursOK:
		return harmAccepted
	case !bookOK && !yoursOK && ownErr(yours) && !ownErr(book):
		return harmUnwrapped
	case !bookOK && !yoursOK:
		return harmWrongErr
	}
	return harmOther
}
