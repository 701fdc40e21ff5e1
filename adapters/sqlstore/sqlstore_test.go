package sqlstore

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"archlab/internal/inbox"
)

var pay = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

func open(t *testing.T, path string, o Options) *Store {
	t.Helper()
	s, err := Open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newStore(t *testing.T) *Store {
	return open(t, filepath.Join(t.TempDir(), "inbox.db"), Options{})
}

// The book's five 8.2 tests, on SQLite: same calls, same log lines.

func TestSideEffectThenAckLost(t *testing.T) {
	s, ack := newStore(t), inbox.NewMemoryAck()
	ack.LoseNext()
	if applied, err := inbox.Consume(s, pay, ack); !applied || !errors.Is(err, inbox.ErrAckLost) {
		t.Fatalf("first delivery: applied=%v err=%v", applied, err)
	}
	if applied, err := inbox.Consume(s, pay, ack); applied || err != nil {
		t.Fatalf("redelivery: applied=%v err=%v", applied, err)
	}
	if s.Applies() != 1 || s.Balance("o-1") != 2599 || ack.Acks() != 2 || s.Err() != nil {
		t.Fatalf("effects=%d balance=%d acks=%d err=%v", s.Applies(), s.Balance("o-1"), ack.Acks(), s.Err())
	}
	t.Logf("ack-lost: deliveries=2 effects=%d balance=%d acks=%d", s.Applies(), s.Balance("o-1"), ack.Acks())
}

func TestNaiveRedeliveryDoubleApplies(t *testing.T) {
	s := newStore(t)
	s.NaiveApply(pay)
	s.NaiveApply(pay)
	if s.Applies() != 2 || s.Balance("o-1") != 5198 || s.Err() != nil {
		t.Fatalf("effects=%d balance=%d err=%v", s.Applies(), s.Balance("o-1"), s.Err())
	}
	t.Logf("naive-redelivery: deliveries=2 effects=%d balance=%d", s.Applies(), s.Balance("o-1"))
}

func TestDedupKeyIncludesProducer(t *testing.T) {
	s := newStore(t)
	a := inbox.Message{Producer: "checkout", ID: "evt-1", Seq: 1, OrderID: "o-2", AmountCents: 250}
	b := inbox.Message{Producer: "refund", ID: "evt-1", Seq: 1, OrderID: "o-2", AmountCents: 350}
	for _, m := range []inbox.Message{a, b} {
		if ok, err := s.ApplyOnce(m); !ok || err != nil {
			t.Fatalf("ApplyOnce(%s) = %v, %v", m, ok, err)
		}
	}
	if s.Applies() != 2 || s.Balance("o-2") != 600 {
		t.Fatalf("effects=%d balance=%d", s.Applies(), s.Balance("o-2"))
	}
	t.Logf("dedup-scope: producers=2 same_event_id=evt-1 effects=%d balance=%d", s.Applies(), s.Balance("o-2"))
}

func TestPruneOpensReplayWindow(t *testing.T) {
	s := newStore(t)
	old := inbox.Message{Producer: "pay", ID: "evt-7", Seq: 7, OrderID: "o-3", AmountCents: 1200}
	if ok, _ := s.ApplyOnce(old); !ok {
		t.Fatal("first apply must succeed")
	}
	if ok, _ := s.ApplyOnce(old); ok {
		t.Fatal("inside the window the replay must be a duplicate")
	}
	pruned := s.Prune(old.Seq)
	replayed, err := s.ApplyOnce(old)
	if pruned != 1 || !replayed || err != nil || s.Balance("o-3") != 2400 {
		t.Fatalf("pruned=%d replay_applied=%v err=%v balance=%d", pruned, replayed, err, s.Balance("o-3"))
	}
	t.Logf("prune-window: pruned=%d replay_applied=%v balance=%d", pruned, replayed, s.Balance("o-3"))
}

func TestMarkBeforeEffectLosesMessage(t *testing.T) {
	s := newStore(t)
	// The first delivery commits its key and crashes before its effect.
	if marked, err := s.Mark(pay); !marked || err != nil {
		t.Fatalf("crash run: marked=%v err=%v", marked, err)
	}
	// The redelivery finds the key: taken for a duplicate, no effect.
	if marked, err := s.Mark(pay); marked || err != nil {
		t.Fatalf("redelivery: marked=%v err=%v", marked, err)
	}
	if s.Balance("o-1") != 0 || s.Applies() != 0 || s.Err() != nil {
		t.Fatalf("balance=%d effects=%d err=%v", s.Balance("o-1"), s.Applies(), s.Err())
	}
	t.Logf("mark-before-effect: balance=%d effects=%d redelivery_applied=false", s.Balance("o-1"), s.Applies())
}

// TestStatementsAndPoints pins what a trace shows: one transaction per
// ApplyOnce, the duplicate rolled back, NaiveApply's one transaction,
// Mark's and Effect's two, MarkBeforeEffect's two with the point between
// them (none for a duplicate key), and where the point between the writes
// falls inside a transaction.
func TestStatementsAndPoints(t *testing.T) {
	var got []string
	s := open(t, filepath.Join(t.TempDir(), "x.db"), Options{
		OnStatement: func(st Statement) { got = append(got, fmt.Sprintf("%s [%d]", st, st.Rows)) },
		Between:     func() { got = append(got, "@between-writes") },
	})
	s.ApplyOnce(pay)
	s.ApplyOnce(pay)
	s.NaiveApply(pay)
	quoted := inbox.Message{Producer: "p", ID: "it's", Seq: 2, OrderID: "o", AmountCents: 5}
	s.Mark(quoted)
	s.Effect(quoted)
	other := inbox.Message{Producer: "p", ID: "e2", Seq: 3, OrderID: "o", AmountCents: 5}
	if err := s.MarkBeforeEffect(other, true); !errors.Is(err, inbox.ErrSimulatedCrash) {
		t.Fatalf("MarkBeforeEffect(crash): %v, want ErrSimulatedCrash", err)
	}
	if err := s.MarkBeforeEffect(other, false); err != nil {
		t.Fatalf("MarkBeforeEffect on the marked key: %v", err)
	}
	const (
		insertPay = "INSERT INTO processed_keys (producer, event_id, seq, amount) VALUES ('pay', 'evt-1', 1, 2599) ON CONFLICT DO NOTHING"
		addPay    = "INSERT INTO balances (order_id, cents) VALUES ('o-1', 2599) ON CONFLICT (order_id) DO UPDATE SET cents = cents + excluded.cents [1]"
		count     = "UPDATE counters SET value = value + 1 WHERE name = 'applies' [1]"
	)
	want := []string{
		"BEGIN IMMEDIATE [-1]", insertPay + " [1]", "@between-writes", addPay, count, "COMMIT [-1]",
		"BEGIN IMMEDIATE [-1]", insertPay + " [0]", "ROLLBACK [-1]",
		"BEGIN IMMEDIATE [-1]", addPay, count, "@between-writes", "COMMIT [-1]",
		"BEGIN IMMEDIATE [-1]",
		"INSERT INTO processed_keys (producer, event_id, seq, amount) VALUES ('p', 'it''s', 2, 5) ON CONFLICT DO NOTHING [1]",
		"COMMIT [-1]",
		"BEGIN IMMEDIATE [-1]",
		"INSERT INTO balances (order_id, cents) VALUES ('o', 5) ON CONFLICT (order_id) DO UPDATE SET cents = cents + excluded.cents [1]",
		count, "COMMIT [-1]",
		"BEGIN IMMEDIATE [-1]",
		"INSERT INTO processed_keys (producer, event_id, seq, amount) VALUES ('p', 'e2', 3, 5) ON CONFLICT DO NOTHING [1]",
		"COMMIT [-1]", "@between-writes",
		"BEGIN IMMEDIATE [-1]",
		"INSERT INTO processed_keys (producer, event_id, seq, amount) VALUES ('p', 'e2', 3, 5) ON CONFLICT DO NOTHING [0]",
		"ROLLBACK [-1]",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestSurvivesReopen: keys, balances and the effect counter are in the file.
func TestSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inbox.db")
	s, err := Open(path, Options{Synchronous: "full"})
	if err != nil {
		t.Fatal(err)
	}
	s.ApplyOnce(pay)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path, Options{})
	if ok, err := s.ApplyOnce(pay); ok || err != nil {
		t.Fatalf("after reopen the key must still be there: %v %v", ok, err)
	}
	keys, err := s.Keys()
	if err != nil || len(keys) != 1 || keys[0] != (Key{"pay", "evt-1", 1, 2599}) || keys[0].String() != inbox.DedupKey(pay) {
		t.Fatalf("keys = %v, %v", keys, err)
	}
	if s.Applies() != 1 || s.Balance("o-1") != 2599 {
		t.Fatalf("effects=%d balance=%d", s.Applies(), s.Balance("o-1"))
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Balances(); s.Applies() != 0 || len(b) != 0 || err != nil {
		t.Fatalf("after Reset: effects=%d balances=%v err=%v", s.Applies(), b, err)
	}
}

// TestTwoConnectionsApplyOnce: two stores on one file (as two consumer
// processes would be) deliver the same messages concurrently; each effect
// lands once. The busy timeout makes the loser wait, not fail.
func TestTwoConnectionsApplyOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inbox.db")
	stores := []*Store{open(t, path, Options{}), open(t, path, Options{})}
	const messages = 20
	var wg sync.WaitGroup
	for _, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range messages {
				if _, err := s.ApplyOnce(inbox.Message{Producer: "pay", ID: fmt.Sprint("evt-", i), Seq: int64(i), OrderID: "o", AmountCents: 10}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n, b := stores[0].Applies(), stores[1].Balance("o"); n != messages || b != messages*10 {
		t.Fatalf("effects=%d balance=%d, want %d and %d", n, b, messages, messages*10)
	}
}

// TestStickyError: after a failure every method is a no-op and Err keeps
// the first error, as bufio.Scanner does.
func TestStickyError(t *testing.T) {
	s := newStore(t)
	s.conn.Close() // pull the connection from under the store
	s.NaiveApply(pay)
	first := s.Err()
	if first == nil {
		t.Fatal("NaiveApply on a closed connection must record an error")
	}
	if ok, err := s.ApplyOnce(pay); ok || err != first {
		t.Fatalf("ApplyOnce after the error = %v, %v; want false and the first error", ok, err)
	}
	if s.Prune(10) != 0 || s.Balance("o-1") != 0 || s.Applies() != 0 || s.Err() != first || inbox.Err(s) != first {
		t.Fatal("every method must be a no-op that keeps the first error")
	}
}

// TestOpenRefuses: Open says what is wrong with a path and leaves the file
// exactly as it was.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// raw makes a SQLite file with plain database/sql, as another
	// application would.
	raw := func(name string, stmts ...string) string {
		p := filepath.Join(dir, name)
		db, err := sql.Open("sqlite", p)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	newer := filepath.Join(dir, "newer.db")
	s, err := Open(newer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.conn.ExecContext(t.Context(), "PRAGMA user_version = 2")
	s.Close()
	tests := []struct {
		name string
		path string
		want Problem
	}{
		{"directory", dir, IsDirectory},
		{"text file", write("notes.txt", []byte("hello, this is not a database\n")), NotSQLite},
		{"short file", write("short.db", []byte("SQLite")), NotSQLite},
		{"foreign schema", raw("photos.db", "CREATE TABLE photos (id INTEGER)"), ForeignSchema},
		{"other application id", raw("otherapp.db", "PRAGMA application_id = 42"), ForeignSchema},
		{"newer schema", newer, NewerSchema},
		{"missing directory", filepath.Join(dir, "no", "such", "dir.db"), CannotOpen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.path)
			_, err := Open(tt.path, Options{})
			var oe *OpenError
			if !errors.As(err, &oe) || oe.Problem != tt.want {
				t.Fatalf("Open(%s) = %v, want problem %d", tt.path, err, tt.want)
			}
			if strings.Contains(oe.Error(), "\n") {
				t.Fatalf("error must be one line: %q", oe.Error())
			}
			after, _ := os.ReadFile(tt.path)
			if !bytes.Equal(before, after) {
				t.Fatal("Open modified a file it refused")
			}
		})
	}
	if os.Geteuid() != 0 { // root reads any file
		t.Run("unreadable", func(t *testing.T) {
			p := write("secret.db", []byte("x"))
			os.Chmod(p, 0)
			var oe *OpenError
			if _, err := Open(p, Options{}); !errors.As(err, &oe) || oe.Problem != Unreadable {
				t.Fatalf("err = %v", err)
			}
		})
	}
	t.Run("empty file is a new database", func(t *testing.T) {
		s := open(t, write("empty.db", nil), Options{})
		if ok, err := s.ApplyOnce(pay); !ok || err != nil {
			t.Fatal(ok, err)
		}
	})
	t.Run("bad synchronous", func(t *testing.T) {
		if _, err := Open(filepath.Join(dir, "s.db"), Options{Synchronous: "OFF"}); err == nil {
			t.Fatal("synchronous=OFF must be refused: it gives up durability")
		}
	})
}
