package consumerproc

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"archlab/adapters/sqlstore"
	"archlab/harness"
	"archlab/internal/inbox"
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
	return &Spawner{Context: t.Context(), Command: []string{self(t)}, DB: filepath.Join(t.TempDir(), "inbox.db")}
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
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

// state is what the file holds: the effect counter, the order's balance
// and the dedup keys.
type state struct {
	applies int
	balance int64
	keys    int
}

func read(t *testing.T, db *sqlstore.Store) state {
	t.Helper()
	keys, err := db.Keys()
	if err != nil {
		t.Fatal(err)
	}
	s := state{applies: db.Applies(), balance: db.Balance(pay.OrderID), keys: len(keys)}
	if err := db.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKillAtPoint is 8.2's claim with nothing modelled: a consumer process
// runs the strategy's handler (the book's function) and is killed with SIGKILL at one of its points; a
// fresh process gets the redelivery. What survives is what SQLite
// committed: effect-then-ack writes key and effect in one transaction, so
// wherever it dies the payment lands exactly once; naive loses nothing but
// doubles after a commit; mark-before-effect killed between its two
// commits loses the message.
func TestKillAtPoint(t *testing.T) {
	tests := []struct {
		strategy harness.Strategy
		kill     harness.Point
		lastSQL  string // how the killed child's last statement begins, "" for none sent
		applied  bool   // the killed handler had committed the effect
		marked   bool   // ...or the key alone
		killed   state  // the file after the kill
		again    bool   // the redelivery applies the effect
		end      state  // the file after the redelivery
	}{
		// Delivered, nothing written: the redelivery is the first write.
		{harness.EffectThenAck, harness.BeforeWrites, "", false, false,
			state{0, 0, 0}, true, state{1, 2599, 1}},
		// Inside ApplyOnce's transaction, the key written and not
		// committed: the kill rolls it back, the redelivery applies once.
		{harness.EffectThenAck, harness.BetweenWrites, "INSERT INTO processed_keys", false, false,
			state{0, 0, 0}, true, state{1, 2599, 1}},
		// Inside NaiveApply's transaction: nothing commits either.
		{harness.Naive, harness.BetweenWrites, "UPDATE counters", false, false,
			state{0, 0, 0}, true, state{1, 2599, 0}},
		// The key's transaction committed, the effect's never began: the
		// redelivery finds the key and drops the message. Lost.
		{harness.MarkBeforeEffect, harness.BetweenWrites, "COMMIT", false, true,
			state{0, 0, 1}, false, state{0, 0, 1}},
		// Committed, the ack never sent: the redelivery is a duplicate.
		{harness.EffectThenAck, harness.BeforeAck, "COMMIT", true, false,
			state{1, 2599, 1}, false, state{1, 2599, 1}},
		// Committed with no key: the redelivery charges again.
		{harness.Naive, harness.BeforeAck, "COMMIT", true, false,
			state{1, 2599, 0}, true, state{2, 5198, 0}},
	}
	for _, tt := range tests {
		t.Run(string(tt.strategy)+"/"+string(tt.kill), func(t *testing.T) {
			sp := spawner(t)
			first, err := sp.Handle(tt.strategy, pay, tt.kill)
			if err != nil {
				t.Fatal(err)
			}
			if first.Crashed != tt.kill || first.Pid == 0 || !strings.Contains(first.Exit, "killed") {
				t.Fatalf("first delivery: %+v, want killed at %s", first, tt.kill)
			}
			if applied, marked := wrote(first); applied != tt.applied || marked != tt.marked {
				t.Fatalf("first delivery: applied=%v marked=%v, want %v and %v", applied, marked, tt.applied, tt.marked)
			}
			last := ""
			if st := statements(first); len(st) > 0 {
				last = st[len(st)-1].SQL
			}
			if (tt.lastSQL == "") != (last == "") || !strings.HasPrefix(last, tt.lastSQL) {
				t.Fatalf("killed after %q, want a last statement beginning %q: %v", last, tt.lastSQL, statements(first))
			}
			db := reader(t, sp.DB)
			if got := read(t, db); got != tt.killed {
				t.Fatalf("after the kill: %+v, want %+v", got, tt.killed)
			}
			second, err := sp.Handle(tt.strategy, pay, "")
			if err != nil {
				t.Fatal(err)
			}
			if applied, _ := wrote(second); second.Pid == first.Pid || second.Crashed != "" || applied != tt.again || second.Exit != "exit status 0" {
				t.Fatalf("redelivery: %+v, want a fresh process that returns with applied=%v", second, tt.again)
			}
			if got := read(t, db); got != tt.end {
				t.Fatalf("after the redelivery: %+v, want %+v", got, tt.end)
			}
		})
	}
}

// wrote reports what a delivery's writes did: applied the effect, or
// committed a new key without it.
func wrote(out harness.Handled) (applied, marked bool) {
	for _, e := range out.Events {
		if e.Wrote != nil {
			applied = applied || e.Wrote.Applied
			marked = marked || (e.Wrote.NewKey && !e.Wrote.Applied)
		}
	}
	return applied, marked
}

// statements are the SQL statements a delivery sent.
func statements(out harness.Handled) []harness.Statement {
	var st []harness.Statement
	for _, e := range out.Events {
		if e.SQL != nil {
			st = append(st, *e.SQL)
		}
	}
	return st
}

// TestKillAtTheNextPoint: a kill asked between the writes stays armed
// after the first write. A duplicate under effect-then-ack rolls back at its key and
// never passes between-writes, so a kill asked there lands before the ack.
func TestKillAtTheNextPoint(t *testing.T) {
	sp := spawner(t)
	if _, err := sp.Handle(harness.EffectThenAck, pay, ""); err != nil {
		t.Fatal(err)
	}
	out, err := sp.Handle(harness.EffectThenAck, pay, harness.BetweenWrites)
	if err != nil {
		t.Fatal(err)
	}
	if applied, _ := wrote(out); out.Crashed != harness.BeforeAck || applied || len(statements(out)) != 3 || statements(out)[2].SQL != "ROLLBACK" {
		t.Fatalf("%+v, want killed before the ack after a rolled-back duplicate", out)
	}
	if got := read(t, reader(t, sp.DB)); got != (state{1, 2599, 1}) {
		t.Fatalf("%+v, want the one effect", got)
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
	out, err := sp.Handle(harness.EffectThenAck, pay, "")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// Killed, not ended by itself: a child left to wait for the lock
	// would fail with SQLITE_BUSY after its busy timeout (5 s) and exit
	// on its own. The 30 s is a guard, not the claim: a busy machine may
	// take seconds to reap a process.
	if !strings.Contains(out.Exit, "killed") || time.Since(start) > 30*time.Second {
		t.Fatalf("the child must be killed at once and waited for: exit %q after %v", out.Exit, time.Since(start))
	}
	conn.ExecContext(t.Context(), "ROLLBACK")
	if r := reader(t, sp.DB); r.Applies() != 0 {
		t.Fatalf("effects=%d after an interrupted delivery", r.Applies())
	}
}

// TestChildErrors: a bad database or an unknown strategy reaches the broker
// as an error naming the process, not as a hang, and the process is waited
// for.
func TestChildErrors(t *testing.T) {
	tests := []struct {
		name     string
		db       func(t *testing.T) string
		strategy harness.Strategy
		kill     harness.Point
		want     string
	}{
		{"directory", func(t *testing.T) string { return t.TempDir() }, harness.EffectThenAck, "", "is a directory"},
		{"unknown-strategy", nil, "at-most-twice", harness.BeforeAck, `unknown strategy "at-most-twice"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := spawner(t)
			if tt.db != nil {
				sp.DB = tt.db(t)
			}
			out, err := sp.Handle(tt.strategy, pay, tt.kill)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "consumer pid") {
				t.Fatalf("err = %v, want one naming the pid and %q", err, tt.want)
			}
			if out.Exit != "exit status 1" || out.Crashed != "" {
				t.Fatalf("%+v, want the child to exit 1 on its own", out)
			}
		})
	}
}

// TestOrphanExits: a child waiting at its kill point whose broker goes away
// (its standard input closes) exits with Orphaned at once instead of
// running the rest of the delivery.
func TestOrphanExits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inbox.db")
	cmd := exec.CommandContext(t.Context(), self(t))
	cmd.Env = append(os.Environ(), ChildEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	events, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer events.Close()
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	req, _ := json.Marshal(request{DB: path, Strategy: harness.EffectThenAck, Msg: pay, KillAt: harness.BeforeWrites})
	stdin.Write(append(req, '\n'))
	var e event
	if err := json.NewDecoder(bufio.NewReader(events)).Decode(&e); err != nil || e.At != harness.BeforeWrites {
		t.Fatalf("first event %+v, %v; want the child at %s", e, err, harness.BeforeWrites)
	}
	stdin.Close() // the broker is gone
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != Orphaned {
		t.Fatalf("exit code %d, want Orphaned (%d)", code, Orphaned)
	}
	if got := read(t, reader(t, path)); got != (state{}) {
		t.Fatalf("%+v, want nothing written", got)
	}
}
