package check

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"archlab/internal/inbox"
	"archlab/internal/ordering"
)

// A result file comes from a student's machine, so a class (ui/class)
// takes none of its counterexample's code or counts on trust: it hands
// the calls the result lists to RebuildRun, which reads each call as one
// of the model's, replays them on the book's code and writes the Go test
// again itself (issue 43: a forged list of one call made a student's own
// test, whose init ran on the teacher's machine, the class's shortest run).

// ErrNotARun is a list of calls the exercise's model does not make, or
// whose book answers are not the book's, or where the student's answers
// never part from them.
var ErrNotARun = errors.New("not a run of the exercise's model")

// ResultCall is one call as a result file gives it: its text, and the
// student's answers (the call's, then the reads after it).
type ResultCall struct {
	Text  string
	Book  []Answer
	Yours []Answer
}

// RebuildRun checks calls against exercise's model and returns the Go
// test archlab writes for them, and how many calls it makes. Each call's
// text must be one the model makes (read back, it prints the same), the
// book's answers the result gives must be the ones the book's code gives,
// and only the last call may part from them.
func RebuildRun(exercise string, calls []ResultCall) (string, int, error) {
	ex, err := Lookup(exercise)
	if err != nil || ex.model == nil || len(calls) == 0 || len(calls) > modelLength {
		return "", 0, ErrNotARun
	}
	m := ex.model
	parse := opParsers[m.exercise]
	ops := make([]op, len(calls))
	for i, c := range calls {
		o, ok := parse(c.Text)
		if !ok || o.String() != c.Text {
			return "", 0, fmt.Errorf("%w: call %d", ErrNotARun, i+1)
		}
		ops[i] = o
	}
	book, err := m.replay(Book(), ops)
	if err != nil || len(book) != len(calls) {
		return "", 0, ErrNotARun
	}
	run := make([]Call, len(calls))
	for i, c := range calls {
		run[i] = Call{Text: c.Text, Clauses: book[i].Clauses, Book: book[i].Book, Yours: c.Yours}
		if !slices.Equal(c.Book, book[i].Book) {
			return "", 0, fmt.Errorf("%w: call %d, the book's answers", ErrNotARun, i+1)
		}
		if d := run[i].differs(); (d >= 0) != (i == len(calls)-1) {
			return "", 0, fmt.Errorf("%w: call %d, where the answers part", ErrNotARun, i+1)
		}
	}
	return gofmt(m.goTest(ops, run)), len(run), nil
}

// opParsers read a call's text back into the model's call, by exercise:
// the inverse of each op's String.
var opParsers = map[string]func(string) (op, bool){
	"ledger":     parseLedgerOp,
	"projection": parseProjectionOp,
	"runner":     parseRunnerOp,
}

var (
	pruneText    = regexp.MustCompile(`^Prune\((-?\d+)\)$`)
	applyText    = regexp.MustCompile(`^ApplyOnce\(([^: ]*):(\S*) Seq=(-?\d+) (\S*) \+(-?\d+)\)$`)
	eventText    = `(\S+)\((\S+) (\S+) v(-?\d+)\)`
	applyEvent   = regexp.MustCompile(`^Apply\(` + eventText + `\)$`)
	handleEvent  = regexp.MustCompile(`^Handle\(` + eventText + `, (-?\d+)\)$`)
	repairText   = regexp.MustCompile(`^Repair\(("(?:[^"\\]|\\.)*"), v(-?\d+)(?:/(\S+))?\)$`)
	consumerText = regexp.MustCompile(`^NewConsumer\(p, (-?\d+)\)$`)
	commitText   = regexp.MustCompile(`^Commit\(("shard-\d"), (\d+), (-?\d+)\)$`)
	runText      = regexp.MustCompile(`^Runner\{Epoch: (\d+), CommitEvery: (-?\d+)\}\.Run\(("shard-\d"), \[[^\]]*\], (-?\d+)\)$`)
)

func parseLedgerOp(s string) (op, bool) {
	if m := pruneText.FindStringSubmatch(s); m != nil {
		n, err := strconv.ParseInt(m[1], 10, 64)
		return ledgerOp{prune: true, max: n}, err == nil
	}
	m := applyText.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	seq, err1 := strconv.ParseInt(m[3], 10, 64)
	amount, err2 := strconv.ParseInt(m[5], 10, 64)
	msg := inbox.Message{Producer: m[1], ID: m[2], Seq: seq, OrderID: m[4], AmountCents: amount}
	return ledgerOp{m: msg}, err1 == nil && err2 == nil
}

func parseEvent(m []string) (ordering.Event, bool) {
	v, err := strconv.ParseInt(m[4], 10, 64)
	return ordering.Event{ID: m[1], OrderID: m[2], Type: m[3], Version: v}, err == nil
}

func parseProjectionOp(s string) (op, bool) {
	if m := applyEvent.FindStringSubmatch(s); m != nil {
		e, ok := parseEvent(m)
		return projectionOp{kind: "apply", e: e}, ok
	}
	if m := handleEvent.FindStringSubmatch(s); m != nil {
		e, ok := parseEvent(m)
		n, err := strconv.Atoi(m[5])
		return projectionOp{kind: "handle", e: e, attempt: n}, ok && err == nil
	}
	if m := repairText.FindStringSubmatch(s); m != nil {
		order, err1 := strconv.Unquote(m[1])
		v, err2 := strconv.ParseInt(m[2], 10, 64)
		row := ordering.OrderState{Version: v, Status: ordering.Status(m[3])}
		return projectionOp{kind: "repair", order: order, row: row}, err1 == nil && err2 == nil
	}
	if m := consumerText.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		return projectionOp{kind: "consumer", budget: n}, err == nil
	}
	return nil, false
}

func parseRunnerOp(s string) (op, bool) {
	shard := func(q string) (int, bool) {
		name, err := strconv.Unquote(q)
		i := slices.Index(runnerShards, name)
		return i, err == nil && i >= 0
	}
	if m := commitText.FindStringSubmatch(s); m != nil {
		sh, ok := shard(m[1])
		epoch, err1 := strconv.ParseUint(m[2], 10, 64)
		off, err2 := strconv.Atoi(m[3])
		return runnerOp{shard: sh, epoch: epoch, offset: off}, ok && err1 == nil && err2 == nil
	}
	if m := runText.FindStringSubmatch(s); m != nil {
		epoch, err1 := strconv.ParseUint(m[1], 10, 64)
		every, err2 := strconv.Atoi(m[2])
		sh, ok := shard(m[3])
		crash, err3 := strconv.Atoi(m[4])
		return runnerOp{run: true, shard: sh, epoch: epoch, every: every, crash: crash}, ok && err1 == nil && err2 == nil && err3 == nil
	}
	return nil, false
}
