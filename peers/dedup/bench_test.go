package dedup

// Throughput of the same stream through Watermill's Deduplicator and
// archlab's inbox, one delivery per op:
//
//	cd peers && go test ./dedup -run '^$' -bench . -benchmem -benchtime=1000000x -count=6 | benchstat -col /impl -
//
// impl=watermill comes first in each benchmark, so benchstat's "vs base"
// column reads as archlab (and the bare repository) against Watermill. A fixed -benchtime (N deliveries) gives
// both tables the same final size; with the default, each table grows to
// however many deliveries its b.N reaches.
//
// DedupTable is the dedup check itself: impl=watermill is
// Deduplicator.IsDuplicate (key from metadata, a context with the timeout,
// the repository), impl=watermill-repo the bare ExpiringKeyRepository, and
// impl=archlab is Ledger.ApplyOnce, which also applies the effect in the same
// critical section: archlab has no dedup check without the effect, by design.
//
// Handler is a whole consumer step for one delivery: impl=watermill is the
// Deduplicator's middleware around a handler that applies the payment,
// impl=archlab is Consume (ApplyOnce, then the ack). Neither pays for a
// broker; see CountingAck.

import (
	"context"
	"testing"

	"archlab/internal/inbox"

	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
)

// chunk is how many deliveries are built at a time, untimed.
const chunk = 8192

// runDeliveries calls handle for each delivery, one per op. Deliveries are
// numbered on from 0 across the whole benchmark, so every key is new to the
// one table a benchmark uses, except the redeliveries.
func runDeliveries(b *testing.B, handle func(s *Stream, i int)) {
	s := NewStream(0, chunk)
	i := 0
	for b.Loop() {
		if i == chunk {
			b.StopTimer()
			s.Fill(s.First + chunk)
			i = 0
			b.StartTimer()
		}
		handle(s, i)
		i++
	}
}

func newDeduplicator(b *testing.B) *middleware.Deduplicator {
	d, err := NewDeduplicator()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkDedupTable(b *testing.B) {
	b.Run("impl=watermill", func(b *testing.B) {
		d := newDeduplicator(b)
		runDeliveries(b, func(s *Stream, i int) {
			if _, err := d.IsDuplicate(s.Watermill[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("impl=watermill-repo", func(b *testing.B) {
		repo := newDeduplicator(b).Repository
		ctx := context.Background()
		runDeliveries(b, func(s *Stream, i int) {
			if _, err := repo.IsDuplicate(ctx, s.Watermill[i].Metadata[KeyField]); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("impl=archlab", func(b *testing.B) {
		l := inbox.NewLedger()
		runDeliveries(b, func(s *Stream, i int) {
			if _, err := l.ApplyOnce(s.Archlab[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
}

func BenchmarkHandler(b *testing.B) {
	b.Run("impl=watermill", func(b *testing.B) {
		h := newDeduplicator(b).Middleware(NewBalances().Handler)
		runDeliveries(b, func(s *Stream, i int) {
			if _, err := h(s.Watermill[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("impl=archlab", func(b *testing.B) {
		l, ack := inbox.NewLedger(), &CountingAck{}
		runDeliveries(b, func(s *Stream, i int) {
			if _, err := inbox.Consume(l, s.Archlab[i], ack); err != nil {
				b.Fatal(err)
			}
		})
	})
}
