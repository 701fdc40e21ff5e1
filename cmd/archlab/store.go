package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"archlab/adapters/consumerproc"
	"archlab/adapters/sqlstore"
	"archlab/drills"
	"archlab/harness"
	"archlab/internal/inbox"
)

// storeOptions are the flags of the §8.2 drills that say where the consumer
// runs: --store memory|sqlite, --db PATH, --crash model|real.
type storeOptions struct {
	store  string
	db     string
	crash  string
	broker brokerOptions // --broker, --nats-url, --kafka-brokers (broker.go)
}

// addStoreFlags registers the store flags on the drill command (for --all
// and --chapter) and on each §8.2 drill; all are bound to the same options.
func addStoreFlags(f *pflag.FlagSet, g *globalOptions, o *storeOptions) {
	f.StringVar(&o.store, "store", "memory", g.t("help.flag.store"))
	dbVar(f, &o.db, g.t("help.flag.db"))
	f.StringVar(&o.crash, "crash", "model", g.t("help.flag.crash"))
}

// stores is one invocation's databases: a temporary directory removed at
// the end (or the --db file, kept), the context Ctrl-C cancels, and the
// executable that serves as the consumer process.
type stores struct {
	o      storeOptions
	ctx    context.Context
	stop   context.CancelFunc
	tmpDir string
	exe    string
	lock   *sqlstore.RunLock // --db, held for the whole run
	closed bool
	// students is the code a file with "strategy student" runs
	students *harness.Students
	brokers  *brokers // the real broker, when --broker chose one
	g        *globalOptions
	budget   drills.Budget
}

// openStores checks the store flags against the drills about to run (many:
// --all or --chapter) and prepares their databases. With the defaults it
// does nothing and runs drills as the book does.
func (o *drillOptions) openStores(list []*drills.Drill, many bool) (*stores, error) {
	g, so := o.g, o.stores
	s := &stores{o: so, students: g.students(), g: g, budget: o.budget}
	switch {
	case so.store != "memory" && so.store != "sqlite":
		return nil, &usageError{msg: g.t("err.store", so.store)}
	case so.crash != "model" && so.crash != "real":
		return nil, &usageError{msg: g.t("err.crash", so.crash)}
	case so.crash == "real" && so.store != "sqlite":
		return nil, &usageError{msg: g.t("err.crash-needs-store")}
	case so.db != "" && so.store != "sqlite":
		return nil, &usageError{msg: g.t("err.db-needs-store")}
	case so.db != "" && many:
		return nil, &usageError{msg: g.t("err.db-one-drill", manyFlag(o))}
	}
	if err := checkBroker(g, so.broker, list); err != nil {
		return nil, err
	}
	if so.store == "memory" {
		// Ctrl-C stops a run between two steps (a drill file may run for
		// seconds) and exits 130, as it does for every other store.
		s.ctx, s.stop = signalContext(context.Background())
		return s.openBroker()
	}
	if !anyHasEnv(list) {
		return nil, &usageError{msg: g.t("err.store-no-drill", o.chapter)}
	}
	if so.crash == "real" {
		exe, err := os.Executable()
		if err != nil {
			return nil, &usageError{msg: g.t("err.crash-no-executable", err)}
		}
		s.exe = exe
	}
	if so.db != "" {
		// Check the file before any drill runs: a bad --db is bad input
		// (exit 2), and Open refuses it without writing to it. The lock
		// keeps every other run out until close.
		lock, err := sqlstore.Lock(so.db)
		if err != nil {
			return nil, dbError(g, so.db, err)
		}
		s.lock = lock
		st, err := sqlstore.Open(so.db, sqlstore.Options{})
		if err == nil {
			err = st.Close()
		}
		if err != nil {
			s.lock.Release()
			return nil, dbError(g, so.db, err)
		}
	}
	// From here on Ctrl-C cancels the context instead of killing archlab,
	// so a running consumer is killed and waited for and the temporary
	// directory is removed before archlab exits.
	s.ctx, s.stop = signalContext(context.Background())
	if so.db == "" {
		dir, err := makeTempDir()
		if err != nil {
			s.stop()
			return nil, err
		}
		s.tmpDir = dir
	}
	return s.openBroker()
}

// run runs one drill, in its Env when the drill has one.
func (s *stores) run(d *drills.Drill, v drills.Values) (*drills.Result, error) {
	env := harness.Env{Student: s.students}
	if s.o.store == "sqlite" && d.HasEnv() {
		env.Inbox = s.env(d)
	}
	s.brokers.env(d, &env)
	res, err := d.RunContext(s.ctx, v, drills.RunOptions{Env: env, Budget: s.budget})
	if err == nil && (s.ctx == nil || s.ctx.Err() == nil) {
		err = brokerFailure(s.g, res)
	}
	return res, err
}

// env is where drill d's consumer runs: a database of its own (a drill
// starts from empty tables), consumer processes when the crash is real.
func (s *stores) env(d *drills.Drill) harness.InboxEnv {
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

// interrupted is the error of a run cut short by Ctrl-C, or nil.
func (s *stores) interrupted(g *globalOptions) error {
	if s.ctx != nil && s.ctx.Err() != nil {
		msg := g.t("err.interrupted")
		switch {
		case s.brokers != nil && s.o.store != "sqlite":
			msg = g.t("err.interrupted.broker") // no process, no file: the broker's leftovers
		case s.o.store != "sqlite":
			msg = g.t("err.interrupted.memory") // nothing to kill, nothing to remove
		}
		return &interruptedError{msg: msg, code: signalStatus(s.ctx)}
	}
	return nil
}

// close removes the temporary directory (the databases and their -wal and
// -shm files) or says where --db kept the database, and gives Ctrl-C back
// its default meaning. The command calls it as soon as the drills have run,
// before it prints (a reader that closes the pipe early must not leave a
// temporary file behind), and again, deferred, on every other path.
func (s *stores) close(g *globalOptions, err *error) {
	if s.ctx == nil || s.closed {
		return
	}
	s.closed = true
	s.stop()
	s.brokers.close()
	defer func() { *err = errors.Join(*err, s.lock.Release()) }()
	if s.tmpDir != "" {
		*err = errors.Join(*err, os.RemoveAll(s.tmpDir))
		return
	}
	if *err == nil && s.o.db != "" {
		fmt.Fprintln(g.io.Err, g.t("cli.db-kept", s.o.db, s.o.db))
	}
}

// dbError turns a refused --db into one line in the reader's language.
func dbError(g *globalOptions, path string, err error) error {
	var oe *sqlstore.OpenError
	if !errors.As(err, &oe) {
		return &usageError{msg: g.t("err.db.open", path, err)}
	}
	if e := dbEnvError(g, path, oe); e != nil {
		return e
	}
	var msg string
	switch oe.Problem {
	case sqlstore.IsDirectory:
		msg = g.t("err.db.directory", path)
	case sqlstore.Unreadable:
		msg = g.t("err.db.unreadable", path, oe.Err)
	case sqlstore.NotSQLite:
		msg = g.t("err.db.not-sqlite", path)
	case sqlstore.ForeignSchema:
		msg = g.t("err.db.foreign", path)
	case sqlstore.NewerSchema:
		msg = g.t("err.db.newer", path, oe.Version, sqlstore.SchemaVersion)
	case sqlstore.NotRegular:
		msg = g.t("err.db.not-regular", path)
	case sqlstore.Corrupt:
		msg = g.t("err.db.corrupt", path, oe.Detail)
	default:
		msg = g.t("err.db.open", path, errors.Unwrap(oe))
	}
	return &usageError{msg: msg}
}

func anyHasEnv(list []*drills.Drill) bool {
	for _, d := range list {
		if d.HasEnv() {
			return true
		}
	}
	return false
}

// manyFlag names the flag that asked for many drills.
func manyFlag(o *drillOptions) string {
	if o.all {
		return "--all"
	}
	return "--chapter " + o.chapter
}

// storeExample adds the store flags to a §8.2 drill's examples.
func storeExample(g *globalOptions, d *drills.Drill) string {
	return "\n  # " + g.t("help.example.sqlite") +
		"\n  $ archlab drill " + d.Name + " --store sqlite --trace" +
		"\n  # " + g.t("help.example.crash-real") +
		"\n  $ archlab drill " + d.Name + " --store sqlite --crash real --trace" +
		"\n  # " + g.t("help.example.db") +
		"\n  $ archlab drill " + d.Name + " --store sqlite --db " + d.Name + ".db && sqlite3 " + d.Name + ".db .dump"
}
