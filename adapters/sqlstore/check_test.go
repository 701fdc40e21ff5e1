package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// snapshot is a directory as a test compares it: each file's name and the
// hash of its bytes.
func snapshot(t testing.TB, dir string) map[string][32]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][32]byte{}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = sha256.Sum256(b)
	}
	return out
}

func sameSnapshot(a, b map[string][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func names(m map[string][32]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// archlabFile makes a fresh archlab database at path, then runs stmts on it
// with plain database/sql, as someone editing the file would.
func archlabFile(t testing.TB, path string, stmts ...string) string {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// TestWantTablesMatchSchema: the check's picture of version 1 is what
// schema creates, column by column.
func TestWantTablesMatchSchema(t *testing.T) {
	path := archlabFile(t, filepath.Join(t.TempDir(), "a.db"))
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for name, want := range wantTables {
		got, err := tableInfo(context.Background(), db, name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: table_xinfo %v, wantTables %v", name, got, want)
		}
	}
	for name, want := range wantIndexList {
		got, err := indexList(context.Background(), db, name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: index_list %v, wantIndexList %v", name, got, want)
		}
	}
	if d, err := checkSchema(context.Background(), db); d != "" || err != nil {
		t.Fatalf("checkSchema of a fresh file = %q, %v", d, err)
	}
}

// TestOpenRefusesWrongSchema: a file with archlab's mark and version but
// other tables is refused before any write (issue 11: a dropped primary key
// made ack-lost count effects=2; a dropped table failed the drill), and
// the directory is left byte for byte as it was: no -wal, -shm or .lock.
func TestOpenRefusesWrongSchema(t *testing.T) {
	tests := []struct {
		name   string
		stmts  []string
		detail string
	}{
		{"primary key dropped", []string{
			"CREATE TABLE t2 (producer TEXT NOT NULL, event_id TEXT NOT NULL, seq INTEGER NOT NULL, amount INTEGER NOT NULL)",
			"DROP TABLE processed_keys", "ALTER TABLE t2 RENAME TO processed_keys",
			"CREATE INDEX processed_keys_by_seq ON processed_keys (seq)"},
			"table processed_keys: column producer is not in the primary key"},
		{"primary key of one column", []string{
			"CREATE TABLE t2 (producer TEXT NOT NULL, event_id TEXT NOT NULL PRIMARY KEY, seq INTEGER NOT NULL, amount INTEGER NOT NULL)",
			"DROP TABLE processed_keys", "ALTER TABLE t2 RENAME TO processed_keys",
			"CREATE INDEX processed_keys_by_seq ON processed_keys (seq)"},
			"table processed_keys: column producer is not in the primary key"},
		{"balances without its key", []string{
			"CREATE TABLE b2 (order_id TEXT, cents INTEGER NOT NULL)", "DROP TABLE balances", "ALTER TABLE b2 RENAME TO balances"},
			"table balances: column order_id is not in the primary key"},
		{"table missing", []string{"DROP TABLE balances"}, "table balances is missing"},
		{"counters missing", []string{"DROP TABLE counters"}, "table counters is missing"},
		{"column missing", []string{"ALTER TABLE processed_keys DROP COLUMN amount"}, "table processed_keys: column amount is missing"},
		{"column added", []string{"ALTER TABLE balances ADD COLUMN note TEXT"}, "table balances: column note is not archlab's"},
		{"column retyped", []string{
			"CREATE TABLE c2 (name TEXT PRIMARY KEY, value TEXT NOT NULL)", "INSERT INTO c2 SELECT * FROM counters",
			"DROP TABLE counters", "ALTER TABLE c2 RENAME TO counters"},
			"table counters: column value is TEXT, not INTEGER"},
		{"NOT NULL dropped", []string{
			"CREATE TABLE b2 (order_id TEXT PRIMARY KEY, cents INTEGER)", "DROP TABLE balances", "ALTER TABLE b2 RENAME TO balances"},
			"table balances: column cents may be NULL"},
		{"index missing", []string{"DROP INDEX processed_keys_by_seq"}, "index processed_keys_by_seq is missing"},
		// Issue 37: the check compared names only, and these passed
		// (archlab's index made UNIQUE made dedup-scope count effects=1).
		{"index made UNIQUE", []string{"DROP INDEX processed_keys_by_seq", "CREATE UNIQUE INDEX processed_keys_by_seq ON processed_keys (seq)"},
			"index processed_keys_by_seq is UNIQUE, and archlab's is not"},
		{"index on another column", []string{"DROP INDEX processed_keys_by_seq", "CREATE INDEX processed_keys_by_seq ON processed_keys (amount)"},
			"index processed_keys_by_seq is on (amount), and archlab's on (seq)"},
		{"index made partial", []string{"DROP INDEX processed_keys_by_seq", "CREATE INDEX processed_keys_by_seq ON processed_keys (seq) WHERE amount > 0"},
			"index processed_keys_by_seq is partial (CREATE INDEX … WHERE), and archlab's is not"},
		{"a UNIQUE column", []string{
			"CREATE TABLE b2 (order_id TEXT PRIMARY KEY, cents INTEGER NOT NULL UNIQUE)", "DROP TABLE balances", "ALTER TABLE b2 RENAME TO balances"},
			"table balances: the UNIQUE index on cents is not archlab's"},
		{"a trigger", []string{"CREATE TRIGGER more AFTER INSERT ON balances BEGIN UPDATE counters SET value = value + 1; END"},
			"trigger more is not archlab's"},
		{"a table of someone else's", []string{"CREATE TABLE notes (x)"}, "table notes is not archlab's"},
		{"counter row missing", []string{"DELETE FROM counters"}, "counter 'applies' is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := archlabFile(t, filepath.Join(dir, "a.db"), tt.stmts...)
			before := snapshot(t, dir)
			for _, open := range []func() error{
				func() error { _, err := Open(path, Options{}); return err },
				func() error { _, err := Lock(path); return err },
			} {
				var oe *OpenError
				if err := open(); !errors.As(err, &oe) || oe.Problem != WrongSchema || oe.Detail != tt.detail {
					t.Fatalf("err = %v, want WrongSchema: %s", err, tt.detail)
				}
				if after := snapshot(t, dir); !sameSnapshot(before, after) {
					t.Fatalf("the directory changed: %v, was %v", names(after), names(before))
				}
			}
		})
	}
}

// TestRefusedFileGetsNoSideFiles: every refused file is left byte for byte
// as it was, with nothing created beside it (before issue 11 a newer or
// foreign file got a -wal and a -shm).
func TestRefusedFileGetsNoSideFiles(t *testing.T) {
	dir := t.TempDir()
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
	newer := archlabFile(t, filepath.Join(dir, "newer.db"), "PRAGMA user_version = 2")
	foreignWAL := raw("wal.db", "PRAGMA journal_mode=WAL", "CREATE TABLE photos (id INTEGER)")
	foreign := raw("photos.db", "CREATE TABLE photos (id INTEGER)")
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("not a database\n"), 0o644)
	for _, path := range []string{newer, foreignWAL, foreign, text} {
		before := snapshot(t, dir)
		_, err1 := Open(path, Options{})
		_, err2 := Lock(path)
		if err1 == nil || err2 == nil {
			t.Fatalf("%s: accepted (%v, %v)", path, err1, err2)
		}
		if after := snapshot(t, dir); !sameSnapshot(before, after) {
			t.Fatalf("%s: the directory changed: %v, was %v", filepath.Base(path), names(after), names(before))
		}
	}
}

// fakeAccess makes access refuse paths as a read-only file or directory
// would, for the length of a test: the tests run as root in CI, and root
// writes a file whatever its mode.
func fakeAccess(t *testing.T, deny func(path string) bool) {
	t.Cleanup(func() { access = unix.Access })
	access = func(path string, mode uint32) error {
		if mode&unix.W_OK != 0 && deny(path) {
			return unix.EACCES
		}
		return unix.Access(path, mode)
	}
}

// TestOpenRefusesReadOnly: a file or directory that cannot be written is
// refused before any write, as ReadOnly (exit 3 in the CLI), not as "not a
// SQLite database" and not in the middle of a drill.
func TestOpenRefusesReadOnly(t *testing.T) {
	t.Run("read-only file", func(t *testing.T) {
		dir := t.TempDir()
		path := archlabFile(t, filepath.Join(dir, "a.db"))
		fakeAccess(t, func(p string) bool { return p == path })
		before := snapshot(t, dir)
		for _, err := range []error{second(Open(path, Options{})), second(Lock(path))} {
			var oe *OpenError
			if !errors.As(err, &oe) || oe.Problem != ReadOnly || !Environmental(err) {
				t.Fatalf("err = %v, want ReadOnly", err)
			}
		}
		if !sameSnapshot(before, snapshot(t, dir)) {
			t.Fatal("the directory changed")
		}
	})
	t.Run("valid file in a read-only directory", func(t *testing.T) {
		dir := t.TempDir()
		path := archlabFile(t, filepath.Join(dir, "a.db"))
		fakeAccess(t, func(p string) bool { return p == dir })
		var oe *OpenError
		if _, err := Open(path, Options{}); !errors.As(err, &oe) || oe.Problem != ReadOnly || !strings.Contains(err.Error(), "directory") {
			t.Fatalf("err = %v, want ReadOnly naming the directory", err)
		}
	})
	if os.Geteuid() != 0 {
		t.Run("chmod 444, as a user", func(t *testing.T) {
			dir := t.TempDir()
			path := archlabFile(t, filepath.Join(dir, "a.db"))
			os.Chmod(path, 0o444)
			var oe *OpenError
			if _, err := Open(path, Options{}); !errors.As(err, &oe) || oe.Problem != ReadOnly {
				t.Fatalf("err = %v, want ReadOnly", err)
			}
		})
		t.Run("chmod 555 directory, as a user", func(t *testing.T) {
			dir := t.TempDir()
			path := archlabFile(t, filepath.Join(dir, "a.db"))
			os.Chmod(dir, 0o555)
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			var oe *OpenError
			if _, err := Open(path, Options{}); !errors.As(err, &oe) || oe.Problem != ReadOnly {
				t.Fatalf("err = %v, want ReadOnly", err)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }

// FuzzInspect feeds the header and schema check arbitrary bytes as a
// database file: it never panics, and a file it refuses is left as it was,
// with nothing created beside it. Whatever it accepts is archlab's schema.
func FuzzInspect(f *testing.F) {
	dir := f.TempDir()
	good, err := os.ReadFile(archlabFile(f, filepath.Join(dir, "good.db")))
	if err != nil {
		f.Fatal(err)
	}
	nopk, _ := os.ReadFile(archlabFile(f, filepath.Join(dir, "nopk.db"),
		"CREATE TABLE b2 (order_id TEXT, cents INTEGER NOT NULL)", "DROP TABLE balances", "ALTER TABLE b2 RENAME TO balances"))
	f.Add([]byte{})
	f.Add([]byte("SQLite format 3\x00"))
	f.Add([]byte("hello"))
	f.Add(good)
	f.Add(good[:100])
	f.Add(good[:4096])
	f.Add(nopk)
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.db")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		state, err := precheck(path, 0)
		if err != nil {
			var oe *OpenError
			if !errors.As(err, &oe) || strings.Contains(oe.Error(), "\n") {
				t.Fatalf("not a one-line OpenError: %v", err)
			}
		}
		if after := snapshot(t, dir); !sameSnapshot(before, after) {
			t.Fatalf("the check changed the directory: %v", names(after))
		}
		b, _ := os.ReadFile(path)
		if !bytes.Equal(b, data) {
			t.Fatal("the check modified the file")
		}
		if err == nil && state == ours {
			uri, _ := dsn(path, "mode=ro&immutable=1")
			db, err := sql.Open("sqlite", uri)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for name, want := range wantTables {
				got, err := tableInfo(context.Background(), db, name)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("accepted a file whose %s is %v (%v)", name, got, err)
				}
			}
		}
	})
}

// TestReadOnlyDirectoryWithWAL: as a user, a valid database whose -wal is
// still beside it, in a directory that cannot be written, is not "not a
// SQLite database" (before issue 11) but a file archlab could not use.
func TestReadOnlyDirectoryWithWAL(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes any directory")
	}
	dir := t.TempDir()
	path := archlabFile(t, filepath.Join(dir, "a.db"))
	s, err := Open(path, Options{}) // holds the -wal open
	if err != nil {
		t.Fatal(err)
	}
	s.ApplyOnce(pay)
	os.Chmod(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755); s.Close() })
	var oe *OpenError
	_, err = Open(path, Options{})
	if !errors.As(err, &oe) || oe.Problem == NotSQLite || oe.Problem == WrongSchema {
		t.Fatalf("err = %v; want a problem of the environment", err)
	}
	if !Environmental(err) && oe.Problem != ReadOnly {
		t.Fatalf("err = %v is not reported as the environment's", err)
	}
}
