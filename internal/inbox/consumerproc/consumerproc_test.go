package consumerproc

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"archlab/internal/inbox"
	"archlab/internal/inbox/sqlstore"
)

// TestMain lets this test binary be the consumer process: the parent starts
// it again with ChildEnv=1.
func TestMain(m *testing.M) {
	if os.Getenv(ChildEnv) == "1" {
		os.Exit(Main())
	}
	os.Exit(m.Run())
}

var pay = inbox.Message{Producer: "pay", ID: "evt-1", Seq: 1, OrderID: "o-1", AmountCents: 2599}

func spawner(t *testing.T) *Spawner {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Spawner{Context: t.Context(), Command: []string{exe}, DB: filepath.Join(t.TempDir(), "inbox.db")}
}

// reader opens the broker's own connection to the consumer's database.
func reader(t *testing.T, path string) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.Open(path, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestKillAtEveryPointOfApplyOnce is 8.2's claim with nothing modelled: a
// consumer is killed with SIGKILL at each point of ApplyOnce's transaction
// and of the ack; a fresh consumer gets the redelivery. Whatever the point,
// the payment lands exactly once: before COMMIT the kill leaves nothing and
// the redelivery applies it, after COMMIT the redelivery is a duplicate.
func TestKillAtEveryPointOfApplyOnce(t *testing.T) {
	points := []struct {
		at        sqlstore.Point
		committed bool // the first delivery's transaction survived the kill
	}{
		{sqlstore.AfterBegin, false},
		{sqlstore.AfterKey, false},
		{sqlstore.AfterEffect, false},
		{sqlstore.AfterCommit, true},
		{BeforeAck, true},
	}
	for _, p := range points {
		t.Run(string(p.at), func(t *testing.T) {
			sp := spawner(t)
			first, err := sp.Deliver(Delivery{Op: ApplyOnce, Msg: pay, KillAt: p.at})
			if err != nil {
				t.Fatal(err)
			}
			if !first.Killed || first.Acked || !strings.Contains(first.Exit, "killed") {
				t.Fatalf("first delivery: %+v, want killed before its ack", first)
			}
			db := reader(t, sp.DB)
			if got := db.Applies(); got != b2i(p.committed) {
				t.Fatalf("after the kill: effects=%d, want %d", got, b2i(p.committed))
			}
			second, err := sp.Deliver(Delivery{Op: ApplyOnce, Msg: pay})
			if err != nil {
				t.Fatal(err)
			}
			if second.Pid == first.Pid || !second.Acked || second.Applied == p.committed {
				t.Fatalf("redelivery: %+v, want a fresh acked process that applies iff the first did not commit", second)
			}
			keys, err := db.Keys()
			if err != nil {
				t.Fatal(err)
			}
			// No loss, no double.
			if db.Applies() != 1 || db.Balance("o-1") != pay.AmountCents || len(keys) != 1 || db.Err() != nil {
				t.Fatalf("effects=%d balance=%d keys=%v err=%v, want 1, %d, one key", db.Applies(), db.Balance("o-1"), keys, db.Err(), pay.AmountCents)
			}
		})
	}
}

// TestKillBetweenMarkAndEffect: the wrong order with a real crash. The key
// is committed, the process dies, and the redelivery finds the key: lost.
func TestKillBetweenMarkAndEffect(t *testing.T) {
	sp := spawner(t)
	out, err := sp.Deliver(Delivery{Op: MarkBeforeEffect, Msg: pay, KillAt: sqlstore.BetweenMarkAndEffect})
	if err != nil || !out.Killed {
		t.Fatalf("%+v %v", out, err)
	}
	if out.Statements[len(out.Statements)-1].SQL != "COMMIT" {
		t.Fatalf("the kill must come after the mark's COMMIT: %v", out.Statements)
	}
	again, err := sp.Deliver(Delivery{Op: MarkBeforeEffect, Msg: pay})
	if err != nil || again.Applied || !again.Acked {
		t.Fatalf("redelivery %+v %v: want acked, nothing applied", again, err)
	}
	db := reader(t, sp.DB)
	if db.Applies() != 0 || db.Balance("o-1") != 0 {
		t.Fatalf("effects=%d balance=%d, want the message lost", db.Applies(), db.Balance("o-1"))
	}
}

// TestNaiveKilledAfterEffect: the effect commits, the ack never leaves, the
// redelivery charges again.
func TestNaiveKilledAfterEffect(t *testing.T) {
	sp := spawner(t)
	if out, err := sp.Deliver(Delivery{Op: NaiveApply, Msg: pay, KillAt: BeforeAck}); err != nil || !out.Killed || !out.Answered {
		t.Fatalf("%+v %v", out, err)
	}
	if out, err := sp.Deliver(Delivery{Op: NaiveApply, Msg: pay}); err != nil || !out.Acked {
		t.Fatalf("%+v %v", out, err)
	}
	if db := reader(t, sp.DB); db.Applies() != 2 || db.Balance("o-1") != 2*pay.AmountCents {
		t.Fatalf("effects=%d balance=%d", db.Applies(), db.Balance("o-1"))
	}
}

// TestCancelKillsTheChild: a broker interrupted (Ctrl-C) while its consumer
// is busy kills it and waits for it; the consumer's transaction is gone.
func TestCancelKillsTheChild(t *testing.T) {
	sp := spawner(t)
	reader(t, sp.DB) // create the schema
	// Hold the write lock, so the child's BEGIN IMMEDIATE waits in its busy
	// timeout (seconds) when the cancel comes.
	db, err := sql.Open("sqlite", sp.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	sp.Context = ctx
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	out, err := sp.Deliver(Delivery{Op: ApplyOnce, Msg: pay})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if !strings.Contains(out.Exit, "killed") || time.Since(start) > 3*time.Second {
		t.Fatalf("the child must be killed at once and waited for: exit %q after %v", out.Exit, time.Since(start))
	}
	conn.ExecContext(t.Context(), "ROLLBACK")
	if r := reader(t, sp.DB); r.Applies() != 0 {
		t.Fatalf("effects=%d after an interrupted delivery", r.Applies())
	}
}

// TestChildErrors: a bad database reaches the broker as an error naming the
// process, not as a hang.
func TestChildErrors(t *testing.T) {
	sp := spawner(t)
	sp.DB = t.TempDir() // a directory
	_, err := sp.Deliver(Delivery{Op: ApplyOnce, Msg: pay})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("err = %v", err)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
