package drills

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"archlab/adapters/consumerproc"
	"archlab/adapters/sqlstore"
	"archlab/harness"
	"archlab/internal/inbox"
)

// TestMain lets this test binary be the consumer process of --crash real:
// the drills' Spawner starts it again with consumerproc.ChildEnv=1.
func TestMain(m *testing.M) {
	if os.Getenv(consumerproc.ChildEnv) == "1" {
		os.Exit(consumerproc.Main())
	}
	os.Exit(m.Run())
}

// storeDrills are the drills whose consumer's store can be a real one:
// every drill of a section that says so (harness.Section.RealStore).
func storeDrills(t *testing.T) []*Drill {
	var out []*Drill
	for _, d := range All() {
		if d.Sec().RealStore {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		t.Fatal("no section's drills take a store")
	}
	return out
}

// sqliteEnv opens a fresh SQLite file for a run; with real, every delivery
// goes to a consumer process (this test binary) killed for real.
func sqliteEnv(t *testing.T, real bool) (harness.Env, string) {
	path := filepath.Join(t.TempDir(), "inbox.db")
	env := harness.InboxEnv{Open: func(onSQL func(harness.Statement)) (inbox.Store, error) {
		return consumerproc.OpenStore(path, onSQL)
	}}
	if real {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		env.Consumer = func() harness.Consumer {
			return &consumerproc.Spawner{Context: t.Context(), Command: []string{exe}, DB: path}
		}
	}
	return harness.Env{Inbox: env}, path
}

// TestBookCountersOnSQLite: the five 8.2 drills print the book's counters
// on a real SQLite file, with the crash modelled in one process and with a
// consumer process killed by a real SIGKILL; and both runs leave the file
// with the same keys, balances and effect count (TestSQLStoreEqualsLedger
// ties the in-process file to the Ledger).
func TestBookCountersOnSQLite(t *testing.T) {
	for _, d := range storeDrills(t) {
		t.Run(d.Name, func(t *testing.T) {
			var files [2]fileState
			for i, real := range []bool{false, true} {
				env, path := sqliteEnv(t, real)
				res, err := d.RunIn(d.Defaults(), env)
				if err != nil {
					t.Fatal(err)
				}
				if res.Err != nil || !res.Pass {
					t.Fatalf("real=%v: err=%v pass=%v counters=%v checks=%v", real, res.Err, res.Pass, res.Counters, res.Checks)
				}
				for i, c := range res.Counters {
					if c.Value != d.Book[i].Value {
						t.Errorf("real=%v: %s=%s, the book prints %s", real, c.Name, c.Value, d.Book[i].Value)
					}
				}
				sawSQL, sawPid := false, false
				for _, s := range res.Steps {
					sawSQL = sawSQL || s.Target == "database"
					sawPid = sawPid || s.Action.Key == "step.sql-pid"
				}
				files[i] = readFile(t, path)
				// A modelled crash inside the one transaction a run makes
				// (ack-before-effect) sends no statement: the model stops
				// before it. A real process is killed inside it.
				wantSQL := real || fmt.Sprint(files[i]) != fmt.Sprint(fileState{})
				// The lab's designs (a durable inbox, an outbox, a lease) run
				// in this process whatever the run's consumer
				// (harness/inbox_durable.go): no pid.
				wantPid := real && harness.LabStudents(harness.Strategy(d.Strategy)) == nil
				if sawSQL != wantSQL || sawPid != wantPid {
					t.Fatalf("real=%v: trace has SQL steps %v, process ids %v; want SQL %v, and pids only with real processes", real, sawSQL, sawPid, wantSQL)
				}
			}
			if fmt.Sprint(files[0]) != fmt.Sprint(files[1]) {
				t.Fatalf("in one process: %+v\nkilled for real: %+v", files[0], files[1])
			}
		})
	}
}

// fileState is what a drill left in its database.
type fileState struct {
	keys     []sqlstore.Key
	balances map[string]int64
	applies  int
}

func readFile(t *testing.T, path string) fileState {
	t.Helper()
	s, err := sqlstore.Open(path, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys, err := s.Keys()
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Balances()
	if err != nil {
		t.Fatal(err)
	}
	return fileState{keys, b, s.Applies()}
}

// tee is a Store that sends every call to the book's Ledger and to a SQL
// store and records any answer on which they differ, plus every message it
// saw (for the key comparison afterwards).
type tee struct {
	mem  *inbox.Ledger
	sql  *sqlstore.Store
	msgs []inbox.Message
	diff []string
}

func (s *tee) saw(m inbox.Message) {
	if !slices.Contains(s.msgs, m) {
		s.msgs = append(s.msgs, m)
	}
}

func (s *tee) differ(call string, a, b any) {
	if a != b {
		s.diff = append(s.diff, fmt.Sprintf("%s: ledger %v, sql %v", call, a, b))
	}
}

func (s *tee) ApplyOnce(m inbox.Message) (bool, error) {
	s.saw(m)
	a, _ := s.mem.ApplyOnce(m)
	b, err := s.sql.ApplyOnce(m)
	s.differ("ApplyOnce "+m.String(), a, b)
	return a, err
}

func (s *tee) NaiveApply(m inbox.Message) {
	s.saw(m)
	s.mem.NaiveApply(m)
	s.sql.NaiveApply(m)
}

func (s *tee) MarkBeforeEffect(m inbox.Message, crash bool) error {
	s.saw(m)
	a := s.mem.MarkBeforeEffect(m, crash)
	b := s.sql.MarkBeforeEffect(m, crash)
	s.differ("MarkBeforeEffect "+m.String(), a, b)
	return a
}

func (s *tee) Mark(m inbox.Message) (bool, error) {
	s.saw(m)
	a, _ := s.mem.Mark(m)
	b, err := s.sql.Mark(m)
	s.differ("Mark "+m.String(), a, b)
	return a, err
}

func (s *tee) Effect(m inbox.Message) error {
	s.saw(m)
	a := s.mem.Effect(m)
	b := s.sql.Effect(m)
	s.differ("Effect "+m.String(), a, b)
	return a
}

func (s *tee) Prune(maxSeq int64) int {
	a, b := s.mem.Prune(maxSeq), s.sql.Prune(maxSeq)
	s.differ(fmt.Sprint("Prune ", maxSeq), a, b)
	return a
}

func (s *tee) Balance(id string) int64 {
	a, b := s.mem.Balance(id), s.sql.Balance(id)
	s.differ("Balance "+id, a, b)
	return a
}

func (s *tee) Applies() int {
	a, b := s.mem.Applies(), s.sql.Applies()
	s.differ("Applies", a, b)
	return a
}

func (s *tee) Err() error { return s.sql.Err() }

// TestSQLStoreEqualsLedger: each 8.2 drill drives the Ledger and the SQL
// store with the same deliveries; every answer agrees, and afterwards the
// balances and the dedup keys are the same. The keys are compared through
// behaviour (the Ledger does not list them): every message the drill
// delivered is offered once more to both, and both must call it a
// duplicate exactly when the SQL table holds its key.
func TestSQLStoreEqualsLedger(t *testing.T) {
	for _, d := range storeDrills(t) {
		variants := []Values{d.Defaults()}
		for _, p := range d.Params { // and a "what if" at each end of the flag
			for _, x := range []int{p.Min, min(p.Default+3, p.Max)} {
				v := d.Defaults()
				v[p.Name] = x
				variants = append(variants, v)
			}
		}
		for _, v := range variants {
			t.Run(fmt.Sprint(d.Name, v), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "inbox.db")
				sql, err := sqlstore.Open(path, sqlstore.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer sql.Close()
				s := &tee{mem: inbox.NewLedger(), sql: sql}
				res, err := d.RunIn(v, harness.Env{Inbox: harness.InboxEnv{Open: func(func(harness.Statement)) (inbox.Store, error) { return s, nil }}})
				if err != nil || res.Err != nil {
					t.Fatal(err, res.Err)
				}
				if len(s.diff) > 0 {
					t.Fatalf("the stores disagree:\n%v", s.diff)
				}
				compareStores(t, s)
			})
		}
	}
}

// compareStores checks balances, effects and keys of the two stores.
func compareStores(t *testing.T, s *tee) {
	t.Helper()
	balances, err := s.sql.Balances()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range s.msgs {
		if got, want := balances[m.OrderID], s.mem.Balance(m.OrderID); got != want {
			t.Fatalf("balance of %s: sql %d, ledger %d", m.OrderID, got, want)
		}
	}
	if a, b := s.mem.Applies(), s.sql.Applies(); a != b {
		t.Fatalf("effects: ledger %d, sql %d", a, b)
	}
	keys, err := s.sql.Keys()
	if err != nil {
		t.Fatal(err)
	}
	inSQL := map[string]bool{}
	for _, k := range keys {
		inSQL[k.String()] = true
	}
	for _, m := range s.msgs {
		memNew, _ := s.mem.ApplyOnce(m)
		sqlNew, _ := s.sql.ApplyOnce(m)
		if memNew != sqlNew || memNew == inSQL[inbox.DedupKey(m)] {
			t.Fatalf("key %s: ledger holds it %v, sql holds it %v, table lists it %v", m, !memNew, !sqlNew, inSQL[inbox.DedupKey(m)])
		}
	}
}
