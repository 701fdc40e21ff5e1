package ordering

import (
	"fmt"
	"sync"
	"testing"
)

// fnv1a is FNV-1a, 32 bits, written out from its definition so the test
// does not trust hash/fnv's choice: offset basis 2166136261, prime
// 16777619, and for each byte XOR first, then multiply (FNV-1 multiplies
// first).
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// TestFNV1aVectors: the hand-written hash is FNV-1a (published vectors).
func TestFNV1aVectors(t *testing.T) {
	for s, want := range map[string]uint32{"": 0x811c9dc5, "a": 0xe40c292c, "foobar": 0xbf9cf968} {
		if got := fnv1a(s); got != want {
			t.Errorf("fnv1a(%q) = %#x, want %#x", s, got, want)
		}
	}
}

// TestPartitionPinned pins Partition to exact numbers (issue 11: FNV-1
// instead of FNV-1a, or a salted hash, still kept every order on one
// partition and passed). The literals were computed outside Go; the
// hand-written FNV-1a must agree with them too.
func TestPartitionPinned(t *testing.T) {
	tests := []struct {
		order       string
		p4, p8, p16 int
	}{
		{"o-1", 0, 0, 8}, {"o-2", 1, 1, 1}, {"o-3", 2, 6, 14}, {"order-42", 0, 4, 4},
		{"order-1001", 0, 4, 12}, {"A", 0, 4, 12}, {"evt-7", 2, 6, 14}, {"", 1, 5, 5},
	}
	for _, tt := range tests {
		for n, want := range map[int]int{4: tt.p4, 8: tt.p8, 16: tt.p16} {
			if got := Partition(tt.order, n); got != want {
				t.Errorf("Partition(%q, %d) = %d, want %d", tt.order, n, got, want)
			}
			if ref := int(fnv1a(tt.order) % uint32(n)); ref != want {
				t.Errorf("the table is wrong: FNV-1a(%q) mod %d = %d", tt.order, n, ref)
			}
		}
	}
	for i := range 1000 {
		id := fmt.Sprintf("order-%d", i)
		if got, want := Partition(id, 7), int(fnv1a(id)%7); got != want {
			t.Fatalf("Partition(%q, 7) = %d, FNV-1a says %d", id, got, want)
		}
	}
	if Partition("o-1", 0) != 0 || Partition("o-1", -3) != 0 {
		t.Fatal("a non-positive partition count maps to partition 0")
	}
}

// TestDLQConcurrent: many partitions' consumers dead-letter into one
// Consumer at once while others read the queue; run with -race. Every
// poison event is in the queue exactly once, with attempt 1, and every
// reader saw a queue that only grew.
func TestDLQConcurrent(t *testing.T) {
	c := NewConsumer(NewProjection(), 3)
	const writers, each = 8, 50
	var wg, readers sync.WaitGroup
	written := make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				e := Event{ID: fmt.Sprintf("p%d-%d", w, i), OrderID: fmt.Sprintf("o-%d", w), Version: 1, Type: "explode"}
				if out := c.Handle(e, 1); out != OutcomeDead {
					t.Errorf("%s: %s, want dead", e, out)
				}
			}
		})
	}
	for range 4 {
		readers.Go(func() {
			last := 0
			for {
				select {
				case <-written:
					return
				default:
				}
				q := c.DLQ()
				if len(q) < last {
					t.Errorf("the queue shrank from %d to %d", last, len(q))
					return
				}
				last = len(q)
			}
		})
	}
	wg.Wait()
	close(written)
	readers.Wait()
	seen := map[string]int{}
	for _, d := range c.DLQ() {
		seen[d.Event.ID]++
		if d.Attempts != 1 {
			t.Errorf("%s dead-lettered on attempt %d, want 1", d.Event, d.Attempts)
		}
	}
	if len(seen) != writers*each {
		t.Fatalf("%d distinct entries, want %d", len(seen), writers*each)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s is in the queue %d times", id, n)
		}
	}
}
