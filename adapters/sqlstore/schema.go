package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// applicationID marks a SQLite file as archlab's (PRAGMA application_id):
// "ALAB" in ASCII.
const applicationID = 0x414c4142

// SchemaVersion is PRAGMA user_version of the schema below. A file with a
// higher version was written by a newer archlab and is refused.
const SchemaVersion = 1

// schema creates version 1 in one transaction, with the file's identity and
// version, so a file either has all of it or none.
var schema = []string{
	// The dedup table: one row per (producer, event ID), with the producer's
	// seq for the retention window and the amount for inspection.
	`CREATE TABLE processed_keys (
		producer TEXT NOT NULL,
		event_id TEXT NOT NULL,
		seq      INTEGER NOT NULL,
		amount   INTEGER NOT NULL,
		PRIMARY KEY (producer, event_id)
	)`,
	// Prune deletes by seq.
	`CREATE INDEX processed_keys_by_seq ON processed_keys (seq)`,
	`CREATE TABLE balances (
		order_id TEXT PRIMARY KEY,
		cents    INTEGER NOT NULL
	)`,
	// Counters that must survive a killed process: the effects applied.
	`CREATE TABLE counters (
		name  TEXT PRIMARY KEY,
		value INTEGER NOT NULL
	)`,
	`INSERT INTO counters (name, value) VALUES ('applies', 0)`,
	fmt.Sprintf("PRAGMA application_id = %d", applicationID),
	fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion),
}

// Problem says why Open refused a path.
type Problem int

// The problems Open reports.
const (
	IsDirectory   Problem = iota + 1 // the path is a directory
	Unreadable                       // the file cannot be opened for reading
	NotSQLite                        // the file is not a SQLite database
	ForeignSchema                    // a SQLite database of another application
	NewerSchema                      // archlab's, but a newer schema version
	CannotOpen                       // SQLite could not open or create it
	// Issue 11.
	WrongSchema // archlab's mark and version, but other tables or columns (Detail says which)
	ReadOnly    // the file or its directory cannot be written
	InUse       // another archlab run holds the file (Pid names it)
	// Issue 25.
	NotRegular // a FIFO, a device or a socket: reading it would block or never end
	Corrupt    // archlab's file, damaged: SQLite's integrity check fails (Detail says where)
)

// OpenError is a path Open refused. The file was not modified.
type OpenError struct {
	Path    string
	Problem Problem
	Version int    // the file's schema version, for NewerSchema
	Detail  string // the first difference, for WrongSchema
	Pid     int    // the run that holds the file, for InUse (0: unknown)
	Err     error  // the underlying error, if any
}

func (e *OpenError) Error() string {
	var what string
	switch e.Problem {
	case IsDirectory:
		what = "is a directory, not a database file"
	case Unreadable:
		what = "cannot be read"
	case NotSQLite:
		what = "is not a SQLite database"
	case ForeignSchema:
		what = "is a SQLite database of another application (its tables are not archlab's)"
	case NewerSchema:
		what = fmt.Sprintf("has archlab schema version %d; this archlab knows version %d", e.Version, SchemaVersion)
	case WrongSchema:
		what = "is marked as archlab's but its tables are not: " + e.Detail
	case ReadOnly:
		what = "cannot be written"
	case InUse:
		what = fmt.Sprintf("is in use by another archlab run (pid %d)", e.Pid)
	case NotRegular:
		what = "is not a regular file"
	case Corrupt:
		what = "is damaged: " + e.Detail
	default:
		what = "cannot be opened"
	}
	msg := "sqlstore: " + e.Path + " " + what
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *OpenError) Unwrap() error { return e.Err }

// fileState is what inspect found at a path it accepts.
type fileState int

const (
	fresh fileState = iota // no file, an empty file or a SQLite file without tables
	ours                   // archlab's schema, this version
)

// sqliteMagic opens every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// inspect decides, without writing anything, whether Open may use path. It
// reads the file's first bytes itself, then asks SQLite through a read-only
// connection for the file's identity, version and tables (a WAL file may hold
// a newer header than the main file, so the header bytes alone are not
// enough).
func inspect(path string) (fileState, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fresh, nil
	}
	if err != nil {
		return 0, &OpenError{Path: path, Problem: Unreadable, Err: err}
	}
	if fi.IsDir() {
		return 0, &OpenError{Path: path, Problem: IsDirectory}
	}
	if !fi.Mode().IsRegular() {
		// Opening a FIFO blocks until a writer comes; a device never ends.
		return 0, &OpenError{Path: path, Problem: NotRegular}
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, &OpenError{Path: path, Problem: Unreadable, Err: unwrapPath(err)}
	}
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, head)
	f.Close()
	switch {
	case n == 0 && (err == io.EOF):
		return fresh, nil // SQLite treats an empty file as an empty database
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return 0, &OpenError{Path: path, Problem: Unreadable, Err: unwrapPath(err)}
	case !bytes.Equal(head[:n], sqliteMagic) || n < len(sqliteMagic):
		return 0, &OpenError{Path: path, Problem: NotSQLite}
	}

	dsn, err := inspectDSN(path)
	if err != nil {
		return 0, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return 0, &OpenError{Path: path, Problem: CannotOpen, Err: err}
	}
	defer db.Close()
	ctx := context.Background()
	var appID, version, tables int
	err = db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID)
	if err == nil {
		err = db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version)
	}
	if err == nil {
		err = db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").Scan(&tables)
	}
	if err != nil && corrupt(err) {
		return 0, &OpenError{Path: path, Problem: Corrupt, Detail: err.Error()}
	}
	if err != nil && Environmental(err) {
		// SQLite could not read it (a busy file, a -wal it cannot open in a
		// read-only directory): that says nothing about what the file is.
		return 0, &OpenError{Path: path, Problem: CannotOpen, Err: err}
	}
	if err != nil {
		return 0, &OpenError{Path: path, Problem: NotSQLite, Err: err}
	}
	switch {
	case appID == 0 && version == 0 && tables == 0:
		return fresh, nil // an empty SQLite database: ours to set up
	case appID != applicationID:
		return 0, &OpenError{Path: path, Problem: ForeignSchema}
	case version > SchemaVersion:
		return 0, &OpenError{Path: path, Problem: NewerSchema, Version: version}
	case version < SchemaVersion:
		// archlab has only ever written version 1, with the identity in the
		// same transaction: an older version is not a file we wrote.
		return 0, &OpenError{Path: path, Problem: ForeignSchema}
	}
	detail, err := checkSchema(ctx, db)
	if err != nil && corrupt(err) {
		return 0, &OpenError{Path: path, Problem: Corrupt, Detail: err.Error()}
	}
	if err != nil {
		return 0, &OpenError{Path: path, Problem: NotSQLite, Err: err}
	}
	if detail != "" {
		return 0, &OpenError{Path: path, Problem: WrongSchema, Detail: detail}
	}
	// The schema reads right; the pages behind it may not. A damaged file
	// found only by the drill's first INSERT read as a drill that
	// disagrees with the book (exit 1) with an empty table.
	var check string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&check); err != nil || check != "ok" {
		if err != nil {
			check = err.Error()
		}
		return 0, &OpenError{Path: path, Problem: Corrupt, Detail: oneLine(check)}
	}
	return ours, nil
}

// oneLine is SQLite's integrity report on one line: "*** in database main
// ***\nTree 2 page 2 …" is "Tree 2 page 2 …".
func oneLine(report string) string {
	var out []string
	for _, l := range strings.Split(report, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "***") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// dsn is a file: URI for path with the given query. The path is made
// absolute and escaped, so '?', '#' or '%' in a file name stay part of it.
func dsn(path, query string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", &OpenError{Path: path, Problem: CannotOpen, Err: err}
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: query}
	return u.String(), nil
}

// unwrapPath drops the *PathError's repetition of the path, which the
// OpenError already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
