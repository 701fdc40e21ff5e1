package main

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/spf13/pflag"

	"archlab/adapters/sqlstore"
)

// dbValue is --db: a file name, checked when the flag is read. Before issue
// 11, `--db ""` silently used a temporary file (the empty default), `--db
// --trace` created a file named --trace, and `--db dir/new.db/` created
// new.db and then failed.
type dbValue struct{ p *string }

// dbPathError is a --db value that cannot name a database file; key is its
// message in the catalogue.
type dbPathError struct {
	value string
	key   string
}

func (e *dbPathError) Error() string { return "--db " + e.key + ": " + e.value }

func (v dbValue) String() string { return *v.p }
func (v dbValue) Type() string   { return "string" }
func (v dbValue) Set(s string) error {
	if err := checkDBPath(s); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// checkDBPath refuses a --db value that is not a file name: empty, taken
// for a flag, or ending in a separator (a directory).
func checkDBPath(s string) error {
	switch {
	case s == "":
		return &dbPathError{s, "err.db.empty"}
	case strings.HasPrefix(s, "-"):
		return &dbPathError{s, "err.db.dash"}
	case strings.HasSuffix(s, "/"):
		return &dbPathError{s, "err.db.slash"}
	case strings.ContainsRune(s, 0):
		return &dbPathError{s, "err.db.nul"}
	}
	return nil
}

// dbVar registers --db.
func dbVar(f *pflag.FlagSet, p *string, usage string) {
	f.Var(dbValue{p}, "db", usage)
}

// dbEnvError is the line for the problems of a --db file that issue 11
// added, or nil for the others (dbError says those). The environment's
// problems (a read-only or busy file, a run holding it, a full disk) are
// "could not run", exit 3: CI must not read them as the book being wrong.
func dbEnvError(g *globalOptions, path string, oe *sqlstore.OpenError) error {
	switch {
	case oe.Problem == sqlstore.WrongSchema:
		return &usageError{msg: g.t("err.db.wrong-schema", path, oe.Detail)}
	case oe.Problem == sqlstore.InUse:
		return &couldNotRunError{msg: g.t("err.db.in-use", path, oe.Pid)}
	case oe.Problem == sqlstore.ReadOnly:
		return &couldNotRunError{msg: g.t("err.db.read-only", path, oe.Err)}
	case oe.Problem == sqlstore.Unreadable && errors.Is(oe.Err, fs.ErrPermission):
		return &couldNotRunError{msg: g.t("err.db.unreadable", path, oe.Err)}
	case sqlstore.Environmental(oe.Err):
		return &couldNotRunError{msg: g.t("err.db.env", path, oe.Err)}
	}
	return nil
}
