package harness

import (
	"errors"
	"fmt"

	"archlab/internal/inbox"
	"archlab/internal/ordering"
)

// The broker side of §8.2 and §8.3. The harness's verbs (deliver, ack,
// publish, dispatch, requeue, dead-letter, replay) call these interfaces;
// the in-memory model is the default implementation, and a real broker
// (adapters/broker/natsbroker, adapters/broker/kafkabroker) is an adapter
// that speaks this vocabulary. The harness imports no broker client: the
// command builds the Env.

// InboxBroker is §8.2's at-least-once broker, seen from the harness.
type InboxBroker interface {
	// Deliver delivers m once more and returns the broker's delivery count
	// of m, counting this one, or 0 for a broker that keeps none (the
	// model: the harness counts). The first call publishes m. An unacked m
	// comes back when the broker redelivers it (a real broker: after its
	// ack timeout); an acked m comes back only when replay asks for it
	// (a real broker: a seek back to m's position).
	Deliver(m inbox.Message, replay bool) (int, error)
	// Ack sends the ack of m's last delivery. lost keeps it from the
	// broker: then Ack returns inbox.ErrAckLost.
	Ack(m inbox.Message, lost bool) error
	// Acks counts the ack attempts, lost ones included; Acked reports
	// whether the broker holds m as acknowledged.
	Acks() int
	Acked(m inbox.Message) bool
	// Name is the broker as --trace names it: "memory", "nats (embedded)".
	Name() string
	Close() error
}

// memoryInbox is the book's broker: inbox.MemoryAck. It keeps no
// delivery count (the harness does), so the explorer's millions of
// deliveries cost no map.
type memoryInbox struct {
	acks *inbox.MemoryAck
}

func (b *memoryInbox) Deliver(inbox.Message, bool) (int, error) { return 0, nil }

// Ack asks MemoryAck; a lost ack is MemoryAck.LoseNext (the student's
// handler may have set it already).
func (b *memoryInbox) Ack(m inbox.Message, lost bool) error {
	if lost {
		b.acks.LoseNext()
	}
	return b.acks.Ack(m)
}

func (b *memoryInbox) Acks() int                  { return b.acks.Acks() }
func (b *memoryInbox) Acked(m inbox.Message) bool { return b.acks.Acked(m) }
func (b *memoryInbox) Name() string               { return "memory" }
func (b *memoryInbox) Close() error               { return nil }

// OrderingBroker is §8.3's broker, seen from the harness: a queue the
// consumer reads in order, where a retried event goes to the back; a
// dead-letter queue; an append-only log read by offset; a partitioner.
type OrderingBroker interface {
	// Publish puts e at the back of the queue with its delivery count.
	Publish(e ordering.Event, attempt int) error
	// Next takes the queue's next delivery; ok is false when it is empty.
	Next() (e ordering.Event, attempt int, ok bool, err error)
	// DeadLetter puts an entry on the dead-letter queue; DeadLetters reads
	// it back, oldest first.
	DeadLetter(d ordering.DLQEntry) error
	DeadLetters() ([]ordering.DLQEntry, error)
	// Append appends e to the log and returns its length; NextBatch and
	// Len are ordering.Log's contract, on the broker's offsets.
	Append(e ordering.Event) (int, error)
	NextBatch(offset, size int) ([]ordering.Event, int, error)
	Len() (int, error)
	// Partition is the partition the broker put orderID's record on, of
	// partitions, routed by ordering.Partition.
	Partition(orderID string, partitions int) (int, error)
	Name() string
	Close() error
}

// OrderingEnv says where a §8.3 run's broker lives. The zero OrderingEnv
// is the book's: a slice, an ordering.Log, ordering.Partition.
type OrderingEnv struct {
	// Broker opens the broker for one run; nil is the in-memory model.
	Broker func() (OrderingBroker, error)
}

// memoryOrdering is the book's broker.
type memoryOrdering struct {
	queue []queued
	dlq   []ordering.DLQEntry
	log   *ordering.Log
}

type queued struct {
	event   ordering.Event
	attempt int
}

func (b *memoryOrdering) Publish(e ordering.Event, attempt int) error {
	b.queue = append(b.queue, queued{event: e, attempt: attempt})
	return nil
}

func (b *memoryOrdering) Next() (ordering.Event, int, bool, error) {
	if len(b.queue) == 0 {
		return ordering.Event{}, 0, false, nil
	}
	d := b.queue[0]
	b.queue = b.queue[1:]
	return d.event, d.attempt, true, nil
}

func (b *memoryOrdering) DeadLetter(d ordering.DLQEntry) error {
	b.dlq = append(b.dlq, d)
	return nil
}

func (b *memoryOrdering) DeadLetters() ([]ordering.DLQEntry, error) {
	return append([]ordering.DLQEntry(nil), b.dlq...), nil
}

func (b *memoryOrdering) Append(e ordering.Event) (int, error) { return b.log.Append(e), nil }
func (b *memoryOrdering) NextBatch(offset, size int) ([]ordering.Event, int, error) {
	return b.log.NextBatch(offset, size)
}
func (b *memoryOrdering) Len() (int, error) { return b.log.Len(), nil }
func (b *memoryOrdering) Partition(orderID string, partitions int) (int, error) {
	return ordering.Partition(orderID, partitions), nil
}
func (b *memoryOrdering) Name() string { return "memory" }
func (b *memoryOrdering) Close() error { return nil }

// BrokerError is a broker that failed under a run: it could not be
// reached, or it answered an operation with an error. The command reports
// it as "could not run", not as a drill that disagrees with the book.
type BrokerError struct {
	Broker string // "nats", "kafka"
	Op     string // what the harness asked: "deliver pay:evt-1", "publish e1"
	Err    error
}

func (e *BrokerError) Error() string { return fmt.Sprintf("%s broker: %s: %v", e.Broker, e.Op, e.Err) }
func (e *BrokerError) Unwrap() error { return e.Err }

// IsBrokerError reports whether err came from a real broker.
func IsBrokerError(err error) bool {
	var be *BrokerError
	return errors.As(err, &be)
}
