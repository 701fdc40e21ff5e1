// Package dedup runs one message stream through two consumer-side dedup
// designs and compares what each costs and what each does:
//
//   - archlab's inbox (section 8.2 of the book): the dedup key and the effect
//     are written in one local transaction, and the broker is acked after it;
//   - Watermill's middleware.Deduplicator: an expiring key repository is asked
//     "seen it?" before the handler runs, and remembers the key whatever the
//     handler then does.
//
// Both see the same deliveries: payments of Amount cents, keyed by producer
// and event ID, every 10th delivery a redelivery of the one before. The
// benchmarks (go test -bench .) measure the two at the dedup-table level and
// at the handler level; the tests check that both apply the same effects to
// that stream, and record what each does when a handler fails once and the
// broker redelivers.
package dedup

import (
	"strconv"
	"sync"
	"time"

	"archlab/internal/inbox"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
)

const (
	// KeyField is the metadata field holding a Watermill message's dedup
	// key, producer + ":" + event ID: the same string as inbox.DedupKey.
	// middleware.NewMessageHasherFromMetadataField reads it.
	KeyField = "dedup_key"
	// OrderField is the metadata field holding the order a payment is for.
	OrderField = "order_id"
	// Amount is what every payment of the stream adds to its order, in
	// cents. It is fixed so that the Watermill handler need not parse a
	// payload: both sides pay for the dedup and the effect, nothing else.
	Amount = 100
	// Orders is how many orders the stream's payments are spread over.
	Orders = 64
)

var orderIDs = func() []string {
	ids := make([]string, Orders)
	for i := range ids {
		ids[i] = "o-" + strconv.Itoa(i)
	}
	return ids
}()

// Payment is message k of the stream, in archlab's form: producer "pay",
// event "evt-k", for order o-(k mod Orders).
func Payment(k int) inbox.Message {
	return inbox.Message{Producer: "pay", ID: "evt-" + strconv.Itoa(k), Seq: int64(k), OrderID: orderIDs[k%Orders], AmountCents: Amount}
}

// Delivered is the message that delivery d carries: ten deliveries carry
// nine messages, the tenth repeating the ninth as a broker redelivers after
// a lost ack.
func Delivered(d int) int { return d/10*9 + min(d%10, 8) }

// Stream is a run of consecutive deliveries, in both forms: Archlab[i] and
// Watermill[i] are the same delivery.
type Stream struct {
	First     int // the delivery number of element 0
	Archlab   []inbox.Message
	Watermill []*message.Message
}

// NewStream returns deliveries first … first+n-1.
func NewStream(first, n int) *Stream {
	s := &Stream{Archlab: make([]inbox.Message, n), Watermill: make([]*message.Message, n)}
	s.Fill(first)
	return s
}

// Fill overwrites the stream with the deliveries from first on, reusing the
// Watermill messages already allocated, so a benchmark can refill between
// timed stretches without making garbage for the timed code to collect.
// Each delivery is its own *message.Message, as a redelivery is.
func (s *Stream) Fill(first int) {
	s.First = first
	for i := range s.Archlab {
		m := Payment(Delivered(first + i))
		s.Archlab[i] = m
		if s.Watermill[i] == nil {
			s.Watermill[i] = WatermillMessage(m)
		} else {
			setWatermill(s.Watermill[i], m)
		}
	}
}

// WatermillMessage is m in Watermill's form: a new *message.Message whose
// metadata carries m's dedup key and order.
func WatermillMessage(m inbox.Message) *message.Message {
	w := message.NewMessage(m.ID, nil)
	setWatermill(w, m)
	return w
}

func setWatermill(w *message.Message, m inbox.Message) {
	w.UUID = m.ID
	w.Metadata[KeyField] = inbox.DedupKey(m)
	w.Metadata[OrderField] = m.OrderID
}

// NewDeduplicator returns Watermill's Deduplicator as its documentation
// suggests using it: keys from a metadata field, the in-memory expiring
// repository. The window is long enough that nothing expires during a run,
// as nothing is pruned from the archlab ledger. The repository starts a
// cleanup goroutine that never stops, so make one per benchmark, not per op.
func NewDeduplicator() (*middleware.Deduplicator, error) {
	repo, err := middleware.NewMapExpiringKeyRepository(time.Hour)
	if err != nil {
		return nil, err
	}
	return &middleware.Deduplicator{
		KeyFactory: middleware.NewMessageHasherFromMetadataField(KeyField),
		Repository: repo,
		Timeout:    time.Minute,
	}, nil
}

// Balances is the Watermill handler's effect store: the same effect as the
// ledger's (Amount added to the order under a mutex), kept apart from the
// dedup table, as it is whenever a Deduplicator sits in front of a handler.
type Balances struct {
	mu      sync.Mutex
	cents   map[string]int64
	applies int
}

// NewBalances returns an empty effect store.
func NewBalances() *Balances { return &Balances{cents: make(map[string]int64)} }

// Handler applies one payment. It is a message.HandlerFunc.
func (b *Balances) Handler(msg *message.Message) ([]*message.Message, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cents[msg.Metadata[OrderField]] += Amount
	b.applies++
	return nil, nil
}

// Balance returns the cents applied to an order.
func (b *Balances) Balance(orderID string) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cents[orderID]
}

// Applies reports how many effects were applied.
func (b *Balances) Applies() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.applies
}

// CountingAck is archlab's side of the broker in the comparison: it counts
// acks and keeps nothing, as the Watermill side leaves acking to its router.
type CountingAck struct{ Acks int }

// Ack implements inbox.AckStore.
func (a *CountingAck) Ack(inbox.Message) error {
	a.Acks++
	return nil
}
