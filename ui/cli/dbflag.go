package cli

import (
	"strings"

	"github.com/spf13/pflag"
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

// DBVar registers --db.
func DBVar(f *pflag.FlagSet, p *string, usage string) {
	f.Var(dbValue{p}, "db", usage)
}
