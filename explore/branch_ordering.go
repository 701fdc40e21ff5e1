package explore

import (
	"context"
	"fmt"
	"slices"

	"archlab/harness"
	"archlab/internal/ordering"
)

// §8.3 on a state page. The world is its events, a consumer with a retry
// budget, and what the source of truth says of each order. A step is the
// explorer's, deliver-evt-2 (the broker hands the event over now, ahead of
// its queue: its first delivery, or another copy), or one of the drills'
// verbs: publish-evt-2 (to the back of the queue), next (the queue's head,
// one delivery of dispatch), dispatch (the whole queue) and
// reconcile-o-1. retry-only is the design with no reconciliation: it
// never takes reconcile.

var orderingModel = model{
	strategy: orderingStrategies[retryThenReconcile].name,
	open:     openOrdering,
	reach:    reachOrdering,
	decls:    []string{"event", "consumer", "truth"},
}

// orderingDecls is the default scope's events, before the poison one, the
// source of truth and a retry budget of 3.
func orderingDecls() []harness.Call {
	var decls []harness.Call
	for _, e := range orderingEvents[:poisonEvent] {
		decls = append(decls, harness.Call{Verb: "event", Args: map[string]any{
			"id": e.ID, "order": e.OrderID, "version": fmt.Sprintf("v%d", e.Version), "type": e.Type}})
	}
	return append(decls,
		harness.Call{Verb: "truth", Args: map[string]any{"order": orderingOrder, "state": orderingTruth.String()}},
		harness.Call{Verb: "consumer", Args: map[string]any{"max-attempts": DefaultOrdering.MaxAttempts}})
}

type orderingWalk struct {
	st     Start
	o      *harness.Ordering
	events []ordering.Event
	orders []string // every order the events or the source of truth name, in order
	truths []string // the orders the source of truth knows, in order
	copies []int    // per event: deliveries the path handed over as first deliveries (deliver, publish)
}

func openOrdering(st Start, rec *harness.Recorder) (walker, error) {
	o := harness.NewOrdering(rec)
	if st.Strategy == harness.Student {
		o = harness.NewStudentOrdering(st.Students, rec)
	}
	w := &orderingWalk{st: st, o: o}
	consumer := false
	for _, c := range st.Decls {
		switch c.Verb {
		case "event", "truth":
		case "consumer":
			consumer = true
		default:
			return nil, cannot("state.err.decl", c.Verb, "event, consumer, truth")
		}
		if _, err := o.Exec(c); err != nil {
			return nil, err
		}
		if c.Verb == "truth" && !slices.Contains(w.truths, c.Word("order")) {
			w.truths = append(w.truths, c.Word("order"))
		}
	}
	w.events = o.Events()
	if len(w.events) == 0 {
		return nil, cannot("state.err.empty", "event")
	}
	if !consumer {
		return nil, cannot("state.err.no-consumer")
	}
	for _, e := range w.events {
		if !safeName(e.ID) {
			return nil, cannot("state.err.name", e.ID)
		}
		if !slices.Contains(w.orders, e.OrderID) {
			w.orders = append(w.orders, e.OrderID)
		}
	}
	for _, id := range w.truths {
		if !slices.Contains(w.orders, id) {
			w.orders = append(w.orders, id)
		}
	}
	w.copies = make([]int, len(w.events))
	return w, nil
}

func (w *orderingWalk) harness() harness.Harness { return w.o }

func (w *orderingWalk) reconciles() bool { return w.st.Strategy != orderingStrategies[retryOnly].name }

func (w *orderingWalk) event(id string) int {
	return slices.IndexFunc(w.events, func(e ordering.Event) bool { return e.ID == id })
}

func (w *orderingWalk) calls(seg string) ([]harness.Call, error) {
	s := parseSegment(seg)
	if len(s.mods) > 0 {
		return nil, cannot("state.err.segment", seg)
	}
	switch s.verb {
	case "deliver", "publish":
		if w.event(s.target) < 0 {
			return nil, cannot("state.err.no-event", s.target, w.eventList())
		}
		return []harness.Call{{Verb: s.verb, Args: map[string]any{"id": s.target}}}, nil
	case "next", "dispatch":
		if s.target != "" {
			return nil, cannot("state.err.segment", seg)
		}
		if w.o.Queued() == 0 {
			return nil, cannot("state.err.queue-empty", seg)
		}
		c := harness.Call{Verb: "dispatch", Args: map[string]any{}}
		if s.verb == "next" {
			c.Args["max"] = 1
		}
		return []harness.Call{c}, nil
	case "reconcile":
		if !slices.Contains(w.orders, s.target) {
			return nil, cannot("state.err.no-order", s.target, joinList(w.orders))
		}
		if !w.reconciles() {
			return nil, cannot("state.err.no-reconcile", w.st.Strategy)
		}
		return []harness.Call{{Verb: "reconcile", Args: map[string]any{"order": s.target}}}, nil
	}
	return nil, cannot("state.err.verb", s.verb, "deliver-ID, publish-ID, next, dispatch, reconcile-ORDER")
}

func (w *orderingWalk) eventList() string {
	var ids []string
	for _, e := range w.events {
		ids = append(ids, e.ID)
	}
	return joinList(ids)
}

func (w *orderingWalk) took(calls []harness.Call, _ []harness.Fields) {
	for _, c := range calls {
		if c.Verb == "deliver" || c.Verb == "publish" {
			w.copies[w.event(c.Word("id"))]++
		}
	}
}

func (w *orderingWalk) name(c harness.Call) (string, callKind) {
	switch c.Verb {
	case "event", "consumer", "truth":
		return "", callDecl
	case "read", "compare":
		return "", callObserve
	case "deliver", "publish":
		if w.event(c.Word("id")) < 0 {
			return "", callOther
		}
		return c.Verb + "-" + c.Word("id"), callStep
	case "dispatch":
		switch {
		case !c.Has("max"):
			return "next", callDrain
		case c.Int("max", 0) == 1:
			return "next", callStep
		}
	case "reconcile":
		if safeName(c.Word("order")) && slices.Contains(w.orders, c.Word("order")) {
			return "reconcile-" + c.Word("order"), callStep
		}
	}
	return "", callOther
}

func (w *orderingWalk) drained() bool { return w.o.Queued() == 0 }

func (w *orderingWalk) actions() []Action {
	var out []Action
	for _, e := range w.events {
		out = append(out, Action{Segment: "deliver-" + e.ID, Doc: harness.M("state.act.deliver-event", e)})
	}
	for _, e := range w.events {
		out = append(out, Action{Segment: "publish-" + e.ID, Doc: harness.M("state.act.publish", e)})
	}
	if w.o.Queued() > 0 {
		out = append(out,
			Action{Segment: "next", Doc: harness.M("state.act.next")},
			Action{Segment: "dispatch", Doc: harness.M("verb.8.3.dispatch")})
	}
	for _, id := range w.orders {
		a := Action{Segment: "reconcile-" + id, Doc: harness.M("state.act.reconcile", id)}
		if !safeName(id) {
			continue
		}
		if !w.reconciles() {
			a.Ignored = harness.M("state.ignored.reconcile", w.st.Strategy)
		}
		out = append(out, a)
	}
	return out
}

func (w *orderingWalk) snapshot() string { return w.o.Snapshot() }

func (w *orderingWalk) legend() []string {
	var out []string
	for _, e := range w.events {
		out = append(out, e.String())
	}
	return out
}

func (w *orderingWalk) parts() []Part {
	q := Part{Title: harness.M("state.part.queue"), Head: []harness.Msg{harness.M("state.col.position"), harness.M("state.col.event"), harness.M("state.col.attempt")}}
	for i, d := range w.o.Queue() {
		q.Rows = append(q.Rows, []harness.Msg{text(i + 1), text(d.Event), text(d.Attempt)})
	}
	if len(q.Rows) == 0 {
		q.Rows = append(q.Rows, []harness.Msg{harness.M("state.empty"), text(""), text("")})
	}
	rows := Part{Title: harness.M("state.part.projection"), Head: []harness.Msg{harness.M("state.col.order"), harness.M("state.col.row"), harness.M("state.col.truth")}}
	for _, id := range w.orders {
		st, _ := w.o.Observe("state", []any{id})
		truth := harness.M("state.truth.unknown")
		if slices.Contains(w.truths, id) {
			t, _ := w.o.Observe("truth", []any{id})
			truth = text(t)
		}
		rows.Rows = append(rows.Rows, []harness.Msg{text(id), text(st), truth})
	}
	ev := Part{Title: harness.M("state.part.events"), Head: []harness.Msg{harness.M("state.col.event"), harness.M("state.col.outcome")}}
	for _, e := range w.events {
		out, _ := w.o.Observe("outcome", []any{e.ID})
		cell := harness.M("state.not-arrived")
		switch out {
		case "":
		case string(ordering.OutcomeApplied), string(ordering.OutcomeDuplicate), string(ordering.OutcomeRetry), string(ordering.OutcomeDead):
			// The book's Outcome, in the reader's words (a zh page said
			// "applied" and "retry" among Chinese ones).
			cell = harness.M("state.outcome." + out.(string))
		default: // a student's own, as it gave it
			cell = text(out)
		}
		ev.Rows = append(ev.Rows, []harness.Msg{text(e), cell})
	}
	dlq := Part{Title: harness.M("state.part.dlq"), Head: []harness.Msg{harness.M("state.col.event"), harness.M("state.col.attempts")}}
	for _, d := range w.o.DLQ() {
		dlq.Rows = append(dlq.Rows, []harness.Msg{text(d.Event), text(d.Attempts)})
	}
	if len(dlq.Rows) == 0 {
		dlq.Rows = append(dlq.Rows, []harness.Msg{harness.M("state.empty"), text("")})
	}
	return []Part{q, ev, rows, dlq}
}

// settled reports whether nothing more comes by itself: nothing waits,
// and a design that reconciles has reconciled every known order since the
// last delivery.
func (w *orderingWalk) settled() bool {
	return w.o.Waiting() == 0 && (!w.reconciles() || w.o.Unreconciled() == 0)
}

func (w *orderingWalk) props() []Property {
	moved := Property{Name: "moved-back", Broken: w.o.MovedBack(), Value: yesNo(w.o.MovedBack(), "state.prop.moved-back", "state.prop.none")}
	twice := Property{Name: "applied-twice", Broken: w.o.AppliedTwice(), Value: yesNo(w.o.AppliedTwice(), "state.prop.applied-twice", "state.prop.none")}
	div := Property{Name: "diverged", Value: harness.M("state.prop.none")}
	var off []string
	for _, id := range w.truths {
		st, _ := w.o.Observe("state", []any{id})
		t, _ := w.o.Observe("truth", []any{id})
		if st != t {
			off = append(off, fmt.Sprintf("%s %v ≠ %v", id, st, t))
		}
	}
	switch {
	case len(off) > 0 && w.settled():
		div.Broken, div.Value = true, harness.M("state.prop.diverged", joinList(off))
	case len(off) > 0:
		div.Value = harness.M("state.prop.diverged-pending", joinList(off))
	}
	return []Property{moved, twice, div}
}

func (w *orderingWalk) file() fileSpec {
	f := fileSpec{counters: []fileCounter{{name: "deliveries", obs: "deliveries"}, {name: "dlq", obs: "dlq"}, {name: "fixes", obs: "fixes"},
		{name: "moved_back", obs: "moved_back"}, {name: "applied_twice", obs: "applied_twice"}, {name: "diverged", obs: "diverged"},
		{name: "waiting", obs: "waiting"}}}
	settled := "waiting > 0"
	if w.reconciles() {
		f.counters = append(f.counters, fileCounter{name: "unreconciled", obs: "unreconciled"})
		settled += " || unreconciled > 0"
	}
	f.checks = []fileCheck{
		{name: "not-moved-back", expr: "!moved_back", text: harness.M("explore.emit.check.not-moved-back"), invariant: "moved-back"},
		{name: "not-applied-twice", expr: "!applied_twice", text: harness.M("explore.emit.check.not-applied-twice"), invariant: "applied-twice"},
		{name: "not-diverged", expr: settled + " || diverged == 0", text: harness.M("state.check.not-diverged"), invariant: "diverged"},
	}
	breaksByInvariant(f.checks, w.props())
	for _, id := range w.orders {
		f.looks = append(f.looks, harness.Call{Verb: "read", Args: map[string]any{"order": id}})
	}
	return f
}

// reachOrdering is the state engine's fewest deliveries to a broken end
// from this state: the explorer's learner, its runs replaying this state's
// path first, walked from here over every way the rest can come (each
// event that has not arrived once, and up to the default scope's
// duplicates of any event, less the ones already delivered); then, as the
// explorer ends a run, the queue drained and, for a design that
// reconciles, the known orders reconciled.
func reachOrdering(m *model, s *State) (*Reach, harness.Msg, error) {
	w := s.w.(*orderingWalk)
	if len(w.events) > len(orderingEvents) {
		return nil, harness.M("state.reach.too-large-events", len(w.events), len(orderingEvents)), nil
	}
	dups := DefaultOrdering.Duplicates
	for _, n := range w.copies {
		dups -= max(0, n-1)
	}
	dups = max(0, dups)
	within := harness.M("state.reach.duplicates", dups)
	k := retryThenReconcile // the student's decision runs under the book's loop
	if !w.reconciles() {
		k = retryOnly
	}
	l := &orderingLearner{ids: map[string]uint32{}, world: &orderingWorld{w: w, prefix: s.prefix(), start: s.Start}}
	root, err := l.play(nil)
	if err != nil {
		return nil, harness.Msg{}, err
	}
	l.intern(root.Snapshot(), nil)
	l.now[0] = brokenNow(root)
	var base [4]int
	for e := range w.events {
		if w.copies[e] == 0 {
			base[e] = 1
		}
	}
	broken := brokeMovedBack | brokeAppliedTwice | brokeDiverged
	if s.Start.Strategy == harness.Student {
		broken |= brokeStuck
	}
	var best *Reach
	var each func(e, left int, counts [4]int) error
	each = func(e, left int, counts [4]int) error {
		if e == len(w.events) {
			x := nowOrdering{orderingStates{l: l, strategy: k}}
			lv, err := walkStates(context.Background(), x, orderingKey(0, counts), broken, 0, StateLimit, nil)
			if err != nil {
				return err
			}
			steps, _, b, found, err := lv.shortest(x)
			if err != nil || !found {
				return err
			}
			r := &Reach{Within: within}
			for _, st := range steps {
				r.Steps = append(r.Steps, "deliver-"+w.events[st].ID)
			}
			if b&tagNow == 0 { // the explorer's end: the queue drained, then reconciled
				x, err := replay(m, s.Start, append(s.Segments(), r.Steps...))
				if err != nil {
					return err
				}
				if x.(*orderingWalk).o.Queued() > 0 {
					r.Steps = append(r.Steps, "dispatch")
				}
				if w.reconciles() {
					for _, id := range w.truths {
						r.Steps = append(r.Steps, "reconcile-"+id)
					}
				}
			}
			if best != nil && len(best.Steps) <= len(r.Steps) {
				return nil
			}
			for i, inv := range orderingInvariants {
				if b&(1<<i) != 0 {
					r.Broken = append(r.Broken, inv)
				}
			}
			best = r
			return nil
		}
		for extra := 0; extra <= left; extra++ {
			counts[e] = base[e] + extra
			if counts[e] >= 1<<orderingCountBits {
				break
			}
			if err := each(e+1, left-extra, counts); err != nil {
				return err
			}
		}
		return nil
	}
	if err := each(0, dups, [4]int{}); err != nil {
		return nil, harness.Msg{}, err
	}
	return best, within, nil
}

// tagNow marks a stop at a state that breaks an invariant already.
const tagNow uint8 = 1 << 6

// brokenNow is what a §8.3 run breaks already, whatever comes next: an
// order's version that went back, an event applied twice.
func brokenNow(o *harness.Ordering) uint8 {
	var b uint8
	if o.MovedBack() {
		b |= brokeMovedBack
	}
	if o.AppliedTwice() {
		b |= brokeAppliedTwice
	}
	return b
}

// nowOrdering is the explorer's §8.3 states with one more way to stop: at
// every state that breaks an invariant already, as for §8.2 (nowInbox).
type nowOrdering struct{ orderingStates }

func (x nowOrdering) expand(key uint64, path func() []uint16, to func(uint16, uint64, uint64), end func(uint8, uint64)) error {
	id, _ := orderingLeft(key)
	if b := x.l.now[id]; b != 0 {
		end(b|tagNow, 0)
	}
	return x.orderingStates.expand(key, path, to, end)
}

// orderingWorld is a state page's world for the explorer's learner: its
// runs start from the page's world and path, not the scope's.
type orderingWorld struct {
	w      *orderingWalk
	start  Start
	prefix func(harness.Harness) error
}

// play is a fresh run of the world, the path, then events delivered one
// at a time.
func (ow *orderingWorld) play(events []uint8) (*harness.Ordering, error) {
	x, err := openOrdering(ow.start, nil)
	if err != nil {
		return nil, err
	}
	o := x.(*orderingWalk).o
	if err := ow.prefix(o); err != nil {
		return nil, err
	}
	for _, e := range events {
		if err := o.Deliver(int(e)); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// end is how a run ends once its events are delivered, as the explorer
// ends it: the queue drained, the known orders reconciled by a design
// that reconciles, and the invariants read.
func (ow *orderingWorld) end(events []uint8) (orderingEnd, error) {
	var e orderingEnd
	for k := range orderingStrategies {
		o, err := ow.play(events)
		if err != nil {
			return e, err
		}
		if err := o.Dispatch(); err != nil {
			return e, err
		}
		if k == retryThenReconcile && len(ow.w.truths) > 0 {
			e.fixes = o.Reconcile(ow.w.truths...)
		}
		var b uint8
		if o.MovedBack() {
			b |= brokeMovedBack
		}
		if o.AppliedTwice() {
			b |= brokeAppliedTwice
		}
		if o.Diverged() > 0 {
			b |= brokeDiverged
		}
		if o.OverBudget() > 0 {
			b |= brokeStuck
		}
		e.broken[k] = b
	}
	e.known = true
	return e, nil
}
