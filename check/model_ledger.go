package check

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"archlab/harness"
	"archlab/internal/inbox"
)

// The ledger exercise's model: the student's Ledger beside the book's
// inbox.Ledger. Each clause below is a sentence of exercises/ledger.go's
// doc comment; ledgerClauses names them in its order.
var ledgerClauses = []string{
	"new-key",              // a new key returns true, nil, and its effect lands
	"duplicate",            // a key already there returns false, nil and changes nothing
	"key-producer",         // the key is producer:ID: another producer's event with the same ID is another key
	"key-separator",        // producers and IDs whose plain concatenations collide are still two keys
	"prune-at-max",         // Prune forgets a key whose Seq is maxSeq itself (<=, not <)
	"prune-keeps-newer",    // Prune keeps every key above maxSeq: its redelivery is still a duplicate
	"prune-out-of-order",   // Seqs that arrived out of order are forgotten by Seq, not by arrival
	"prune-shared-seq",     // several keys at one Seq go together
	"prune-count",          // Prune reports how many keys it forgot
	"pruned-applies-again", // a key Prune forgot is new again: its replay applies
	"below-window",         // a key that arrives with a Seq already pruned is new, and kept until a later Prune
	"prune-keeps-effects",  // Prune changes no balance and no count of applies
	"balance",              // Balance is the cents applied to each order
	"applies",              // Applies counts the effects applied, duplicates excluded
	"any-message",          // a message is applied as it comes: an amount of 0 or below (a refund), an empty ID
}

// ledgerOp is one call on a ledger: ApplyOnce(m), or Prune(maxSeq) when
// prune is set.
type ledgerOp struct {
	prune bool
	m     inbox.Message
	max   int64
}

func (o ledgerOp) String() string {
	if o.prune {
		return fmt.Sprintf("Prune(%d)", o.max)
	}
	return fmt.Sprintf("ApplyOnce(%s)", msgText(o.m))
}

// msgText is a message as the report shows it: the book's key form
// (producer:ID, the quotes kept when a part is empty), its Seq, order and
// amount.
func msgText(m inbox.Message) string {
	return fmt.Sprintf("%s Seq=%d %s +%d", inbox.DedupKey(m), m.Seq, m.OrderID, m.AmountCents)
}

// The values the generator draws from: two orders, amounts that tell
// effects apart, and producers and IDs chosen so that the same ID comes
// from two producers and plain concatenations collide ("pay"+"1" is
// "pa"+"y1").
var (
	ledgerOrders    = []string{"o-1", "o-2"}
	ledgerAmounts   = []int64{100, 250, 1000}
	ledgerProducers = []string{"pay", "refund"}
	ledgerIDs       = []string{"1", "2", "3", "4", "5", "6"}
)

// drawLedger draws the next call, each kind aimed at clauses: a new
// message (new-key, and Seqs out of order and shared, since they are drawn
// at random), a message again (duplicate, prune-keeps-newer,
// pruned-applies-again), a message whose key differs from an earlier one
// only in where the producer ends (key-producer, key-separator), and a
// Prune at a Seq already seen, give or take one (the prune clauses).
func drawLedger(r *rand.Rand, before []op) op {
	var sent []inbox.Message
	var seqs []int64
	for _, o := range before {
		if lo := o.(ledgerOp); !lo.prune {
			sent = append(sent, lo.m)
			seqs = append(seqs, lo.m.Seq)
		}
	}
	switch k := r.IntN(100); {
	case k < 20 && len(seqs) > 0:
		return ledgerOp{prune: true, max: seqs[r.IntN(len(seqs))] + int64(r.IntN(3)) - 1}
	case k < 45 && len(sent) > 0:
		return ledgerOp{m: sent[r.IntN(len(sent))]}
	case k < 58 && len(sent) > 0:
		m := sent[r.IntN(len(sent))]
		m.AmountCents = ledgerAmounts[r.IntN(len(ledgerAmounts))]
		if r.IntN(2) == 0 {
			m.Producer, m.ID = collide(m.Producer, m.ID)
		} else {
			m.Producer = ledgerProducers[(slices.Index(ledgerProducers, m.Producer)+1)%len(ledgerProducers)]
		}
		return ledgerOp{m: m}
	}
	return ledgerOp{m: inbox.Message{
		Producer:    ledgerProducers[r.IntN(len(ledgerProducers))],
		ID:          ledgerIDs[r.IntN(len(ledgerIDs))],
		Seq:         int64(1 + r.IntN(6)),
		OrderID:     ledgerOrders[r.IntN(len(ledgerOrders))],
		AmountCents: ledgerAmounts[r.IntN(len(ledgerAmounts))],
	}}
}

// collide moves the last letter of the producer to the front of the ID:
// the same plain concatenation, another key.
func collide(producer, id string) (string, string) {
	if len(producer) < 2 {
		return producer + id[:1], id[1:]
	}
	return producer[:len(producer)-1], producer[len(producer)-1:] + id
}

// simplerLedger: a Prune at a smaller Seq, a message with a smaller Seq,
// the first order, the smallest amount.
func simplerLedger(o op) []op {
	lo := o.(ledgerOp)
	var out []op
	if lo.prune {
		if lo.max > 0 {
			out = append(out, ledgerOp{prune: true, max: lo.max - 1})
		}
		return out
	}
	if lo.m.Seq > 1 {
		m := lo.m
		m.Seq--
		out = append(out, ledgerOp{m: m})
	}
	if lo.m.OrderID != ledgerOrders[0] {
		m := lo.m
		m.OrderID = ledgerOrders[0]
		out = append(out, ledgerOp{m: m})
	}
	return out
}

// ledgerSides is the book's inbox.Ledger and the student's, with what the
// book's answers say of its table: which keys it holds (with their Seqs,
// in the order they arrived), which a Prune forgot, and the highest maxSeq
// pruned. The clauses a call exercises are read off it.
type ledgerSides struct {
	book, yours harness.Ledger
	live        []liveKey
	forgotten   map[string]bool
	gone        []inbox.Message // the messages whose keys a Prune forgot (and no delivery brought back)
	prunedTo    int64           // the highest maxSeq pruned, 0 for none
	prunes      int             // Prunes that forgot something
}

type liveKey struct {
	key, producer, id string
	seq               int64
	prunesBefore      int // prunes that forgot something before the key arrived
	m                 inbox.Message
}

func openLedger(s *harness.Students) (sides, error) {
	yours := s.Ledger()
	if yours == nil {
		return nil, errNilType("NewLedger")
	}
	return &ledgerSides{book: inbox.NewLedger(), yours: yours, forgotten: map[string]bool{}}, nil
}

func (l *ledgerSides) step(o op) (clauses []string, book, yours []Answer, err error) {
	lo := o.(ledgerOp)
	if lo.prune {
		clauses = l.pruneClauses(lo.max)
		book = []Answer{{o.String(), fmt.Sprint(l.book.Prune(lo.max))}}
		yours = []Answer{{o.String(), fmt.Sprint(l.yours.Prune(lo.max))}}
		l.pruned(lo.max)
	} else {
		clauses = l.applyClauses(lo.m)
		ok, err := l.book.ApplyOnce(lo.m)
		book = []Answer{{o.String(), fmt.Sprintf("%t, %s", ok, errValue(err))}}
		if ok {
			l.arrived(lo.m)
		}
		ok, err = l.yours.ApplyOnce(lo.m)
		if stub(err) != nil {
			return nil, nil, nil, stub(err)
		}
		yours = []Answer{{o.String(), fmt.Sprintf("%t, %s", ok, errValue(err))}}
	}
	for _, side := range []struct {
		l   harness.Ledger
		out *[]Answer
	}{{l.book, &book}, {l.yours, &yours}} {
		for _, order := range ledgerOrders {
			*side.out = append(*side.out, Answer{fmt.Sprintf("Balance(%q)", order), fmt.Sprint(side.l.Balance(order))})
		}
		*side.out = append(*side.out, Answer{"Applies()", fmt.Sprint(side.l.Applies())})
	}
	return append(clauses, "balance", "applies"), book, yours, nil
}

// applyClauses are what ApplyOnce(m) exercises in the book's table as it
// stands, the most telling first.
func (l *ledgerSides) applyClauses(m inbox.Message) []string {
	key := inbox.DedupKey(m)
	if i := slices.IndexFunc(l.live, func(k liveKey) bool { return k.key == key }); i >= 0 {
		if l.prunes > l.live[i].prunesBefore {
			return []string{"prune-keeps-newer", "duplicate"}
		}
		return []string{"duplicate"}
	}
	var out []string
	switch {
	case l.forgotten[key]:
		out = append(out, "pruned-applies-again")
	case l.prunedTo > 0 && m.Seq <= l.prunedTo:
		out = append(out, "below-window")
	}
	for _, k := range l.live {
		if k.id == m.ID && k.producer != m.Producer {
			out = append(out, "key-producer")
			break
		}
	}
	for _, k := range l.live {
		if k.producer+k.id == m.Producer+m.ID {
			out = append(out, "key-separator")
			break
		}
	}
	if m.AmountCents <= 0 || m.ID == "" {
		out = append(out, "any-message")
	}
	return append(out, "new-key")
}

// ledgerEdges are sequences the random ones never draw, run after them:
// the values at the edge of what a message may carry, each applied, then
// again (a duplicate), which the book's Ledger takes as they come.
var ledgerEdges = [][]op{
	{ledgerOp{m: inbox.Message{Producer: "refund", ID: "9", Seq: 1, OrderID: "o-1", AmountCents: -250}},
		ledgerOp{m: inbox.Message{Producer: "pay", ID: "1", Seq: 2, OrderID: "o-1", AmountCents: 0}},
		ledgerOp{m: inbox.Message{Producer: "pay", ID: "1", Seq: 2, OrderID: "o-1", AmountCents: 0}}},
	{ledgerOp{m: inbox.Message{Producer: "pay", ID: "", Seq: 1, OrderID: "o-2", AmountCents: 100}},
		ledgerOp{m: inbox.Message{Producer: "pay", ID: "", Seq: 1, OrderID: "o-2", AmountCents: 100}}},
}

// pruneClauses are what Prune(max) exercises.
func (l *ledgerSides) pruneClauses(edge int64) []string {
	var out []string
	forgot, atMax := 0, false
	seqs := map[int64]int{}
	keptBefore := false // a key kept arrived before one forgotten
	sawKept := false
	for _, k := range l.live {
		if k.seq > edge {
			sawKept = true
			continue
		}
		forgot++
		seqs[k.seq]++
		atMax = atMax || k.seq == edge
		keptBefore = keptBefore || sawKept
	}
	if keptBefore {
		out = append(out, "prune-out-of-order")
	}
	for _, n := range seqs {
		if n > 1 {
			out = append(out, "prune-shared-seq")
			break
		}
	}
	if atMax {
		out = append(out, "prune-at-max")
	}
	if forgot < len(l.live) {
		out = append(out, "prune-keeps-newer")
	}
	out = append(out, "prune-count")
	if forgot > 0 {
		out = append(out, "prune-keeps-effects")
	}
	return out
}

func (l *ledgerSides) arrived(m inbox.Message) {
	key := inbox.DedupKey(m)
	l.live = append(l.live, liveKey{key: key, producer: m.Producer, id: m.ID, seq: m.Seq, prunesBefore: l.prunes, m: m})
	delete(l.forgotten, key)
	l.gone = slices.DeleteFunc(l.gone, func(g inbox.Message) bool { return inbox.DedupKey(g) == key })
}

func (l *ledgerSides) pruned(edge int64) {
	n := len(l.live)
	l.live = slices.DeleteFunc(l.live, func(k liveKey) bool {
		if k.seq <= edge {
			l.forgotten[k.key] = true
			l.gone = append(l.gone, k.m)
			return true
		}
		return false
	})
	if len(l.live) < n {
		l.prunes++
	}
	l.prunedTo = max(l.prunedTo, edge)
}

// ledgerHarm reads a difference: ApplyOnce's boolean (lost, or applied
// twice), Prune's count, a balance (above the book's: applied twice), or
// Applies.
func ledgerHarm(c *Call, i int) string {
	b, y := c.Book[i].Value, c.Yours[i].Value
	switch what := c.Book[i].What; {
	case strings.HasPrefix(what, "ApplyOnce"):
		switch {
		case ownErr(y) || !strings.HasSuffix(y, ", nil"):
			return harmRefused
		case strings.HasPrefix(b, "true") && strings.HasPrefix(y, "false"):
			return harmLost
		case strings.HasPrefix(b, "false") && strings.HasPrefix(y, "true"):
			return harmDouble
		}
	case strings.HasPrefix(what, "Prune"), what == "Applies()":
		return countHarm(b, y)
	case strings.HasPrefix(what, "Balance"):
		if countHarm(b, y) == harmTooMany {
			return harmDouble
		}
		return harmLost
	}
	return harmOther
}

// ledgerHeadline: where Prune's count differs, the count alone cannot
// say whether the ledger forgot the wrong keys or counted the right ones
// wrongly, so it asks: the same calls again on a fresh ledger of the
// student's, the Prune, then each key the book's table held, delivered
// again (true: it was forgotten). The keys forgotten tell the clause.
func ledgerHeadline(s *harness.Students, ops []op, c *Call, i int) string {
	last, ok := ops[len(ops)-1].(ledgerOp)
	if !ok || !last.prune {
		return ""
	}
	if i > 0 {
		return "prune-keeps-effects" // a balance or Applies moved by a Prune
	}
	shadow := &ledgerSides{book: inbox.NewLedger(), yours: inbox.NewLedger(), forgotten: map[string]bool{}}
	yours := s.Ledger()
	for _, o := range ops[:len(ops)-1] {
		if _, _, _, err := shadow.step(o); err != nil {
			return ""
		}
		lo := o.(ledgerOp)
		if lo.prune {
			yours.Prune(lo.max)
		} else if _, err := yours.ApplyOnce(lo.m); err != nil {
			return ""
		}
	}
	// A key an earlier Prune forgot must be new again: if the student's
	// ledger still holds it, that Prune forgot it only in its count.
	for _, m := range shadow.gone {
		if again, err := yours.ApplyOnce(m); err != nil || !again {
			return "pruned-applies-again"
		}
	}
	yours = s.Ledger()
	for _, o := range ops[:len(ops)-1] {
		if lo := o.(ledgerOp); lo.prune {
			yours.Prune(lo.max)
		} else {
			yours.ApplyOnce(lo.m)
		}
	}
	yours.Prune(last.max)
	var keptLow, keptAtMax, forgotHigh, blocked, sawHigh bool
	for _, k := range shadow.live { // in the order they arrived
		forgot, err := yours.ApplyOnce(k.m)
		if err != nil {
			return ""
		}
		switch {
		case forgot && k.seq > last.max:
			forgotHigh = true
		case !forgot && k.seq <= last.max && sawHigh:
			blocked = true // kept behind a newer key that arrived before it
		case !forgot && k.seq == last.max:
			keptAtMax = true
		case !forgot && k.seq < last.max:
			keptLow = true
		}
		sawHigh = sawHigh || k.seq > last.max
	}
	clauses := c.Clauses
	switch {
	case forgotHigh:
		return "prune-keeps-newer"
	case blocked:
		return "prune-out-of-order"
	case (keptLow || keptAtMax) && slices.Contains(clauses, "prune-shared-seq"):
		return "prune-shared-seq"
	case keptAtMax:
		return "prune-at-max"
	case !keptLow && !blocked:
		return "prune-count" // the right keys, counted wrongly
	}
	return ""
}

var ledgerMachine = &machine{
	exercise: "ledger",
	typ:      "Ledger",
	clauses:  ledgerClauses,
	edges:    ledgerEdges,
	open:     openLedger,
	draw:     drawLedger,
	simpler:  simplerLedger,
	harm:     ledgerHarm,
	headline: ledgerHeadline,
	goTest:   ledgerGoTest,
	solo:     soloLedger,
	races:    ledgerRaces,
	reads:    ledgerReads,
	mistakes: ledgerModelMistakes,
}

// errNilType is a constructor of the student's that returned nil.
type errNilType string

func (e errNilType) Error() string { return "the student's " + string(e) + " returned nil" }

// ledgerGoTest writes a ledger run as a Go test.
func ledgerGoTest(ops []op, calls []Call) string {
	g := goTest{Type: "Ledger", Imports: []string{"archlab/internal/inbox"}, Setup: "l := NewLedger()",
		Vars: "var ok, err, n = false, error(nil), 0\n\t_, _, _ = ok, err, n"}
	var lines [][]goLine
	for _, o := range ops {
		lo := o.(ledgerOp)
		var call goLine
		if lo.prune {
			call = goLine{fmt.Sprintf("n = l.Prune(%d)", lo.max), "fmt.Sprint(n)"}
		} else {
			m := lo.m
			call = goLine{fmt.Sprintf("ok, err = l.ApplyOnce(inbox.Message{Producer: %q, ID: %q, Seq: %d, OrderID: %q, AmountCents: %d})",
				m.Producer, m.ID, m.Seq, m.OrderID, m.AmountCents), `fmt.Sprintf("%t, %s", ok, ledgerErr(err))`}
		}
		l := []goLine{call}
		for _, order := range ledgerOrders {
			l = append(l, goLine{"", fmt.Sprintf("fmt.Sprint(l.Balance(%q))", order)})
		}
		lines = append(lines, append(l, goLine{"", "fmt.Sprint(l.Applies())"}))
	}
	return g.write(calls, lines)
}

// soloLedger makes calls on one ledger of s's.
func soloLedger(s *harness.Students) (func(o op) (string, error), error) {
	l := s.Ledger()
	if l == nil {
		return nil, errNilType("NewLedger")
	}
	return func(o op) (string, error) {
		switch o := o.(type) {
		case ledgerOp:
			if o.prune {
				return fmt.Sprint(l.Prune(o.max)), nil
			}
			ok, err := l.ApplyOnce(o.m)
			return fmt.Sprintf("%t, %s", ok, errValue(err)), stub(err)
		case readOp:
			if o.What == "Balance" {
				return fmt.Sprint(l.Balance(o.Arg)), nil
			}
			return fmt.Sprint(l.Applies()), nil
		}
		return "", fmt.Errorf("not a ledger call: %s", o)
	}, nil
}

// The ledger's races: one message delivered twice at once (a redelivery
// racing the first delivery, or two consumers after a rebalance), two
// messages to one order at once, and a delivery racing a Prune.
var (
	raceM1 = inbox.Message{Producer: "pay", ID: "1", Seq: 1, OrderID: "o-1", AmountCents: 100}
	raceM2 = inbox.Message{Producer: "pay", ID: "2", Seq: 2, OrderID: "o-1", AmountCents: 250}

	ledgerRaces = []race{
		// Many messages, each delivered on both goroutines: a check and a
		// write under two locks lets both find one key new.
		{threads: [][]op{raceMessages(longKeys), raceMessages(longKeys)}, rounds: longRounds, overlaps: longOverlaps, inFlight: true,
			key: func(o op) string { return inbox.DedupKey(o.(ledgerOp).m) }},
		{threads: [][]op{{ledgerOp{m: raceM1}, readOp{"Balance", "o-1"}}, {ledgerOp{m: raceM2}, readOp{"Balance", "o-1"}}}, rounds: shortRounds, overlaps: shortOverlaps},
		{threads: [][]op{{ledgerOp{m: raceM1}, ledgerOp{prune: true, max: 1}}, {ledgerOp{m: raceM2}, readOp{"Applies", ""}}}, rounds: shortRounds, overlaps: shortOverlaps},
	}
	ledgerReads = []op{readOp{"Balance", "o-1"}, readOp{"Balance", "o-2"}, readOp{"Applies", ""}}
)

// raceMessages is n deliveries of n messages, which two goroutines make
// at once: each message is a chance for both to find its key new.
func raceMessages(n int) []op {
	var out []op
	for i := range n {
		out = append(out, ledgerOp{m: inbox.Message{Producer: "pay", ID: fmt.Sprint(i + 1), Seq: int64(i + 1), OrderID: ledgerOrders[i%2], AmountCents: 100}})
	}
	return out
}
