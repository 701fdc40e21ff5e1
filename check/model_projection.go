package check

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"archlab/exercises"
	"archlab/harness"
	"archlab/internal/ordering"
)

// The projection exercise's model: the student's Projection and Consumer
// beside the book's ordering.Projection and ordering.Consumer. Each
// clause is a sentence of exercises/projection.go's doc comment.
var projectionClauses = []string{
	"poison-type",             // an event type the state machine does not know is ErrPoison
	"poison-version",          // a known type at another type's version is ErrPoison
	"advance",                 // the next version moves the row to the event's version and status: true
	"duplicate",               // the current version again is a duplicate: false, nil, nothing changes
	"older",                   // a version below the current one is a duplicate too: the row never moves back
	"gap",                     // a version past the next one is ErrConflict: an earlier event is missing
	"refused-changes-nothing", // poison and a conflict leave the rows and the count as they were
	"after-repair",            // after Repair, the gate counts from the repaired version
	"repair-not-counted",      // a repair is not an event: AppliedCount does not move
	"get-missing",             // Get of an order with no row: the zero row, false
	"default-budget",          // NewConsumer with n <= 0 keeps the book's default budget, 3
	"budget",                  // NewConsumer with n > 0 keeps n
	"handle-applied",          // Handle says applied when Apply moved the row
	"handle-duplicate",        // Handle says duplicate when Apply found the version reached
	"handle-retry",            // a conflict before the budget is spent: retry
	"handle-dead-budget",      // a conflict on the budget's last delivery: dead, into the DLQ
	"handle-dead-poison",      // poison is dead on its first delivery, whatever budget is left
	"dlq",                     // a dead letter keeps the event, the attempt and a reason
	"dlq-order",               // DLQ lists the dead letters oldest first
	"applied-count",           // AppliedCount counts the version advances, nothing else
}

// projectionOp is one call: Apply(e), Handle(e, attempt), Repair(order,
// row), or NewConsumer(p, n), which opens a new consumer over the same
// projection.
type projectionOp struct {
	kind    string // "apply", "handle", "repair", "consumer"
	e       ordering.Event
	attempt int
	order   string
	row     ordering.OrderState
	budget  int
}

func (o projectionOp) String() string {
	switch o.kind {
	case "apply":
		return fmt.Sprintf("Apply(%s)", o.e)
	case "handle":
		return fmt.Sprintf("Handle(%s, %d)", o.e, o.attempt)
	case "repair":
		return fmt.Sprintf("Repair(%q, %s)", o.order, o.row)
	}
	return fmt.Sprintf("NewConsumer(p, %d)", o.budget)
}

// The events the generator draws: two orders, the three types the state
// machine knows and one it does not ("refund").
var (
	projectionOrders = []string{"o-1", "o-2"}
	projectionTypes  = []struct {
		name    string
		version int64
		status  ordering.Status
	}{{"reserve", 1, ordering.StatusReserved}, {"pay", 2, ordering.StatusPaid}, {"fulfill", 3, ordering.StatusFulfilled}}
)

// drawProjection draws the next call. A sequence opens with NewConsumer
// (a budget from -1 to 4: default-budget and budget); then events, most
// at their type's version, some at another's (poison-version) or of a
// type the state machine does not know (poison-type); the same event
// again (duplicate, older); Apply alone or through Handle with an attempt
// up to one past the budget (the handle clauses); and now and then a
// repair.
func drawProjection(r *rand.Rand, before []op) op {
	var sent []ordering.Event
	budget := 0
	for _, o := range before {
		po := o.(projectionOp)
		switch po.kind {
		case "apply", "handle":
			sent = append(sent, po.e)
		case "consumer":
			budget = po.budget
		}
	}
	if len(before) == 0 || r.IntN(30) == 0 {
		return projectionOp{kind: "consumer", budget: r.IntN(6) - 1}
	}
	if budget <= 0 {
		budget = 3
	}
	var e ordering.Event
	order := projectionOrders[r.IntN(len(projectionOrders))]
	switch k := r.IntN(100); {
	case k < 6:
		t := projectionTypes[r.IntN(len(projectionTypes))]
		return projectionOp{kind: "repair", order: order, row: ordering.OrderState{Version: t.version, Status: t.status}}
	case k < 30 && len(sent) > 0:
		e = sent[r.IntN(len(sent))]
	default:
		t := projectionTypes[r.IntN(len(projectionTypes))]
		e = ordering.Event{ID: fmt.Sprintf("e%d", len(sent)+1), OrderID: order, Version: t.version, Type: t.name}
		switch r.IntN(12) {
		case 0:
			e.Type = "refund"
		case 1:
			e.Version = projectionTypes[r.IntN(len(projectionTypes))].version + int64(r.IntN(2))
		}
	}
	if r.IntN(3) == 0 {
		return projectionOp{kind: "apply", e: e}
	}
	return projectionOp{kind: "handle", e: e, attempt: 1 + r.IntN(budget+1)}
}

// simplerProjection: an earlier attempt, the first order.
func simplerProjection(o op) []op {
	po := o.(projectionOp)
	var out []op
	if po.kind == "handle" && po.attempt > 1 {
		s := po
		s.attempt--
		out = append(out, s)
	}
	if po.kind == "handle" {
		s := po
		s.kind = "apply"
		out = append(out, s)
	}
	return out
}

// projectionSides is the book's projection and consumer beside the
// student's, and what the book's answers say: each order's row, and which
// orders were repaired since their last event.
type projectionSides struct {
	s            *harness.Students
	book, yours  harness.StudentProjection
	bookC, yourC harness.StudentConsumer
	repaired     map[string]bool
}

func openProjection(s *harness.Students) (sides, error) {
	p := s.Projection.NewProjection()
	if p == nil {
		return nil, errNilType("NewProjection")
	}
	return &projectionSides{s: s, book: bookProjection.NewProjection(), yours: p, repaired: map[string]bool{}}, nil
}

var projectionErrs = []namedErr{{"ErrPoison", ordering.ErrPoison}, {"ErrConflict", ordering.ErrConflict}}

func (p *projectionSides) step(o op) (clauses []string, book, yours []Answer, err error) {
	po := o.(projectionOp)
	clauses = p.clauses(po)
	call := o.String()
	switch po.kind {
	case "consumer":
		p.bookC = bookProjection.NewConsumer(p.book, po.budget)
		p.yourC = p.s.Projection.NewConsumer(p.yours, po.budget)
		if p.yourC == nil {
			return nil, nil, nil, errNilType("NewConsumer")
		}
		book = []Answer{{"MaxAttempts", fmt.Sprint(p.bookC.Budget())}}
		yours = []Answer{{"MaxAttempts", fmt.Sprint(p.yourC.Budget())}}
	case "apply":
		ok, err := p.book.Apply(po.e)
		book = []Answer{{call, fmt.Sprintf("%t, %s", ok, errValue(err, projectionErrs...))}}
		ok, err = p.yours.Apply(po.e)
		if stub(err) != nil {
			return nil, nil, nil, stub(err)
		}
		yours = []Answer{{call, fmt.Sprintf("%t, %s", ok, errValue(err, projectionErrs...))}}
		delete(p.repaired, po.e.OrderID)
	case "handle":
		book = []Answer{{call, string(p.bookC.Handle(po.e, po.attempt))}}
		out := p.yourC.Handle(po.e, po.attempt)
		if out == "" {
			return nil, nil, nil, errStubOutcome
		}
		yours = []Answer{{call, string(out)}}
		delete(p.repaired, po.e.OrderID)
	case "repair":
		p.book.Repair(po.order, po.row)
		p.yours.Repair(po.order, po.row)
		book, yours = []Answer{{call, "done"}}, []Answer{{call, "done"}}
		p.repaired[po.order] = true
	}
	for _, side := range []struct {
		p   harness.StudentProjection
		c   harness.StudentConsumer
		out *[]Answer
	}{{p.book, p.bookC, &book}, {p.yours, p.yourC, &yours}} {
		for _, order := range projectionOrders {
			st, ok := side.p.Get(order)
			*side.out = append(*side.out, Answer{fmt.Sprintf("Get(%q)", order), fmt.Sprintf("%s, %t", st, ok)})
		}
		*side.out = append(*side.out, Answer{"AppliedCount()", fmt.Sprint(side.p.AppliedCount())})
		if side.c != nil {
			*side.out = append(*side.out, Answer{"DLQ()", dlqText(side.c.DLQ())})
		}
	}
	for _, order := range projectionOrders {
		if _, ok := p.book.Get(order); !ok {
			clauses = append(clauses, "get-missing")
			break
		}
	}
	if p.bookC != nil && len(p.bookC.DLQ()) > 1 {
		clauses = append(clauses, "dlq-order")
	}
	return append(clauses, "applied-count"), book, yours, nil
}

// errStubOutcome is the stub's Handle, which returns no outcome.
var errStubOutcome = exercises.ErrNotImplemented

// dlqText is the dead letters as an answer: each event with its attempt,
// and whether a reason was given (its words are the student's own).
func dlqText(dlq []ordering.DLQEntry) string {
	var parts []string
	for _, d := range dlq {
		reason := "a reason"
		if d.Reason == "" {
			reason = "no reason"
		}
		parts = append(parts, fmt.Sprintf("%s at attempt %d, %s", d.Event, d.Attempts, reason))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// clauses are what a call exercises in the book's rows as they stand.
func (p *projectionSides) clauses(po projectionOp) []string {
	switch po.kind {
	case "consumer":
		if po.budget <= 0 {
			return []string{"default-budget"}
		}
		return []string{"budget"}
	case "repair":
		return []string{"repair-not-counted"}
	}
	var gate []string
	cur, _ := p.book.Get(po.e.OrderID)
	t := -1
	for i, pt := range projectionTypes {
		if pt.name == po.e.Type {
			t = i
		}
	}
	switch {
	case t < 0:
		gate = []string{"poison-type", "refused-changes-nothing"}
	case projectionTypes[t].version != po.e.Version:
		gate = []string{"poison-version", "refused-changes-nothing"}
	case po.e.Version == cur.Version:
		gate = []string{"duplicate"}
	case po.e.Version < cur.Version:
		gate = []string{"older"}
	case po.e.Version > cur.Version+1:
		gate = []string{"gap", "refused-changes-nothing"}
	default:
		gate = []string{"advance"}
	}
	if p.repaired[po.e.OrderID] {
		gate = append([]string{"after-repair"}, gate...)
	}
	if po.kind == "apply" {
		return gate
	}
	var handle []string
	switch gate[len(gate)-1] {
	case "advance":
		handle = []string{"handle-applied"}
	case "duplicate", "older":
		handle = []string{"handle-duplicate"}
	default:
		switch {
		case slices.Contains(gate, "poison-type") || slices.Contains(gate, "poison-version"):
			handle = []string{"handle-dead-poison", "dlq"}
		case po.attempt < p.bookC.Budget():
			handle = []string{"handle-retry"}
		default:
			handle = []string{"handle-dead-budget", "dlq"}
		}
	}
	return append(handle, gate...)
}

// projectionHarm reads a difference: Handle's outcome (the harm is what
// yours said instead), Apply's answer, a row, a count or the dead letters.
func projectionHarm(c *Call, i int) string {
	b, y := c.Book[i].Value, c.Yours[i].Value
	switch what := c.Book[i].What; {
	case strings.HasPrefix(what, "Handle"):
		return y
	case strings.HasPrefix(what, "Apply("):
		bOK, yOK := strings.HasPrefix(b, "true"), strings.HasPrefix(y, "true")
		switch {
		case !bOK && yOK && strings.HasSuffix(b, "nil"):
			return harmDouble
		case bOK && !yOK && strings.HasSuffix(y, "nil"):
			return harmLost
		}
		return errHarm(b, y)
	case strings.HasPrefix(what, "Get("):
		return harmOther
	case what == "AppliedCount()", what == "MaxAttempts":
		return countHarm(b, y)
	case what == "DLQ()":
		bn, yn := strings.Count(b, " at attempt "), strings.Count(y, " at attempt ")
		switch {
		case yn > bn:
			return harmTooMany
		case yn < bn:
			return harmTooFew
		}
	}
	return harmOther
}

// projectionGoTest writes a projection run as a Go test.
func projectionGoTest(ops []op, calls []Call) string {
	g := goTest{Type: "Projection", Imports: []string{"archlab/internal/ordering"}, Setup: "p := NewProjection()",
		Sentinels: []string{"ordering.ErrPoison", "ordering.ErrConflict"},
		Vars:      "var c *Consumer\n\tvar ok, err = false, error(nil)\n\t_, _, _ = c, ok, err"}
	var lines [][]goLine
	event := func(e ordering.Event) string {
		return fmt.Sprintf("ordering.Event{ID: %q, OrderID: %q, Version: %d, Type: %q}", e.ID, e.OrderID, e.Version, e.Type)
	}
	consumer := false
	for _, o := range ops {
		po := o.(projectionOp)
		var call goLine
		switch po.kind {
		case "consumer":
			call, consumer = goLine{fmt.Sprintf("c = NewConsumer(p, %d)", po.budget), "fmt.Sprint(c.MaxAttempts)"}, true
		case "apply":
			call = goLine{fmt.Sprintf("ok, err = p.Apply(%s)", event(po.e)), `fmt.Sprintf("%t, %s", ok, projectionErr(err))`}
		case "handle":
			call = goLine{"", fmt.Sprintf("string(c.Handle(%s, %d))", event(po.e), po.attempt)}
		case "repair":
			call = goLine{fmt.Sprintf("p.Repair(%q, ordering.OrderState{Version: %d, Status: ordering.Status(%q)})", po.order, po.row.Version, po.row.Status), `"done"`}
		}
		l := []goLine{call}
		for _, order := range projectionOrders {
			l = append(l, goLine{"", fmt.Sprintf("projectionRow(p.Get(%q))", order)})
		}
		l = append(l, goLine{"", "fmt.Sprint(p.AppliedCount())"})
		if consumer {
			l = append(l, goLine{"", "projectionDLQ(c.DLQ())"})
		}
		lines = append(lines, l)
	}
	return g.write(calls, lines) + projectionGoHelpers
}

// projectionGoHelpers print a row and the dead letters as the check does.
const projectionGoHelpers = `
// projectionRow prints a row as the check does.
func projectionRow(st ordering.OrderState, ok bool) string { return fmt.Sprintf("%s, %t", st, ok) }

// projectionDLQ prints the dead letters as the check does: each event
// with its attempt, and whether a reason was given.
func projectionDLQ(dlq []ordering.DLQEntry) string {
	s := "["
	for i, d := range dlq {
		if i > 0 {
			s += "; "
		}
		reason := "a reason"
		if d.Reason == "" {
			reason = "no reason"
		}
		s += fmt.Sprintf("%s at attempt %d, %s", d.Event, d.Attempts, reason)
	}
	return s + "]"
}
`

// projectionHeadline: a count that differs breaks applied-count (or,
// after poison or a conflict, refused-changes-nothing); a row read as
// there that is not, get-missing; the dead letters, dlq or dlq-order; a
// Handle that differs where either side applied or found a duplicate is
// the gate's doing, not the policy's, so its clause is the gate's.
func projectionHeadline(_ *harness.Students, _ []op, c *Call, i int) string {
	b, y, what := c.Book[i].Value, c.Yours[i].Value, c.Book[i].What
	switch {
	case what == "AppliedCount()" && slices.Contains(c.Clauses, "refused-changes-nothing"):
		return "refused-changes-nothing"
	case what == "AppliedCount()" && slices.Contains(c.Clauses, "repair-not-counted"):
		return "repair-not-counted"
	case what == "AppliedCount()":
		return "applied-count"
	case strings.HasPrefix(what, "Get(") && strings.HasSuffix(b, "false") && strings.HasSuffix(y, "true"):
		return "get-missing"
	case what == "DLQ()" && strings.Count(b, " at attempt ") == strings.Count(y, " at attempt ") && strings.Count(b, "; ") > 0 && sameParts(b, y):
		return "dlq-order"
	case what == "DLQ()":
		return "dlq"
	case !strings.HasPrefix(what, "Handle"):
		return ""
	}
	gateOutcome := func(v string) bool {
		return v == string(ordering.OutcomeApplied) || v == string(ordering.OutcomeDuplicate)
	}
	if !gateOutcome(b) && !gateOutcome(y) {
		return ""
	}
	for _, name := range c.Clauses {
		if slices.Contains(gateClauses, name) {
			return name
		}
	}
	return ""
}

// sameParts says whether two dead-letter lists hold the same letters, in
// any order.
func sameParts(a, b string) bool {
	pa, pb := strings.Split(strings.Trim(a, "[]"), "; "), strings.Split(strings.Trim(b, "[]"), "; ")
	slices.Sort(pa)
	slices.Sort(pb)
	return slices.Equal(pa, pb)
}

// gateClauses are the version gate's clauses (Apply's), as opposed to the
// consumer's policy.
var gateClauses = []string{"after-repair", "poison-type", "poison-version", "advance", "duplicate", "older", "gap"}

var projectionMachine = &machine{
	exercise: "projection",
	typ:      "Projection",
	clauses:  projectionClauses,
	open:     openProjection,
	draw:     drawProjection,
	simpler:  simplerProjection,
	harm:     projectionHarm,
	headline: projectionHeadline,
	goTest:   projectionGoTest,
	solo:     soloProjection,
	races:    projectionRaces,
	reads:    projectionReads,
	mistakes: projectionModelMistakes,
}

// soloProjection makes calls on one projection of s's and one consumer
// over it (the book's default budget).
func soloProjection(s *harness.Students) (func(o op) (string, error), error) {
	p := s.Projection.NewProjection()
	if p == nil {
		return nil, errNilType("NewProjection")
	}
	c := s.Projection.NewConsumer(p, 0)
	if c == nil {
		return nil, errNilType("NewConsumer")
	}
	return func(o op) (string, error) {
		switch o := o.(type) {
		case projectionOp:
			switch o.kind {
			case "apply":
				ok, err := p.Apply(o.e)
				return fmt.Sprintf("%t, %s", ok, errValue(err, projectionErrs...)), stub(err)
			case "handle":
				out := c.Handle(o.e, o.attempt)
				if out == "" {
					return "", errStubOutcome
				}
				return string(out), nil
			}
		case readOp:
			switch o.What {
			case "Get":
				st, ok := p.Get(o.Arg)
				return fmt.Sprintf("%s, %t", st, ok), nil
			case "AppliedCount":
				return fmt.Sprint(p.AppliedCount()), nil
			case "DLQ":
				// With an order, its dead letters only: a long race's
				// read of its own key.
				dlq := c.DLQ()
				if o.Arg != "" {
					dlq = slices.DeleteFunc(dlq, func(d ordering.DLQEntry) bool { return d.Event.OrderID != o.Arg })
				}
				return dlqText(dlq), nil
			}
		}
		return "", fmt.Errorf("not a projection call: %s", o)
	}, nil
}

// The projection's races: one event delivered twice at once, two events
// of one order at once, and two dead letters at once.
var (
	raceReserve = ordering.Event{ID: "e1", OrderID: "o-1", Version: 1, Type: "reserve"}
	racePay     = ordering.Event{ID: "e2", OrderID: "o-1", Version: 2, Type: "pay"}
	racePoison  = ordering.Event{ID: "e3", OrderID: "o-2", Version: 1, Type: "refund"}
	raceGap     = ordering.Event{ID: "e4", OrderID: "o-2", Version: 3, Type: "fulfill"}

	projectionRaces = []race{
		// Many orders, each one's first event applied on both goroutines.
		{threads: [][]op{raceReserves(longKeys), raceReserves(longKeys)}, rounds: longRounds, overlaps: longOverlaps, inFlight: true,
			key: func(o op) string { return o.(projectionOp).e.OrderID }},
		{threads: [][]op{{projectionOp{kind: "handle", e: raceReserve, attempt: 1}, readOp{"Get", "o-1"}}, {projectionOp{kind: "handle", e: racePay, attempt: 1}, readOp{"AppliedCount", ""}}}, rounds: shortRounds, overlaps: shortOverlaps},
		{threads: [][]op{{projectionOp{kind: "handle", e: racePoison, attempt: 1}, readOp{"DLQ", ""}}, {projectionOp{kind: "handle", e: raceGap, attempt: 3}, readOp{"DLQ", ""}}}, rounds: shortRounds, overlaps: shortOverlaps},
		// Many orders, each one's two dead letters at once, then each
		// goroutine reads the order's dead letters: an append to the
		// queue outside the lock loses one now and then, and one race
		// this long loses one on every run.
		{threads: [][]op{raceDeadLetters(deadKeys, "refund", 1), raceDeadLetters(deadKeys, "fulfill", 3)}, rounds: deadRounds, overlaps: deadOverlaps, inFlight: true,
			key: func(o op) string {
				if r, ok := o.(readOp); ok {
					return r.Arg
				}
				return o.(projectionOp).e.OrderID
			}},
	}
	projectionReads = []op{readOp{"Get", "o-1"}, readOp{"Get", "o-2"}, readOp{"AppliedCount", ""}, readOp{"DLQ", ""}}
)

// The dead-letter race's size: each read copies the queue, so fewer
// orders than the other long races, and more dead letters met in full
// flight (overlapping): an append outside the lock loses one in a few
// hundred of them.
const deadKeys, deadRounds, deadOverlaps = 200, 5, 1000

// raceDeadLetters is, for each of n orders, an event the consumer dead-
// letters at attempt (a type it does not know, at attempt 1; a version
// past a gap, at the budget's last attempt), then a read of the order's
// dead letters.
func raceDeadLetters(n int, typ string, attempt int) []op {
	var handles, reads []op
	for i := range n {
		o := fmt.Sprintf("o-%d", i+1)
		e := ordering.Event{ID: fmt.Sprintf("%s-%d", typ, i+1), OrderID: o, Version: 3, Type: typ}
		handles = append(handles, projectionOp{kind: "handle", e: e, attempt: attempt})
		reads = append(reads, readOp{"DLQ", o})
	}
	return append(handles, reads...)
}

// raceReserves is the first event of n orders.
func raceReserves(n int) []op {
	var out []op
	for i := range n {
		out = append(out, projectionOp{kind: "apply", e: ordering.Event{ID: fmt.Sprintf("e%d", i+1), OrderID: fmt.Sprintf("o-%d", i+1), Version: 1, Type: "reserve"}})
	}
	return out
}
