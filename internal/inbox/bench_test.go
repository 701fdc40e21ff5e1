package inbox_test

// Benchmarks for the 8.2 mechanism, each beside its baseline so one run gives
// the ratio:
//
//	go test ./internal/inbox -run '^$' -bench . -benchmem -count=6 | benchstat -col /impl -
//
// The baseline is the least any in-memory dedup check can cost: a
// mutex-guarded map insert of the same key, built the same way (DedupKey).
// ApplyOnce does that and, in the same critical section, applies the effect
// and files the key in the Seq window that Prune uses.

import (
	"fmt"
	"sync"
	"testing"

	"archlab/internal/inbox"
)

// keySpace hands out message i of a stream of distinct keys without building
// a key per message up front: message i is producer i/side with event ID
// i%side, so side*side distinct keys come from 2*side strings. The strings are
// built before the timer starts; assembling a Message from them in the loop
// allocates nothing, so what the loop measures is the dedup key (built by
// DedupKey inside the call) and the table.
type keySpace struct {
	producers, ids, orders []string
}

const side = 1 << 13 // 8192² = 67M distinct keys, more than any b.N reaches

func newKeySpace() *keySpace {
	ks := &keySpace{
		producers: make([]string, side),
		ids:       make([]string, side),
		orders:    make([]string, 1024),
	}
	for i := range side {
		ks.producers[i] = fmt.Sprintf("p%04d", i)
		ks.ids[i] = fmt.Sprintf("evt-%d", i)
	}
	for i := range ks.orders {
		ks.orders[i] = fmt.Sprintf("o-%d", i)
	}
	return ks
}

// msg is the i-th message of the stream. With redeliver set, every 10th
// message is a redelivery of the one before it (same key, same Seq), as a
// broker sends after a lost ack: ten positions carry nine distinct messages,
// so the stream holds 10% duplicates.
func (ks *keySpace) msg(i int, redeliver bool) inbox.Message {
	if redeliver {
		i = i/10*9 + min(i%10, 8)
	}
	return inbox.Message{
		Producer:    ks.producers[(i/side)%side],
		ID:          ks.ids[i%side],
		Seq:         int64(i),
		OrderID:     ks.orders[i%len(ks.orders)],
		AmountCents: 100,
	}
}

// mapTable is the baseline: the dedup check alone, a map insert under a
// mutex, with no effect and no retention window.
type mapTable struct {
	mu   sync.Mutex
	seen map[string]int64
}

func (t *mapTable) insert(m inbox.Message) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := inbox.DedupKey(m)
	if _, dup := t.seen[key]; dup {
		return false
	}
	t.seen[key] = m.Seq
	return true
}

// nopAck acknowledges without recording, so impl=Consume-nop-ack measures
// what Consume adds to ApplyOnce and nothing of the broker.
type nopAck struct{}

func (nopAck) Ack(inbox.Message) error { return nil }

// streams are the two shapes every dedup benchmark runs over.
var streams = []struct {
	name      string
	redeliver bool
}{
	{"stream=fresh", false},
	{"stream=redeliver10pct", true},
}

// round is how many messages one table sees before the benchmark starts
// over with an empty one (untimed). Without it the table would grow with
// b.N, and since a bigger map misses the cache more, ns/op would depend on
// how many iterations the framework picked: ±50% between runs of the same
// code. With it, every run measures the same thing, filling a table from
// empty to 64K keys, whatever b.N is.
const round = 1 << 16

// runStream feeds the stream to the table that fresh returns, one message per
// op, starting a new table every round messages.
func runStream(b *testing.B, redeliver bool, fresh func() func(inbox.Message)) {
	ks, handle := newKeySpace(), fresh()
	i := 0
	for b.Loop() {
		if i > 0 && i%round == 0 {
			b.StopTimer()
			handle = fresh()
			b.StartTimer()
		}
		handle(ks.msg(i, redeliver))
		i++
	}
}

func baselineTable() func(inbox.Message) {
	t := &mapTable{seen: make(map[string]int64)}
	return func(m inbox.Message) { t.insert(m) }
}

func BenchmarkApplyOnce(b *testing.B) {
	for _, s := range streams {
		b.Run(s.name+"/impl=baseline", func(b *testing.B) {
			runStream(b, s.redeliver, baselineTable)
		})
		b.Run(s.name+"/impl=ApplyOnce", func(b *testing.B) {
			runStream(b, s.redeliver, func() func(inbox.Message) {
				l := inbox.NewLedger()
				return func(m inbox.Message) { l.ApplyOnce(m) }
			})
		})
	}
}

func BenchmarkConsume(b *testing.B) {
	for _, s := range streams {
		b.Run(s.name+"/impl=baseline", func(b *testing.B) {
			runStream(b, s.redeliver, baselineTable)
		})
		b.Run(s.name+"/impl=Consume-nop-ack", func(b *testing.B) {
			runStream(b, s.redeliver, func() func(inbox.Message) {
				l := inbox.NewLedger()
				return func(m inbox.Message) { inbox.Consume(l, m, nopAck{}) }
			})
		})
		// MemoryAck is the lab's broker: it files every acked key in a
		// map of its own, so this is roughly two dedup tables per message.
		b.Run(s.name+"/impl=Consume-MemoryAck", func(b *testing.B) {
			runStream(b, s.redeliver, func() func(inbox.Message) {
				l, ack := inbox.NewLedger(), inbox.NewMemoryAck()
				return func(m inbox.Message) { inbox.Consume(l, m, ack) }
			})
		})
	}
}

// BenchmarkPrune prunes the oldest 1% of a table and reports the cost per
// removed key (ns/key). The table is a sliding window: after each timed
// prune, as many fresh keys as were removed are added with the timer
// stopped, so every iteration prunes 1% of a table of the same size, the way
// a janitor trims a live dedup table.
//
// Two references run beside Prune, on a plain map[string]int64 holding the
// same keys:
//   - baseline deletes exactly the expired keys, found for free (they are
//     the oldest, and the benchmark knows them). It is the least any prune
//     that forgets keys in a Go map can cost; Prune adds finding them.
//   - book-scan is the book's Prune: a scan of the whole table. At 1% it
//     looks at 100 keys per key it removes, at every size.
//
// Removing a fixed share of the table cannot tell O(removed) from O(table):
// the scan's cost per removed key is the same 100 keys at both sizes. So the
// benchmark also removes a fixed 100 keys, where a scan costs 100× more per
// key at 1M than at 10K and Prune should not.
func BenchmarkPrune(b *testing.B) {
	cases := []struct {
		remove string
		size   int
		batch  int
	}{
		{"1pct", 10_000, 100},
		{"1pct", 1_000_000, 10_000},
		{"100", 10_000, 100},
		{"100", 1_000_000, 100},
	}
	for _, c := range cases {
		size, batch := c.size, c.batch
		name := fmt.Sprintf("remove=%s/keys=%s", c.remove, human(size))
		b.Run(name+"/impl=baseline", func(b *testing.B) {
			benchMapPrune(b, size, batch, func(seen map[string]int64, oldest []string, _ int64) int {
				for _, key := range oldest {
					delete(seen, key)
				}
				return len(oldest)
			})
		})
		b.Run(name+"/impl=book-scan", func(b *testing.B) {
			benchMapPrune(b, size, batch, func(seen map[string]int64, _ []string, maxSeq int64) int {
				removed := 0
				for key, seq := range seen {
					if seq <= maxSeq {
						delete(seen, key)
						removed++
					}
				}
				return removed
			})
		})
		b.Run(name+"/impl=Prune", func(b *testing.B) {
			ks, l := newKeySpace(), inbox.NewLedger()
			next := 0
			fill := func(n int) {
				for range n {
					l.ApplyOnce(ks.msg(next, false))
					next++
				}
			}
			fill(size)
			removed := 0
			b.ResetTimer()
			for range b.N {
				// The oldest live Seq is next-size: prune exactly batch keys.
				removed += l.Prune(int64(next - size + batch - 1))
				b.StopTimer()
				fill(batch)
				b.StartTimer()
			}
			reportPerKey(b, removed, batch)
		})
	}
}

// benchMapPrune runs prune over a sliding window of size keys held in a plain
// map, batch keys at a time. prune gets the map, the batch oldest keys and
// the Seq bound that expires exactly them.
func benchMapPrune(b *testing.B, size, batch int, prune func(seen map[string]int64, oldest []string, maxSeq int64) int) {
	ks := newKeySpace()
	seen := make(map[string]int64)
	var live []string // keys in Seq order; live[0] is the oldest
	next := 0
	fill := func(n int) {
		for range n {
			m := ks.msg(next, false)
			key := inbox.DedupKey(m)
			seen[key] = m.Seq
			live = append(live, key)
			next++
		}
	}
	fill(size)
	removed := 0
	b.ResetTimer()
	for range b.N {
		removed += prune(seen, live[:batch], int64(next-size+batch-1))
		b.StopTimer()
		live = live[batch:]
		fill(batch)
		b.StartTimer()
	}
	reportPerKey(b, removed, batch)
}

// reportPerKey adds ns/key, the timed cost per removed key, and fails the
// benchmark if an iteration removed anything but exactly batch keys.
func reportPerKey(b *testing.B, removed, batch int) {
	b.Helper()
	if removed != b.N*batch {
		b.Fatalf("removed %d keys in %d prunes, want %d each", removed, b.N, batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(removed), "ns/key")
}

func human(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dK", n/1000)
	}
	return fmt.Sprint(n)
}
