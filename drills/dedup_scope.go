package drills

import (
	"fmt"

	"archlab/internal/inbox"
	"archlab/internal/inbox/consumerproc"
)

// This drill demonstrates why the dedup key is scoped by producer. Two
// producers each emit an event they both call evt-1 for the same order. Had
// the key been the event ID alone, the second payment would be dropped as a
// duplicate; DedupKey prefixes the producer, so both apply, while a real
// redelivery of the first one is still suppressed. Lesson: one effect per
// producer, however the IDs collide.
//
// With --crash real every delivery goes to a consumer process of its own,
// and none is killed: this drill's fault is a collision of IDs, not a crash.
// The processes show that the composite primary key (producer, event_id) of
// the real dedup table does what DedupKey does.
var dedupScope = Drill{
	Name:    "dedup-scope",
	Section: "8.2",
	Params:  []Param{{Name: "producers", Default: 2, Min: 1, Max: 100}},
	Book:    book("producers", "2", "same_event_id", "evt-1", "effects", "2", "balance", "600"),
	runIn:   runDedupScope,
}

// producerName names the i-th producer: the book's two first, then numbered.
func producerName(i int) string {
	if names := []string{"checkout", "refund"}; i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("producer-%d", i+1)
}

func runDedupScope(v Values, env Env, r *Recorder) (err error) {
	c, err := openConsumer(env, r)
	if err != nil {
		return err
	}
	defer c.close(&err)
	ledger := c.store
	const order, eventID = "o-2", "evt-1"
	var msgs []inbox.Message
	var want int64
	for i := range v["producers"] {
		// 2.50 from the first producer, 3.50 from the second, and so on.
		m := inbox.Message{Producer: producerName(i), ID: eventID, Seq: 1, OrderID: order, AmountCents: int64(250 + 100*i)}
		msgs = append(msgs, m)
		want += m.AmountCents
	}
	acks := inbox.NewMemoryAck()
	r.Phase(Setup)
	for _, m := range msgs {
		if _, err := c.handle(delivery{handler: consumerproc.ApplyOnce, msg: m, attempt: 1}, acks); err != nil {
			return err
		}
	}
	// The fault: the same event ID came from several producers; then a
	// genuine redelivery of the first message.
	r.Phase(Fault)
	applied, err := c.handle(delivery{handler: consumerproc.ApplyOnce, msg: msgs[0], attempt: 2}, acks)
	if err != nil {
		return err
	}
	r.Phase(Verdict)
	recordBalance(r, ledger, order)
	r.Count("producers", len(msgs))
	r.Count("same_event_id", eventID)
	r.Count("effects", ledger.Applies())
	r.Count("balance", ledger.Balance(order))
	r.Check("check.dedup-scope.one-effect-per-producer", ledger.Applies() == len(msgs))
	r.Check("check.dedup-scope.redelivery-suppressed", !applied && ledger.Balance(order) == want)
	return nil
}
