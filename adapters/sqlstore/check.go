package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A file's identity (application_id) and version (user_version) say who
// wrote it, not what it holds now: before issue 11, a file with archlab's
// mark whose processed_keys had lost its primary key was accepted, and
// ack-lost counted effects=2. So inspect also compares the tables, column by
// column, primary keys included, with what schema creates, and refuses any
// difference before a byte is written.

// column is one row of PRAGMA table_info as the check compares it.
type column struct {
	name    string
	typ     string // declared type, upper case
	notNull bool
	pk      int // position in the primary key, 0 when not in it
}

// wantTables is the schema of version 1, as PRAGMA table_info reports it.
// It must agree with schema (TestWantTablesMatchSchema).
var wantTables = map[string][]column{
	"processed_keys": {
		{"producer", "TEXT", true, 1},
		{"event_id", "TEXT", true, 2},
		{"seq", "INTEGER", true, 0},
		{"amount", "INTEGER", true, 0},
	},
	"balances": {
		{"order_id", "TEXT", false, 1},
		{"cents", "INTEGER", true, 0},
	},
	"counters": {
		{"name", "TEXT", false, 1},
		{"value", "INTEGER", true, 0},
	},
}

// wantIndexes are the indexes schema creates by name (the primary keys'
// own indexes are sqlite_autoindex_*, checked through table_info).
var wantIndexes = map[string]string{"processed_keys_by_seq": "processed_keys"}

// index is one row of PRAGMA index_list, with its key columns, as the
// check compares it: a name alone says nothing of what an index does
// (before issue 37, archlab's own processed_keys_by_seq made UNIQUE passed,
// and dedup-scope counted effects=1 where the book prints 2).
type index struct {
	name    string // "" for a primary key's or a UNIQUE column's own (sqlite_autoindex_*)
	unique  bool
	origin  string // c: CREATE INDEX, u: a UNIQUE constraint, pk: the primary key
	partial bool
	columns string // its key columns, in order: "seq", "producer,event_id"
}

// wantIndexList is each table's indexes, as PRAGMA index_list reports
// them, in name order. It must agree with schema (TestWantTablesMatchSchema).
var wantIndexList = map[string][]index{
	"processed_keys": {
		{name: "processed_keys_by_seq", origin: "c", columns: "seq"},
		{unique: true, origin: "pk", columns: "producer,event_id"},
	},
	"balances": {{unique: true, origin: "pk", columns: "order_id"}},
	"counters": {{unique: true, origin: "pk", columns: "name"}},
}

// checkSchema compares the tables of an archlab file of this version with
// wantTables. It returns a one-line description of the first difference,
// "" when there is none.
func checkSchema(ctx context.Context, db *sql.DB) (string, error) {
	rows, err := db.QueryContext(ctx, "SELECT type, name, tbl_name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return "", err
	}
	seen := map[string]bool{}
	var extra []string
	for rows.Next() {
		var typ, name, table string
		if err := rows.Scan(&typ, &name, &table); err != nil {
			rows.Close()
			return "", err
		}
		switch {
		case typ == "table" && wantTables[name] != nil:
			seen[name] = true
		case typ == "index" && wantIndexes[name] == table:
			seen[name] = true
		default:
			// A trigger could change a counter behind the drill's back;
			// any other object is not archlab's.
			extra = append(extra, typ+" "+name)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	for _, name := range sortedKeys(wantTables) {
		if !seen[name] {
			return "table " + name + " is missing", nil
		}
		got, err := tableInfo(ctx, db, name)
		if err != nil {
			return "", err
		}
		if d := diffColumns(name, got, wantTables[name]); d != "" {
			return d, nil
		}
		idx, err := indexList(ctx, db, name)
		if err != nil {
			return "", err
		}
		if d := diffIndexes(name, idx, wantIndexList[name]); d != "" {
			return d, nil
		}
	}
	for _, name := range sortedKeys(wantIndexes) {
		if !seen[name] {
			return "index " + name + " is missing", nil
		}
	}
	if len(extra) > 0 {
		return extra[0] + " is not archlab's", nil
	}
	// The effect counter is a row, updated in place: without it every
	// effect would count nothing.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM counters WHERE name = 'applies'").Scan(&n); err != nil {
		return "", err
	}
	if n != 1 {
		return "counter 'applies' is missing", nil
	}
	return "", nil
}

func tableInfo(ctx context.Context, db *sql.DB, table string) ([]column, error) {
	// table_xinfo also lists hidden and generated columns, which
	// table_info leaves out: an extra generated column is a difference too.
	rows, err := db.QueryContext(ctx, "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []column
	for rows.Next() {
		var c column
		var hidden int
		if err := rows.Scan(&c.name, &c.typ, &c.notNull, &c.pk, &hidden); err != nil {
			return nil, err
		}
		if hidden != 0 {
			c.name += " (hidden or generated)"
		}
		c.typ = strings.ToUpper(c.typ)
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

// diffColumns names the first difference between a table's columns and
// the schema's.
func diffColumns(table string, got, want []column) string {
	for i, w := range want {
		if i >= len(got) {
			return fmt.Sprintf("table %s: column %s is missing", table, w.name)
		}
		g := got[i]
		switch {
		case g.name != w.name:
			return fmt.Sprintf("table %s: column %d is %s, not %s", table, i+1, g.name, w.name)
		case g.pk != w.pk && w.pk == 0:
			return fmt.Sprintf("table %s: column %s is in the primary key, and should not be", table, w.name)
		case g.pk != w.pk:
			return fmt.Sprintf("table %s: column %s is not in the primary key", table, w.name)
		case g.typ != w.typ:
			return fmt.Sprintf("table %s: column %s is %s, not %s", table, w.name, orNone(g.typ), w.typ)
		case g.notNull != w.notNull && w.notNull:
			return fmt.Sprintf("table %s: column %s may be NULL", table, w.name)
		case g.notNull != w.notNull:
			return fmt.Sprintf("table %s: column %s is NOT NULL", table, w.name)
		}
	}
	if len(got) > len(want) {
		return fmt.Sprintf("table %s: column %s is not archlab's", table, got[len(want)].name)
	}
	return ""
}

// indexList is a table's indexes, in name order, each with its key
// columns (a descending or otherwise collated column says so).
func indexList(ctx context.Context, db *sql.DB, table string) ([]index, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY name`, table)
	if err != nil {
		return nil, err
	}
	var list []index
	for rows.Next() {
		var x index
		if err := rows.Scan(&x.name, &x.unique, &x.origin, &x.partial); err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range list {
		cols, err := db.QueryContext(ctx, `SELECT coalesce(name, '(expression)'), desc, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`, list[i].name)
		if err != nil {
			return nil, err
		}
		var names []string
		for cols.Next() {
			var name, coll string
			var desc bool
			if err := cols.Scan(&name, &desc, &coll); err != nil {
				cols.Close()
				return nil, err
			}
			if desc {
				name += " DESC"
			}
			if coll != "BINARY" {
				name += " COLLATE " + coll
			}
			names = append(names, name)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return nil, err
		}
		list[i].columns = strings.Join(names, ",")
		if strings.HasPrefix(list[i].name, "sqlite_autoindex_") {
			list[i].name = ""
		}
	}
	slices.SortStableFunc(list, func(a, b index) int { return strings.Compare(a.name+"\xff", b.name+"\xff") })
	return list, nil
}

// diffIndexes names the first difference between a table's indexes and
// the schema's.
func diffIndexes(table string, got, want []index) string {
	name := func(x index) string {
		switch {
		case x.name != "":
			return "index " + x.name
		case x.origin == "pk":
			return "table " + table + ": the primary key's index"
		}
		return "table " + table + ": the UNIQUE index on " + x.columns
	}
	// Each of archlab's is found by its name, a primary key's by its
	// origin; what is left over is someone else's.
	same := func(g, w index) bool { return g.name == w.name && (w.name != "" || g.origin == w.origin) }
	used := make([]bool, len(got))
	for _, w := range want {
		i := slices.IndexFunc(got, func(g index) bool { return same(g, w) })
		if i < 0 {
			return name(w) + " is missing"
		}
		used[i] = true
		g := got[i]
		switch {
		case g.origin != w.origin:
			return name(g) + " is not archlab's"
		case g.unique != w.unique && g.unique:
			return name(w) + " is UNIQUE, and archlab's is not"
		case g.unique != w.unique:
			return name(w) + " is not UNIQUE, and archlab's is"
		case g.partial != w.partial:
			return name(w) + " is partial (CREATE INDEX … WHERE), and archlab's is not"
		case g.columns != w.columns:
			return fmt.Sprintf("%s is on (%s), and archlab's on (%s)", name(w), g.columns, w.columns)
		}
	}
	for i, g := range got {
		if !used[i] {
			return name(g) + " is not archlab's"
		}
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "untyped"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// inspectDSN is the URI inspect reads a file through. With no -wal and no
// -journal file beside it, the main file is the whole database and no
// other connection has it open for writing, so it is read as immutable:
// SQLite takes no lock and creates no -wal or -shm file (before issue 11 a
// refused file got both, although the message said it was not modified).
// Otherwise the side files already exist, and a read-only connection with
// the usual locks sees what the -wal holds.
func inspectDSN(path string) (string, error) {
	for _, side := range []string{"-wal", "-journal"} {
		if _, err := os.Lstat(path + side); err == nil {
			return dsn(path, "mode=ro")
		}
	}
	return dsn(path, "mode=ro&immutable=1")
}

// access is unix.Access; a test replaces it to play a read-only file or
// directory, which root (who runs CI) can write whatever its mode.
var access = unix.Access

// checkWritable refuses, before anything is written, a database that
// cannot be written or whose directory cannot take the -wal, -shm and lock
// files: a read-only file or directory, a read-only file system, an
// immutable file. Before issue 11 such a file failed in the middle of a
// drill ("attempt to write a readonly database", exit 1), or, in a
// read-only directory, was called "not a SQLite database".
func checkWritable(path string, exists bool) error {
	if exists {
		if err := access(path, unix.W_OK); err != nil {
			return &OpenError{Path: path, Problem: ReadOnly, Err: err}
		}
	}
	dir := filepath.Dir(path)
	if err := access(dir, unix.W_OK|unix.X_OK); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return &OpenError{Path: path, Problem: CannotOpen, Err: err}
		}
		return &OpenError{Path: path, Problem: ReadOnly, Err: fmt.Errorf("directory %s: %w", dir, err)}
	}
	return nil
}

// corrupt reports whether err is SQLite finding a damaged file.
func corrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return false
}

// Environmental reports whether err is the environment's doing, not the
// file's or the caller's: a read-only or busy database, a full disk, an I/O
// error, a database another run holds. A command reports such an error as
// "could not run", never as a result.
func Environmental(err error) bool {
	var oe *OpenError
	if errors.As(err, &oe) && (oe.Problem == ReadOnly || oe.Problem == InUse) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
			sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_NOLFS,
			// A file damaged under a run (open refuses one damaged
			// before): the storage failed, the book did not.
			sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EROFS) || errors.Is(err, unix.EDQUOT)
}
