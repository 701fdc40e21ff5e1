package ordering

import (
	"errors"
	"fmt"
	"sync"
)

var (
	// ErrOffsetOutOfRange means a read asked for an offset outside [0, Len].
	ErrOffsetOutOfRange = errors.New("offset out of range")
	// ErrBatchSize means a read asked for a batch of fewer than one event.
	ErrBatchSize = errors.New("batch size must be at least 1")
)

// Log is an append-only event log read by offset, like one partition of a
// broker topic. Offset n is the position just after the n-th event, so a
// consumer that has processed everything stands at Len.
type Log struct {
	mu     sync.Mutex
	events []Event
}

// NewLog returns a log holding events, in order.
func NewLog(events ...Event) *Log {
	return &Log{events: append([]Event(nil), events...)}
}

// Append adds events to the end and returns the new length.
func (l *Log) Append(events ...Event) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, events...)
	return len(l.events)
}

// Len returns the number of events, which is also the end offset.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.events)
}

// NextBatch reads at most size events from offset and returns them with the
// offset to read next. Reading at Len is a drained read: no events, the same
// offset, no error. An offset outside [0, Len] is ErrOffsetOutOfRange and a
// size below 1 is ErrBatchSize; both return the offset unchanged.
func (l *Log) NextBatch(offset, size int) ([]Event, int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if offset < 0 || offset > len(l.events) {
		return nil, offset, fmt.Errorf("ordering: read at %d, log has [0, %d]: %w", offset, len(l.events), ErrOffsetOutOfRange)
	}
	if size <= 0 {
		return nil, offset, fmt.Errorf("ordering: read %d events at %d: %w", size, offset, ErrBatchSize)
	}
	// Clamp the size before adding: offset+size overflows for a huge size
	// (math.MaxInt, "read everything") and would slice out of range.
	end := offset + min(size, len(l.events)-offset)
	return append([]Event(nil), l.events[offset:end]...), end, nil
}

// ReplayResult reports one replay.
type ReplayResult struct {
	Applied    int // events that advanced the projection
	Duplicates int // events the projection had already seen
	Offset     int // where the replay stopped: Len when it drained the log
}

// Reader is what Replay reads: a Log, or one partition of a real broker's
// topic read with the same contract.
type Reader interface {
	NextBatch(offset, size int) ([]Event, int, error)
}

// Applier is what Replay applies events to: a Projection, or any read
// model with the same version gate (the lab's exercises plug one in).
type Applier interface {
	Apply(e Event) (bool, error)
}

// Replay reads the log from offset in batches of batch events and applies
// each event to p, until the log is drained. Apply is idempotent by version,
// so replaying events p has already seen only counts duplicates. It stops at
// the first event Apply rejects, with Offset pointing at that event.
func Replay(l Reader, p Applier, offset, batch int) (ReplayResult, error) {
	res := ReplayResult{Offset: offset}
	for {
		// The offset advances per event, not per batch, so a failure
		// leaves it on the event that failed.
		events, _, err := l.NextBatch(res.Offset, batch)
		if err != nil {
			return res, err
		}
		if len(events) == 0 {
			return res, nil
		}
		for _, e := range events {
			applied, err := p.Apply(e)
			if err != nil {
				return res, fmt.Errorf("ordering: replay at offset %d: %w", res.Offset, err)
			}
			if applied {
				res.Applied++
			} else {
				res.Duplicates++
			}
			res.Offset++
		}
	}
}
