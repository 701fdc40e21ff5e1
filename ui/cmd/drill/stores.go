package drill

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// StoreOptions are the flags of the §8.2 drills that say where the consumer
// runs: --store memory|sqlite, --db PATH, --crash model|real.
type StoreOptions struct {
	store  string
	db     string
	crash  string
	broker brokerOptions // --broker, --nats-url, --kafka-brokers (broker.go)
}

// sqliteParts is the half of the store wiring that needs SQLite and the
// consumer process (with_sqlite.go). It is nil in the archlab built
// without -tags sqlite, which hands a --store sqlite run to the one built
// with it (ui/cli/parts.go).
type sqliteParts interface {
	// prepare checks and takes the --db file and finds the executable
	// that serves as the consumer process, before any drill runs.
	prepare(s *stores) error
	// inboxEnv is where drill d's consumer runs.
	inboxEnv(s *stores, d *drills.Drill) harness.InboxEnv
	// environmental reports whether a store's error is the environment's
	// (a read-only or busy database, a full disk): exit 3.
	environmental(err error) bool
	// consumerChild serves a consumer process's delivery when this
	// process is one (ok), before any command is built.
	consumerChild() (code int, ok bool)
}

var sqlite sqliteParts

// AddStoreFlags registers the store flags on the drill command (for --all
// and --chapter) and on each §8.2 drill; all are bound to the same options.
func AddStoreFlags(f *pflag.FlagSet, g *cli.Env, o *StoreOptions) {
	f.StringVar(&o.store, "store", "memory", g.T("help.flag.store"))
	cli.DBVar(f, &o.db, g.T("help.flag.db"))
	f.StringVar(&o.crash, "crash", "model", g.T("help.flag.crash"))
}

// stores is one invocation's databases: a temporary directory removed at
// the end (or the --db file, kept), the context Ctrl-C cancels, and the
// executable that serves as the consumer process.
type stores struct {
	o      StoreOptions
	ctx    context.Context
	stop   context.CancelFunc
	tmpDir string
	exe    string
	unlock func() error // releases --db, held for the whole run
	closed bool
	// students is the code a file with "strategy student" runs
	students *harness.Students
	brokers  brokerRun // the real broker, when --broker chose one
	g        *cli.Env
	budget   drills.Budget
}

// openStores checks the store flags against the drills about to run (many:
// --all or --chapter) and prepares their databases. With the defaults it
// does nothing and runs drills as the book does.
func (o *Options) openStores(list []*drills.Drill, many bool) (*stores, error) {
	g, so := o.G, o.Stores
	s := &stores{o: so, students: g.Students(), g: g, budget: o.Budget}
	switch {
	case so.store != "memory" && so.store != "sqlite":
		return nil, &status.Usage{Msg: g.T("err.store", so.store)}
	case so.crash != "model" && so.crash != "real":
		return nil, &status.Usage{Msg: g.T("err.crash", so.crash)}
	case so.crash == "real" && so.store != "sqlite":
		return nil, &status.Usage{Msg: g.T("err.crash-needs-store")}
	case so.db != "" && so.store != "sqlite":
		return nil, &status.Usage{Msg: g.T("err.db-needs-store")}
	case so.db != "" && many:
		return nil, &status.Usage{Msg: g.T("err.db-one-drill", manyFlag(o))}
	}
	if err := checkBroker(g, so.broker, list); err != nil {
		return nil, err
	}
	if so.store == "sqlite" && !anyRealStore(list) {
		return nil, &status.Usage{Msg: g.T("err.store-no-drill", o.Chapter)}
	}
	if err := cli.NeedParts(so.asker(), so.parts()...); err != nil {
		return nil, err
	}
	if so.store == "memory" {
		// Ctrl-C stops a run between two steps (a drill file may run for
		// seconds) and exits 130, as it does for every other store.
		s.ctx, s.stop = status.SignalContext(context.Background())
		return s.openBroker()
	}
	if err := sqlite.prepare(s); err != nil {
		return nil, err
	}
	// From here on Ctrl-C cancels the context instead of killing archlab,
	// so a running consumer is killed and waited for and the temporary
	// directory is removed before archlab exits.
	s.ctx, s.stop = status.SignalContext(context.Background())
	if so.db == "" {
		dir, err := makeTempDir()
		if err != nil {
			failed := error(&status.CouldNotRun{Msg: err.Error()})
			s.close(g, &failed)
			return nil, failed
		}
		s.tmpDir = dir
	}
	return s.openBroker()
}

// parts are the build tags the run needs: "sqlite" for --store sqlite,
// "brokers" for --broker nats|kafka; asker is the flag that asked first.
func (so StoreOptions) parts() []string {
	var p []string
	if so.store == "sqlite" {
		p = append(p, "sqlite")
	}
	if so.broker.broker != "memory" && so.broker.broker != "" {
		p = append(p, "brokers")
	}
	return p
}

func (so StoreOptions) asker() string {
	if so.broker.broker != "memory" && so.broker.broker != "" {
		return "--broker " + so.broker.broker
	}
	return "--store " + so.store
}

// run runs one drill, in its Env when the drill has one.
func (s *stores) run(d *drills.Drill, v drills.Values) (*drills.Result, error) {
	env := harness.Env{Student: s.students}
	if s.o.store == "sqlite" && d.Sec().RealStore {
		env.Inbox = sqlite.inboxEnv(s, d)
	}
	if s.brokers != nil {
		s.brokers.env(d, &env)
	}
	res, err := d.RunContext(s.ctx, v, drills.RunOptions{Env: env, Budget: s.budget})
	if err == nil && (s.ctx == nil || s.ctx.Err() == nil) {
		err = brokerFailure(s.g, res, s.o.broker)
	}
	return res, err
}

// interrupted is the error of a run cut short by Ctrl-C, or nil.
func (s *stores) interrupted(g *cli.Env) error {
	if s.ctx != nil && s.ctx.Err() != nil {
		msg := g.T("err.interrupted")
		switch {
		case s.brokers != nil && s.o.store != "sqlite":
			msg = g.T("err.interrupted.broker") // no process, no file: the broker's leftovers
		case s.o.store != "sqlite":
			msg = g.T("err.interrupted.memory") // nothing to kill, nothing to remove
		}
		return &status.Interrupted{Msg: msg, Code: status.SignalStatus(s.ctx)}
	}
	return nil
}

// close removes the temporary directory (the databases and their -wal and
// -shm files) or says where --db kept the database, and gives Ctrl-C back
// its default meaning. The command calls it as soon as the drills have run,
// before it prints (a reader that closes the pipe early must not leave a
// temporary file behind), and again, deferred, on every other path.
func (s *stores) close(g *cli.Env, err *error) {
	if s.ctx == nil || s.closed {
		return
	}
	s.closed = true
	s.stop()
	if s.brokers != nil {
		s.brokers.close()
	}
	if s.unlock != nil {
		defer func() { *err = errors.Join(*err, s.unlock()) }()
	}
	if s.tmpDir != "" {
		*err = errors.Join(*err, os.RemoveAll(s.tmpDir))
		return
	}
	if *err == nil && s.o.db != "" {
		fmt.Fprintln(g.IO.Err, g.T("cli.db-kept", s.o.db, s.o.db))
	}
}

func anyRealStore(list []*drills.Drill) bool {
	for _, d := range list {
		if d.Sec().RealStore {
			return true
		}
	}
	return false
}

// manyFlag names the flag that asked for many drills.
func manyFlag(o *Options) string {
	if o.All {
		return "--all"
	}
	return "--chapter " + o.Chapter
}

// StoreExample adds the store flags to a §8.2 drill's examples.
func StoreExample(g *cli.Env, d *drills.Drill) string {
	return "\n  # " + g.T("help.example.sqlite") +
		"\n  $ archlab drill " + d.Name + " --store sqlite --trace" +
		"\n  # " + g.T("help.example.crash-real") +
		"\n  $ archlab drill " + d.Name + " --store sqlite --crash real --trace" +
		"\n  # " + g.T("help.example.db") +
		"\n  $ archlab drill " + d.Name + " --store sqlite --db " + d.Name + ".db && sqlite3 " + d.Name + ".db .dump"
}

// ConsumerChild serves the one delivery of a consumer process of --crash
// real when this process is one (ok), in the archlab built with SQLite;
// main calls it before any command tree is built, so the consumer starts
// in milliseconds, not in the time the command line takes to build.
func ConsumerChild() (code int, ok bool) {
	if sqlite == nil {
		return 0, false
	}
	return sqlite.consumerChild()
}
