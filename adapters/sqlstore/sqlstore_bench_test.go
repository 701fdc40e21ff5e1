package sqlstore

// What one ApplyOnce costs as a real local transaction, beside the book's
// in-memory Ledger measured in the same run:
//
//	go test ./adapters/sqlstore -run '^$' -bench . -benchmem -count=6 | benchstat -
//
// Each iteration applies a new message (a new key: BEGIN IMMEDIATE, insert
// the key, upsert the balance, count the effect, COMMIT). synchronous=NORMAL
// in WAL mode writes the WAL without an fsync per commit (a killed process
// loses nothing, a power cut may lose the last commits); FULL fsyncs the
// WAL on every COMMIT, which is what makes a commit survive a power cut.
// The duplicate benchmark is a redelivery: the INSERT finds the key and the
// transaction rolls back.
//
// The file lives in the benchmark's temporary directory: run it on a real
// disk (not a tmpfs) for the fsync to mean anything.

import (
	"fmt"
	"path/filepath"
	"testing"

	"archlab/internal/inbox"
)

func benchMessages(n int) []inbox.Message {
	msgs := make([]inbox.Message, n)
	for i := range msgs {
		msgs[i] = inbox.Message{Producer: "pay", ID: fmt.Sprint("evt-", i), Seq: int64(i), OrderID: fmt.Sprint("o-", i%1024), AmountCents: 100}
	}
	return msgs
}

func BenchmarkApplyOnce(b *testing.B) {
	b.Run("memory", func(b *testing.B) {
		l := inbox.NewLedger()
		msgs := benchMessages(b.N)
		b.ResetTimer()
		for i := range b.N {
			if ok, _ := l.ApplyOnce(msgs[i]); !ok {
				b.Fatal("a new key must apply")
			}
		}
	})
	for _, sync := range []string{"NORMAL", "FULL"} {
		b.Run("sqlite-"+sync, func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "bench.db"), Options{Synchronous: sync})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			msgs := benchMessages(b.N)
			b.ResetTimer()
			for i := range b.N {
				if ok, err := s.ApplyOnce(msgs[i]); !ok || err != nil {
					b.Fatal("a new key must apply:", err)
				}
			}
		})
	}
}

func BenchmarkApplyOnceDuplicate(b *testing.B) {
	m := inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}
	b.Run("memory", func(b *testing.B) {
		l := inbox.NewLedger()
		l.ApplyOnce(m)
		b.ResetTimer()
		for range b.N {
			if ok, _ := l.ApplyOnce(m); ok {
				b.Fatal("a redelivery must be a duplicate")
			}
		}
	})
	b.Run("sqlite-NORMAL", func(b *testing.B) {
		s, err := Open(filepath.Join(b.TempDir(), "bench.db"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		s.ApplyOnce(m)
		b.ResetTimer()
		for range b.N {
			if ok, err := s.ApplyOnce(m); ok || err != nil {
				b.Fatal("a redelivery must be a duplicate:", err)
			}
		}
	})
}
