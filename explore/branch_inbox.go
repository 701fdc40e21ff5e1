package explore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"archlab/harness"
)

// §8.2 on a state page. The world is its messages, named m1, m2, … in the
// order they are declared, as the explorer's legend names them. A step
// delivers a message with one row of the fault table (deliver-m1,
// deliver-m1.ack-lost), or is the janitor's prune (prune-7). The steps
// possible from a state are the explorer's choices (inboxBounds.choices:
// for each message, the rows of its broker state, in the table's order)
// with no fault budget, then a prune through each message's seq.

var inboxModel = model{
	strategy: string(harness.EffectThenAck),
	open:     openInbox,
	reach:    reachInbox,
	decls:    []string{"message"},
}

// inboxDecls is the default scope's messages.
func inboxDecls() []harness.Call {
	var decls []harness.Call
	for _, m := range inboxMessages(DefaultInbox.Messages) {
		decls = append(decls, harness.Call{Verb: "message", Args: map[string]any{
			"msg": m.String(), "seq": int(m.Seq), "order": m.OrderID, "amount": int(m.AmountCents)}})
	}
	return decls
}

type inboxWalk struct {
	st       Start
	h        *harness.Inbox
	refs     []string // each message's producer:id, by index
	pruned   int64    // the highest seq the janitor pruned through, -1 for none
	anyPrune bool
}

func openInbox(st Start, rec *harness.Recorder) (walker, error) {
	var h *harness.Inbox
	var err error
	if st.Strategy == harness.Student {
		h, err = harness.NewStudentInbox(st.Students, harness.InboxEnv{}, rec)
	} else {
		h, err = harness.NewInbox(harness.Strategy(st.Strategy), harness.InboxEnv{}, rec)
	}
	if err != nil {
		return nil, err
	}
	w := &inboxWalk{st: st, h: h, pruned: -1}
	for _, c := range st.Decls {
		if c.Verb != "message" {
			return nil, cannot("state.err.decl", c.Verb, "message")
		}
		if _, err := h.Exec(c); err != nil {
			return nil, err
		}
	}
	for _, m := range h.Messages() {
		w.refs = append(w.refs, m.String())
	}
	if len(w.refs) == 0 {
		return nil, cannot("state.err.empty", "message")
	}
	return w, nil
}

func (w *inboxWalk) harness() harness.Harness { return w.h }

// bounds are the explorer's bounds with no fault budget: on a page, the
// reader decides how many faults strike.
func (w *inboxWalk) bounds() inboxBounds {
	return inboxBounds{n: len(w.refs), faults: math.MaxInt, extra: true} // a page may branch into any row
}

func (w *inboxWalk) ackedMask() uint16 {
	var m uint16
	for i := range w.refs {
		if w.h.Acked(i) {
			m |= 1 << i
		}
	}
	return m
}

// choices are the deliveries possible here, by the explorer's rule.
func (w *inboxWalk) choices(try func(msg int, d delivery)) {
	acked := w.ackedMask()
	w.bounds().choices(acked, popcount(acked), 0, func(msg int, d delivery, _, _ int) bool {
		try(msg, d)
		return true
	})
}

func deliverSegment(msg int, d delivery) string {
	if d == ok {
		return fmt.Sprintf("deliver-m%d", msg+1)
	}
	return fmt.Sprintf("deliver-m%d.%s", msg+1, d.row().Name)
}

func (w *inboxWalk) calls(seg string) ([]harness.Call, error) {
	s := parseSegment(seg)
	switch s.verb {
	case "deliver":
		var i int
		if _, err := fmt.Sscanf(s.target, "m%d", &i); err != nil || fmt.Sprintf("m%d", i) != s.target || i < 1 || i > len(w.refs) {
			return nil, cannot("state.err.no-message", s.target, joinList(w.names()))
		}
		i--
		name := harness.FaultKind("")
		switch len(s.mods) {
		case 0:
		case 1:
			name = harness.FaultKind(s.mods[0])
			if k, found := harness.InboxFaultByName(name); !found || k == 0 {
				return nil, cannot("state.err.no-fault", s.mods[0], faultList())
			}
		default:
			return nil, cannot("state.err.segment", seg)
		}
		k, _ := harness.InboxFaultByName(name)
		// A plain delivery of an acked message is a redelivery the
		// harness takes as a drill file writes it (dedup-scope,
		// prune-window); the explorer's choices name it a replay, so the
		// page does not offer it, but a path may hold it.
		allowed := name == "" && w.h.Acked(i)
		// Nor does it offer the rows at the code's own calls (a gap, the
		// lease running out), check's scope's alone; a drill file's path
		// may hold them.
		row := harness.InboxFaults[k]
		allowed = allowed || row.AtCalls() && w.h.Acked(i) == (row.On == harness.Acked)
		w.choices(func(msg int, d delivery) { allowed = allowed || (msg == i && int(d) == k) })
		if !allowed {
			key := "state.err.unacked-only"
			if !w.h.Acked(i) {
				key = "state.err.acked-only"
			}
			return nil, cannot(key, seg, fmt.Sprintf("m%d", i+1))
		}
		c := harness.Call{Verb: "deliver", Args: map[string]any{"msg": w.refs[i]}}
		if name != "" {
			c.Args["fault"] = string(name)
		}
		return []harness.Call{c}, nil
	case "prune":
		n, err := parseNumber(s.target)
		if err != nil || len(s.mods) > 0 {
			return nil, cannot("state.err.prune", seg)
		}
		return []harness.Call{{Verb: "prune", Args: map[string]any{"seq": n}}}, nil
	}
	return nil, cannot("state.err.verb", s.verb, "deliver-mN[.FAULT], prune-SEQ")
}

// parseNumber reads a segment's number: decimal, no sign, at most 10^9.
func parseNumber(s string) (int, error) {
	n, ok := modNumber("n-"+s, "n")
	if !ok || n > 1_000_000_000 {
		return 0, fmt.Errorf("not a number: %q", s)
	}
	return n, nil
}

func faultList() string {
	var out []string
	for _, f := range harness.InboxFaults {
		if f.Fault() {
			out = append(out, string(f.Name))
		}
	}
	return fmt.Sprint(out)
}

func (w *inboxWalk) took(calls []harness.Call, _ []harness.Fields) {
	for _, c := range calls {
		if c.Verb == "prune" {
			w.anyPrune, w.pruned = true, max(w.pruned, int64(c.Int("seq", 0)))
		}
	}
}

func (w *inboxWalk) name(c harness.Call) (string, callKind) {
	switch c.Verb {
	case "message":
		return "", callDecl
	case "read", "once":
		return "", callObserve
	case "deliver":
		i := slices.Index(w.refs, c.Word("msg"))
		k, found := harness.InboxFaultByName(harness.FaultKind(c.Word("fault")))
		if i < 0 || !found {
			return "", callOther
		}
		return deliverSegment(i, delivery(k)), callStep
	case "prune":
		return fmt.Sprintf("prune-%d", c.Int("seq", 0)), callStep
	}
	return "", callOther
}

func (w *inboxWalk) drained() bool { return true }

func (w *inboxWalk) actions() []Action {
	var out []Action
	w.choices(func(msg int, d delivery) {
		row := d.row()
		out = append(out, Action{Segment: deliverSegment(msg, d), Doc: harness.M(row.DocKey()), Fault: row.Fault()})
	})
	var seqs []int64
	for _, m := range w.h.Messages() {
		if !slices.Contains(seqs, m.Seq) {
			seqs = append(seqs, m.Seq)
		}
	}
	slices.Sort(seqs)
	for _, s := range seqs {
		out = append(out, Action{Segment: fmt.Sprintf("prune-%d", s), Doc: harness.M("state.act.prune", s)})
	}
	return out
}

func (w *inboxWalk) snapshot() string {
	b := make([]byte, 0, 4*len(w.refs))
	for i := range w.refs {
		// A row waiting in a durable inbox's table is state too: the
		// recovery applies it (issue 43: a crash-mid that stored it read
		// as "no effect").
		b = fmt.Appendf(b, "%v/%d/%v/%v ", w.h.Acked(i), w.h.Applied(i), w.h.KeyHeld(i), w.h.Waiting(i))
	}
	return string(b)
}

// names are the messages' names in a path: m1, m2, ….
func (w *inboxWalk) names() []string {
	out := make([]string, len(w.refs))
	for i := range w.refs {
		out[i] = fmt.Sprintf("m%d", i+1)
	}
	return out
}

func (w *inboxWalk) legend() []string {
	out := make([]string, len(w.refs))
	for i, r := range w.refs {
		out[i] = fmt.Sprintf("m%d=%s", i+1, r)
	}
	return out
}

func yesNo(b bool, yes, no string) harness.Msg {
	if b {
		return harness.M(yes)
	}
	return harness.M(no)
}

func (w *inboxWalk) parts() []Part {
	p := Part{Title: harness.M("state.part.messages"),
		Head: []harness.Msg{harness.M("state.col.message"), harness.M("state.col.broker"), harness.M("state.col.effects"), harness.M("state.col.key")}}
	table := w.h.Recovers() // a durable inbox: its table's rows are state too
	if table {
		p.Head = append(p.Head, harness.M("state.col.table"))
	}
	for i, m := range w.h.Messages() {
		row := []harness.Msg{
			text(fmt.Sprintf("m%d %s", i+1, m)),
			yesNo(w.h.Acked(i), "state.acked", "state.unacked"),
			text(w.h.Applied(i)),
			yesNo(w.h.KeyHeld(i), "state.key.held", "state.key.none"),
		}
		if table {
			row = append(row, yesNo(w.h.Waiting(i), "state.table.waiting", "state.table.none"))
		}
		p.Rows = append(p.Rows, row)
	}
	window := harness.M("state.window.none")
	if w.anyPrune {
		window = harness.M("state.window.pruned", w.pruned)
	}
	orders := Part{Title: harness.M("state.part.ledger"), Head: []harness.Msg{harness.M("state.col.order"), harness.M("state.col.balance")}}
	var seen []string
	for _, m := range w.h.Messages() {
		if !slices.Contains(seen, m.OrderID) {
			seen = append(seen, m.OrderID)
			orders.Rows = append(orders.Rows, []harness.Msg{text(m.OrderID), text(w.h.Store().Balance(m.OrderID))})
		}
	}
	orders.Rows = append(orders.Rows, []harness.Msg{harness.M("state.window"), window})
	return []Part{p, orders}
}

// settles: a consumer with a recovery step runs it once more before the
// books are read, so the page judges a settled copy of the run, as the
// drill file it saves does.
func (w *inboxWalk) settles() bool { return w.h.Recovers() }

func (w *inboxWalk) settle() error { return w.h.Settle() }

func (w *inboxWalk) props() []Property {
	lost := Property{Name: "lost", Value: harness.M("state.prop.none")}
	doubled := Property{Name: "doubled", Value: harness.M("state.prop.none")}
	var lostMsgs, doubledMsgs []string
	for i, m := range w.h.Messages() {
		if w.h.Dropped(i) {
			lostMsgs = append(lostMsgs, fmt.Sprintf("m%d %s", i+1, m))
		}
		if w.h.Applied(i) > 1 {
			doubledMsgs = append(doubledMsgs, fmt.Sprintf("m%d %s ×%d", i+1, m, w.h.Applied(i)))
		}
	}
	if len(lostMsgs) > 0 {
		lost.Broken, lost.Value = true, harness.M("state.prop.lost", joinList(lostMsgs))
	}
	if len(doubledMsgs) > 0 {
		doubled.Broken, doubled.Value = true, harness.M("state.prop.doubled", joinList(doubledMsgs))
	}
	return []Property{lost, doubled}
}

func joinList(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

func (w *inboxWalk) file() fileSpec {
	f := fileSpec{counters: []fileCounter{{name: "deliveries", obs: "deliveries"}, {name: "effects", obs: "effects"}}}
	var orders []string
	for i, m := range w.h.Messages() {
		ref := m.String()
		mi := fmt.Sprintf("m%d", i+1)
		f.counters = append(f.counters,
			fileCounter{name: mi + "_lost", obs: "dropped", arg: ref},
			fileCounter{name: mi + "_effects", obs: "applied", arg: ref})
		f.checks = append(f.checks,
			fileCheck{name: mi + "-not-lost", expr: "!" + mi + "_lost", text: harness.M("state.check.not-lost", mi, ref), invariant: "lost", breaks: w.h.Dropped(i)},
			fileCheck{name: mi + "-not-doubled", expr: mi + "_effects <= 1", text: harness.M("state.check.not-doubled", mi, ref), invariant: "doubled", breaks: w.h.Applied(i) > 1})
		if !slices.Contains(orders, m.OrderID) {
			orders = append(orders, m.OrderID)
			f.looks = append(f.looks, harness.Call{Verb: "read", Args: map[string]any{"order": m.OrderID}})
		}
	}
	return f
}

// reachInbox is the state engine's fewest steps to a broken end from this
// state, with at most the default scope's faults more: the explorer's
// states, walked from here. The moves are learnt from runs that replay
// this state's path first, then the walk's own path.
func reachInbox(_ *model, s *State) (*Reach, harness.Msg, error) {
	w := s.w.(*inboxWalk)
	if len(w.refs) > MaxInboxMessages {
		return nil, harness.M("state.reach.too-large", len(w.refs), MaxInboxMessages), nil
	}
	msgs := w.h.Messages()
	sp := &inboxSpace{inboxBounds: inboxBounds{n: len(msgs), faults: DefaultInbox.Faults}, msgs: msgs}
	x := &inboxStates{sp: sp, strategy: harness.Strategy(s.Start.Strategy), prefix: s.prefix()}
	if s.Start.Strategy == harness.Student {
		x.students = s.Start.Students
	}
	var here inboxState
	for i := range msgs {
		var bits inboxState
		if w.h.Acked(i) {
			bits |= 1
		}
		bits |= inboxState(min(w.h.Applied(i), 2)) << 1
		if w.h.KeyHeld(i) {
			bits |= 1 << 3
		}
		here |= bits << (inboxBits * i)
	}
	broken := brokeLost | brokeDoubled
	if x.students != nil {
		broken |= brokeUnacked
	}
	now := nowInbox{x}
	lv, err := walkStates(context.Background(), now, inboxKey(here, 0, popcount(here.ackedMask(len(msgs)))), broken, 0, StateLimit, nil)
	if errors.Is(err, ErrNotLocal) {
		// An inbox table of the handler's own: no state of the
		// explorer's says what its rows hold.
		return nil, harness.M("state.reach.not-local"), nil
	}
	if err != nil {
		return nil, harness.Msg{}, err
	}
	within := harness.M("state.reach.faults", DefaultInbox.Faults)
	// Each step possible here, and how far it is from a violation.
	dist := map[string]int{}
	k := int(lv.first[0][0])
	now.expand(lv.keys[0][0], func() []uint16 { return nil }, func(step uint16, _, _ uint64) {
		if len(lv.counts) > 1 {
			if d := lv.counts[1][lv.out[0].at(int32(k))].dist; d >= 0 {
				dist[deliverSegment(int(step>>inboxRowBits), delivery(step&(1<<inboxRowBits-1)))] = int(d) + 1
			}
		}
		k++
	}, func(uint8, uint64) {})
	for i := range s.Actions {
		if d, found := dist[s.Actions[i].Segment]; found {
			s.Actions[i].Dist = d
		}
	}
	steps, _, b, found, err := lv.shortest(now)
	if err != nil || !found {
		return nil, within, err
	}
	r := &Reach{Within: within}
	for _, st := range steps {
		r.Steps = append(r.Steps, deliverSegment(int(st>>inboxRowBits), delivery(st&(1<<inboxRowBits-1))))
	}
	for k, inv := range inboxInvariants {
		if b&(1<<k) != 0 {
			r.Broken = append(r.Broken, inv)
		}
	}
	if b&brokeUnacked != 0 {
		r.Broken = append(r.Broken, studentUnacked)
	}
	return r, within, nil
}

// nowInbox is the explorer's §8.2 states with one more way to stop: at
// every state that breaks an invariant already (a message taken as handled
// with no effect, one applied twice), so that the state engine's fewest
// steps to a broken stop are the fewest steps to a state the page shows
// broken, which never comes later than the explorer's broken end.
type nowInbox struct{ *inboxStates }

func (x nowInbox) expand(key uint64, path func() []uint16, to func(uint16, uint64, uint64), end func(uint8, uint64)) error {
	h := inboxState(key)
	var b uint8
	for i := range x.sp.n {
		switch a := h.applied(i); {
		case a == 2:
			b |= brokeDoubled
		case a == 0 && (h.acked(i) || h.local(i)&(1<<3) != 0):
			b |= brokeLost
		}
	}
	if b != 0 {
		end(b, 0)
	}
	return x.inboxStates.expand(key, path, to, end)
}

// prefix replays the state's path on a harness of the explorer's walk.
func (s *State) prefix() func(h harness.Harness) error {
	return func(h harness.Harness) error {
		for _, st := range s.Path {
			for _, c := range st.Calls {
				if _, err := h.Exec(c); err != nil {
					return err
				}
			}
		}
		return nil
	}
}
