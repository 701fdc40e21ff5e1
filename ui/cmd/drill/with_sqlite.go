//go:build sqlite

package drill

import (
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"

	"archlab/adapters/consumerproc"
	"archlab/adapters/sqlstore"
	"archlab/drills"
	"archlab/harness"
	"archlab/internal/inbox"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// This file is the store wiring that needs SQLite (modernc.org/sqlite, a
// C library translated to Go: half a minute of compiling on a fresh
// clone) and the consumer process. Only the archlab built with -tags
// sqlite has it; the everyday archlab hands --store sqlite to that one
// (ui/cli/parts.go).
func init() { sqlite = sqliteWiring{}; cli.Link("sqlite") }

type sqliteWiring struct{}

func (sqliteWiring) prepare(s *stores) error {
	g, so := s.g, s.o
	if so.crash == "real" {
		exe, err := os.Executable()
		if err != nil {
			return &status.Usage{Msg: g.T("err.crash-no-executable", err)}
		}
		s.exe = exe
	}
	if so.db != "" {
		// Check the file before any drill runs: a bad --db is bad input
		// (exit 2), and Open refuses it without writing to it. The lock
		// keeps every other run out until close.
		lock, err := sqlstore.Lock(so.db)
		if err != nil {
			return dbError(g, so.db, err)
		}
		st, err := sqlstore.Open(so.db, sqlstore.Options{})
		if err == nil {
			err = st.Close()
		}
		if err != nil {
			lock.Release()
			return dbError(g, so.db, err)
		}
		s.unlock = lock.Release
	}
	return nil
}

// inboxEnv is where drill d's consumer runs: a database of its own (a
// drill starts from empty tables), consumer processes when the crash is
// real.
func (sqliteWiring) inboxEnv(s *stores, d *drills.Drill) harness.InboxEnv {
	path := s.o.db
	if path == "" {
		path = filepath.Join(s.tmpDir, d.Name+".db")
	}
	env := harness.InboxEnv{Open: func(onSQL func(harness.Statement)) (inbox.Store, error) {
		st, err := consumerproc.OpenStore(path, onSQL)
		if err != nil {
			return nil, err
		}
		if err := st.Reset(); err != nil {
			st.Close()
			return nil, err
		}
		return st, nil
	}}
	if s.o.crash == "real" {
		env.Consumer = func() harness.Consumer {
			return &consumerproc.Spawner{Context: s.ctx, Command: []string{s.exe}, DB: path}
		}
	}
	return env
}

func (sqliteWiring) environmental(err error) bool { return sqlstore.Environmental(err) }

// consumerChild serves the delivery of a consumer process of --crash
// real: the Spawner marks it with ChildEnv. The broker decides when a
// consumer dies: Ctrl-C at the terminal reaches the whole process group,
// so the consumer ignores it and its parent kills it and waits for it.
func (sqliteWiring) consumerChild() (int, bool) {
	if os.Getenv(consumerproc.ChildEnv) != "1" {
		return 0, false
	}
	signal.Ignore(os.Interrupt)
	return consumerproc.Main(), true
}

// dbError turns a refused --db into one line in the reader's language.
func dbError(g *cli.Env, path string, err error) error {
	var oe *sqlstore.OpenError
	if !errors.As(err, &oe) {
		return &status.Usage{Msg: g.T("err.db.open", path, err)}
	}
	if e := dbEnvError(g, path, oe); e != nil {
		return e
	}
	var msg string
	switch oe.Problem {
	case sqlstore.IsDirectory:
		msg = g.T("err.db.directory", path)
	case sqlstore.Unreadable:
		msg = g.T("err.db.unreadable", path, oe.Err)
	case sqlstore.NotSQLite:
		msg = g.T("err.db.not-sqlite", path)
	case sqlstore.ForeignSchema:
		msg = g.T("err.db.foreign", path)
	case sqlstore.NewerSchema:
		msg = g.T("err.db.newer", path, oe.Version, sqlstore.SchemaVersion)
	case sqlstore.NotRegular:
		msg = g.T("err.db.not-regular", path)
	case sqlstore.Corrupt:
		msg = g.T("err.db.corrupt", path, oe.Detail)
	default:
		msg = g.T("err.db.open", path, errors.Unwrap(oe))
	}
	return &status.Usage{Msg: msg}
}

// dbEnvError is the line for the problems of a --db file that issue 11
// added, or nil for the others (dbError says those). The environment's
// problems (a read-only or busy file, a run holding it, a full disk) are
// "could not run", exit 3: CI must not read them as the book being wrong.
func dbEnvError(g *cli.Env, path string, oe *sqlstore.OpenError) error {
	switch {
	case oe.Problem == sqlstore.WrongSchema:
		return &status.Usage{Msg: g.T("err.db.wrong-schema", path, oe.Detail)}
	case oe.Problem == sqlstore.InUse:
		return &status.CouldNotRun{Msg: g.T("err.db.in-use", path, oe.Pid)}
	case oe.Problem == sqlstore.ReadOnly:
		return &status.CouldNotRun{Msg: g.T("err.db.read-only", path, oe.Err)}
	case oe.Problem == sqlstore.Unreadable && errors.Is(oe.Err, fs.ErrPermission):
		return &status.CouldNotRun{Msg: g.T("err.db.unreadable", path, oe.Err)}
	case sqlstore.Environmental(oe.Err):
		return &status.CouldNotRun{Msg: g.T("err.db.env", path, oe.Err)}
	}
	return nil
}
