package ordering_test

// Benchmarks for the 8.3 mechanism, each beside its baseline so one run gives
// the ratio:
//
//	go test ./internal/ordering -run '^$' -bench . -benchmem -count=6 | benchstat -col /impl -
//
// The baseline for Apply and Handle is a mutex-guarded map update that makes
// the same version check (duplicate, gap, next) with none of the rest: no
// event-type state machine, no error values with context, no outcome. The
// baseline for Partition is FNV-1a written out over the string's bytes.

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"archlab/internal/ordering"
)

// types are the event types in version order: version v is types[v-1].
var types = [...]string{"reserve", "pay", "fulfill"}

// eventStream hands out event i of a stream in which each order goes through
// reserve, pay and fulfill in turn. The order IDs are built before the timer
// starts; assembling an Event from them allocates nothing.
type eventStream struct {
	orders []string
}

// round is how many events one projection sees before the benchmark starts
// over with an empty one (untimed), so the map's size, and with it ns/op,
// does not depend on b.N.
const round = 1 << 16

func newEventStream() *eventStream {
	s := &eventStream{orders: make([]string, round/3+1)}
	for i := range s.orders {
		s.orders[i] = fmt.Sprintf("order-%d", i)
	}
	return s
}

// event is event i of a round. shape picks the stream:
//   - "advance": every event is the next version of its order;
//   - "redeliver10pct": every 10th event is a redelivery of the one before
//     (inserted, not in place of an event), which the projection must count
//     as a duplicate;
//   - "conflict": every event is pay (v2) for an order still at v0, as when
//     pay overtakes reserve; it is refused as a conflict, again and again.
func (s *eventStream) event(i int, shape string) ordering.Event {
	i %= round
	switch shape {
	case "redeliver10pct":
		// Ten positions carry nine events: the tenth repeats the ninth,
		// so no event is skipped and no order sees a gap.
		i = i/10*9 + min(i%10, 8)
	case "conflict":
		id := s.orders[i%len(s.orders)]
		return ordering.Event{ID: id, OrderID: id, Version: 2, Type: "pay"}
	}
	id := s.orders[i/3]
	v := int64(i%3 + 1)
	return ordering.Event{ID: id, OrderID: id, Version: v, Type: types[v-1]}
}

var shapes = []string{"advance", "redeliver10pct", "conflict"}

// errGap is the baseline's conflict: a sentinel, so it costs nothing to make.
var errGap = errors.New("gap")

// mapProjection is the baseline: one version per order, under a mutex.
type mapProjection struct {
	mu       sync.Mutex
	versions map[string]int64
}

func (p *mapProjection) apply(e ordering.Event) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cur := p.versions[e.OrderID]
	if e.Version <= cur {
		return false, nil
	}
	if e.Version != cur+1 {
		return false, errGap
	}
	p.versions[e.OrderID] = e.Version
	return true, nil
}

// runEvents feeds the stream to the handler that fresh returns, one event per
// op, starting a new one every round events.
func runEvents(b *testing.B, shape string, fresh func() func(ordering.Event)) {
	s, handle := newEventStream(), fresh()
	i := 0
	for b.Loop() {
		if i > 0 && i%round == 0 {
			b.StopTimer()
			handle = fresh()
			b.StartTimer()
		}
		handle(s.event(i, shape))
		i++
	}
}

func baselineProjection() func(ordering.Event) {
	p := &mapProjection{versions: make(map[string]int64)}
	return func(e ordering.Event) { p.apply(e) }
}

func BenchmarkApply(b *testing.B) {
	for _, shape := range shapes {
		b.Run("stream="+shape+"/impl=baseline", func(b *testing.B) {
			runEvents(b, shape, baselineProjection)
		})
		b.Run("stream="+shape+"/impl=Apply", func(b *testing.B) {
			runEvents(b, shape, func() func(ordering.Event) {
				p := ordering.NewProjection()
				return func(e ordering.Event) { p.Apply(e) }
			})
		})
	}
}

func BenchmarkHandle(b *testing.B) {
	for _, shape := range shapes {
		b.Run("stream="+shape+"/impl=baseline", func(b *testing.B) {
			runEvents(b, shape, baselineProjection)
		})
		b.Run("stream="+shape+"/impl=Handle", func(b *testing.B) {
			runEvents(b, shape, func() func(ordering.Event) {
				c := ordering.NewConsumer(ordering.NewProjection(), 3)
				// Attempt 1 of 3: a conflict is retried, never dead-lettered,
				// so the DLQ does not grow with b.N.
				return func(e ordering.Event) { c.Handle(e, 1) }
			})
		})
	}
}

// fnv1a is FNV-1a over the string's bytes, written out: what Partition
// computes, with no hash.Hash value and no []byte conversion.
func fnv1a(s string, partitions int) int {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return int(h % uint32(partitions))
}

func BenchmarkPartition(b *testing.B) {
	ids := make([]string, 1024)
	for i := range ids {
		ids[i] = fmt.Sprintf("order-%d", i)
	}
	for _, id := range ids {
		if got, want := ordering.Partition(id, 16), fnv1a(id, 16); got != want {
			b.Fatalf("Partition(%s) = %d, the baseline says %d: they must compute the same hash", id, got, want)
		}
	}
	b.Run("impl=baseline", func(b *testing.B) {
		i := 0
		for b.Loop() {
			fnv1a(ids[i%len(ids)], 16)
			i++
		}
	})
	b.Run("impl=Partition", func(b *testing.B) {
		i := 0
		for b.Loop() {
			ordering.Partition(ids[i%len(ids)], 16)
			i++
		}
	})
}
