//go:build sqlite

package drill

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/adapters/sqlstore"
	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// The tests of with_sqlite.go's functions themselves, which only a test
// binary built with -tags sqlite has: .ci/run runs the tagged tests.
// `go test ./...` runs the same wiring through the command line
// (cmd/archlab's db_test.go and scripts), in the archlab built with SQLite.

// Exit statuses as cmd/archlab gives them to each kind of error.
const (
	exitUsage       = 2
	exitCouldNotRun = 3
)

// describe is the exit status and line cmd/archlab gives err.
func describe(err error) (code int, msg, hint string) {
	var ce *status.CouldNotRun
	if errors.As(err, &ce) {
		return exitCouldNotRun, ce.Msg, ce.Hint
	}
	var ue *status.Usage
	if errors.As(err, &ue) {
		return exitUsage, ue.Msg, ue.Hint
	}
	return -1, fmt.Sprint(err), ""
}

// TestDBErrorStatus: each problem with a --db file has its exit status.
// The file's own problems are bad input (2); the environment's are "could
// not run" (3), never 1.
func TestDBErrorStatus(t *testing.T) {
	g := &cli.Env{Lang: i18n.EN}
	tests := []struct {
		err  *sqlstore.OpenError
		code int
		line string
	}{
		{&sqlstore.OpenError{Problem: sqlstore.WrongSchema, Detail: "table balances is missing"}, exitUsage,
			"--db s.db is marked as archlab's, but its tables are not archlab's (table balances is missing); the file was not modified"},
		{&sqlstore.OpenError{Problem: sqlstore.InUse, Pid: 42}, exitCouldNotRun,
			"--db s.db is in use by another archlab run (pid 42); wait for it to end, or give another file"},
		{&sqlstore.OpenError{Problem: sqlstore.ReadOnly, Err: os.ErrPermission}, exitCouldNotRun,
			"--db s.db cannot be written (permission denied); archlab writes the file and creates its -wal, -shm and .lock files beside it"},
		{&sqlstore.OpenError{Problem: sqlstore.Unreadable, Err: os.ErrPermission}, exitCouldNotRun, ""},
		{&sqlstore.OpenError{Problem: sqlstore.NotSQLite}, exitUsage, "--db s.db is not a SQLite database; the file was not modified"},
		{&sqlstore.OpenError{Problem: sqlstore.NewerSchema, Version: 2}, exitUsage, ""},
		{&sqlstore.OpenError{Problem: sqlstore.NotRegular}, exitUsage,
			"--db s.db is not a regular file (a FIFO, a device or a socket); give a database file, or a name for a new one"},
		{&sqlstore.OpenError{Problem: sqlstore.Corrupt, Detail: "Tree 2 page 2 cell 0: Extends off end of page"}, exitUsage,
			"--db s.db is archlab's database but damaged (SQLite's check: Tree 2 page 2 cell 0: Extends off end of page); the file was not modified: remove it, or give another"},
	}
	for _, tt := range tests {
		code, msg, _ := describe(dbError(g, "s.db", tt.err))
		if code != tt.code || (tt.line != "" && msg != tt.line) {
			t.Errorf("problem %d: exit %d %q; want %d %q", tt.err.Problem, code, msg, tt.code, tt.line)
		}
	}
}

// readOnlyError is a real SQLITE_READONLY error, as a drill's store gets
// it when its file turns read-only under it.
func readOnlyError(t *testing.T) error {
	path := filepath.Join(t.TempDir(), "ro.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec("CREATE TABLE t (x)")
	db.Close()
	ro, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Exec("INSERT INTO t VALUES (1)")
	if err == nil {
		t.Fatal("a write through a read-only connection succeeded")
	}
	return err
}

// TestEnvFailureInADrillExitsThree: a drill whose store failed because of
// the environment (before issue 11: "FAIL … attempt to write a readonly
// database", exit 1) could not run: exit 3.
func TestEnvFailureInADrillExitsThree(t *testing.T) {
	g := &cli.Env{Lang: i18n.EN}
	d, _ := drills.Lookup("ack-lost")
	res := &drills.Result{Drill: d, Err: errors.Join(errors.New("sqlstore: INSERT"), readOnlyError(t))}
	code, msg, _ := describe(envFailure(g, []*drills.Result{res}))
	if code != exitCouldNotRun || !strings.HasPrefix(msg, "drill ack-lost could not run: ") {
		t.Fatalf("exit %d, %q", code, msg)
	}
	// A drill that failed for its own reasons stays a disagreement.
	res.Err = errors.New("the lesson failed")
	if err := envFailure(g, []*drills.Result{res}); err != nil {
		t.Fatalf("envFailure = %v for a drill's own error", err)
	}
}
