package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver: pure Go, no cgo

	"archlab/internal/inbox"
)

// Statement is one SQL statement a store sent, with its arguments written in
// as SQL literals, and the rows it changed (-1 when it is not a row-changing
// statement, such as BEGIN or COMMIT).
type Statement struct {
	SQL  string
	Rows int64
}

// String is the statement's canonical text form: its SQL.
func (s Statement) String() string { return s.SQL }

// Options tune a store. The zero value is synchronous=NORMAL, no hooks.
type Options struct {
	// Synchronous is SQLite's synchronous setting, "NORMAL" or "FULL". In
	// WAL mode NORMAL already survives a killed process (the commit is in
	// the OS's page cache); FULL also syncs the WAL on every commit, so it
	// survives a power cut.
	Synchronous string
	// OnStatement, when set, hears every statement the store's write paths
	// send (transactions, keys, effects, prunes), after it ran. Reads
	// (Balance, Applies, Keys) are not reported.
	OnStatement func(Statement)
	// Between, when set, is called between the writes of a store method:
	// inside ApplyOnce's and NaiveApply's transaction (written, not
	// committed), and between MarkBeforeEffect's two transactions (the key
	// committed, the effect not begun). A consumer process that is to be
	// killed there blocks in Between until its parent sends SIGKILL.
	Between func()
	// Owner is the pid of the archlab run that holds the file with Lock,
	// for a process it started that is not its direct child (a direct
	// child, and the run itself, are recognised without it). A file held
	// by any other run is refused with InUse.
	Owner int
}

// Store is an inbox.Store on a SQLite file. It holds one connection and is
// meant for one goroutine at a time, like a consumer; several processes may
// open the same file (WAL mode, a busy timeout).
type Store struct {
	db   *sql.DB
	conn *sql.Conn
	opts Options
	err  error // the first error; every later call is a no-op
}

var _ inbox.Store = (*Store)(nil)

// busyTimeout is how long a statement waits for another process's write
// lock before it fails with SQLITE_BUSY.
const busyTimeout = 5000 // milliseconds

// Open opens the archlab database at path, creating the file and its schema
// when path does not exist (or is an empty file). It refuses, without writing
// anything and without creating a file beside it, a directory, an unreadable
// file, a file that is not SQLite, a SQLite file with another schema (other
// tables, columns or primary keys than archlab's), a file or directory it
// cannot write, and a file another archlab run holds with Lock; the error is
// an *OpenError.
func Open(path string, o Options) (*Store, error) {
	switch strings.ToUpper(o.Synchronous) {
	case "":
		o.Synchronous = "NORMAL"
	case "NORMAL", "FULL":
		o.Synchronous = strings.ToUpper(o.Synchronous)
	default:
		return nil, fmt.Errorf("sqlstore: synchronous must be NORMAL or FULL, got %q", o.Synchronous)
	}
	state, err := precheck(path, o.Owner)
	if err != nil {
		return nil, err
	}
	dsn, err := dsn(path, fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=synchronous(%s)", busyTimeout, o.Synchronous))
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, &OpenError{Path: path, Problem: CannotOpen, Err: err}
	}
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, &OpenError{Path: path, Problem: CannotOpen, Err: err}
	}
	s := &Store{db: db, conn: conn, opts: o}
	if err := s.setUp(state); err != nil {
		s.Close()
		return nil, &OpenError{Path: path, Problem: CannotOpen, Err: err}
	}
	return s, nil
}

// setUp switches the file to WAL and creates the schema if it is new. It
// runs only after inspect has accepted the file.
func (s *Store) setUp(state fileState) error {
	ctx := context.Background()
	// journal_mode=WAL is persistent and cannot change inside a transaction.
	// Readers (the broker reading balances) then never block the consumer.
	if _, err := s.conn.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return err
	}
	if state == ours {
		return nil
	}
	if _, err := s.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	// Another process may have created the schema since inspect looked.
	var version int
	if err := s.conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		s.conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	if version == SchemaVersion {
		_, err := s.conn.ExecContext(ctx, "COMMIT")
		return err
	}
	for _, q := range schema {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			s.conn.ExecContext(ctx, "ROLLBACK")
			return err
		}
	}
	_, err := s.conn.ExecContext(ctx, "COMMIT")
	return err
}

// Close closes the connection. The last connection to close checkpoints the
// WAL into the database file and removes the -wal and -shm files.
func (s *Store) Close() error {
	var err error
	if s.conn != nil {
		err = s.conn.Close()
	}
	return errors.Join(err, s.db.Close())
}

// Err returns the first error any method hit, or nil. After an error every
// method is a no-op, as with bufio.Scanner: check Err once at the end.
func (s *Store) Err() error { return s.err }

// Reset empties the keys, the balances and the effect counter in one
// transaction, so a kept database (--db) starts each run as a new one.
func (s *Store) Reset() error {
	if s.err != nil {
		return s.err
	}
	// Not through s.exec: this is housekeeping, not a step of the drill.
	ctx := context.Background()
	for _, q := range []string{sqlBegin, "DELETE FROM processed_keys", "DELETE FROM balances", "UPDATE counters SET value = 0", sqlCommit} {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			s.conn.ExecContext(ctx, sqlRollback)
			s.err = err // like every other verb: sticky
			return err
		}
	}
	return nil
}

// The statements of the write paths. Placeholders are filled in for the
// trace by literal(); none of these texts holds a '?' of its own.
const (
	sqlBegin     = "BEGIN IMMEDIATE"
	sqlCommit    = "COMMIT"
	sqlRollback  = "ROLLBACK"
	sqlInsertKey = "INSERT INTO processed_keys (producer, event_id, seq, amount) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
	sqlAddEffect = "INSERT INTO balances (order_id, cents) VALUES (?, ?) ON CONFLICT (order_id) DO UPDATE SET cents = cents + excluded.cents"
	sqlCount     = "UPDATE counters SET value = value + 1 WHERE name = 'applies'"
	sqlPrune     = "DELETE FROM processed_keys WHERE seq <= ?"
)

// ApplyOnce is one transaction: insert the key (a conflict means a
// duplicate: roll back and report false), add the amount to the balance,
// count the effect, commit.
func (s *Store) ApplyOnce(m inbox.Message) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	applied := false
	err := s.tx(func() (bool, error) {
		n, err := s.exec(sqlInsertKey, m.Producer, m.ID, m.Seq, m.AmountCents)
		if err != nil || n == 0 {
			return false, err // n == 0: the key exists, a duplicate
		}
		s.between()
		if err := s.effect(m); err != nil {
			return false, err
		}
		applied = true
		return true, nil
	})
	if err != nil {
		s.err = err
		return false, err
	}
	return applied, nil
}

// NaiveApply is one transaction with no key: every delivery adds its amount.
func (s *Store) NaiveApply(m inbox.Message) {
	if s.err != nil {
		return
	}
	s.err = s.tx(func() (bool, error) {
		if err := s.effect(m); err != nil {
			return false, err
		}
		s.between()
		return true, nil
	})
}

// MarkBeforeEffect is the book's wrong order on a database: the key in a
// transaction of its own, then the effect in another. A key already there
// is a duplicate: nothing more happens. With crash set it returns
// inbox.ErrSimulatedCrash between the two transactions.
func (s *Store) MarkBeforeEffect(m inbox.Message, crash bool) error {
	marked, err := s.Mark(m)
	if err != nil || !marked {
		return err
	}
	s.between()
	if crash {
		return inbox.ErrSimulatedCrash
	}
	return s.Effect(m)
}

// Mark commits the dedup key in a transaction of its own and reports
// whether it was new: the first write of the wrong order the book measures.
func (s *Store) Mark(m inbox.Message) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	marked := false
	err := s.tx(func() (bool, error) {
		n, err := s.exec(sqlInsertKey, m.Producer, m.ID, m.Seq, m.AmountCents)
		marked = n == 1
		return marked, err
	})
	if err != nil {
		s.err = err
		return false, err
	}
	return marked, nil
}

// Effect commits the effect in a transaction of its own, with no key: the
// second write of mark-before-effect.
func (s *Store) Effect(m inbox.Message) error {
	if s.err != nil {
		return s.err
	}
	if err := s.tx(func() (bool, error) { return true, s.effect(m) }); err != nil {
		s.err = err
		return err
	}
	return nil
}

// effect adds the amount to the order's balance and counts the effect. The
// counter is a row, so it survives a killed process like the balance does.
func (s *Store) effect(m inbox.Message) error {
	if _, err := s.exec(sqlAddEffect, m.OrderID, m.AmountCents); err != nil {
		return err
	}
	_, err := s.exec(sqlCount)
	return err
}

// Prune is one DELETE of the keys with seq <= maxSeq; it reports the rows
// deleted.
func (s *Store) Prune(maxSeq int64) int {
	if s.err != nil {
		return 0
	}
	n, err := s.exec(sqlPrune, maxSeq)
	if err != nil {
		s.err = err
		return 0
	}
	return int(n)
}

// Balance reads an order's balance; an order never paid has 0.
func (s *Store) Balance(orderID string) int64 {
	var cents int64
	s.read(&cents, "SELECT cents FROM balances WHERE order_id = ?", orderID)
	return cents
}

// Applies reads the effect counter.
func (s *Store) Applies() int {
	var n int
	s.read(&n, "SELECT value FROM counters WHERE name = 'applies'")
	return n
}

// Key is one row of the dedup table.
type Key struct {
	Producer, EventID string
	Seq, Amount       int64
}

// String is the key's canonical text form, the same as inbox.DedupKey.
func (k Key) String() string { return k.Producer + ":" + k.EventID }

// Keys lists the dedup table by producer and event ID, for tests and for a
// look at the file.
func (s *Store) Keys() ([]Key, error) {
	if s.err != nil {
		return nil, s.err
	}
	keys, err := s.keys()
	if err != nil {
		s.err = err
	}
	return keys, err
}

func (s *Store) keys() ([]Key, error) {
	rows, err := s.conn.QueryContext(context.Background(),
		"SELECT producer, event_id, seq, amount FROM processed_keys ORDER BY producer, event_id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []Key
	for rows.Next() {
		var k Key
		if err := rows.Scan(&k.Producer, &k.EventID, &k.Seq, &k.Amount); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// Balances lists every order's balance by order ID.
func (s *Store) Balances() (map[string]int64, error) {
	if s.err != nil {
		return nil, s.err
	}
	out, err := s.balances()
	if err != nil {
		s.err = err
	}
	return out, err
}

func (s *Store) balances() (map[string]int64, error) {
	rows, err := s.conn.QueryContext(context.Background(), "SELECT order_id, cents FROM balances")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var cents int64
		if err := rows.Scan(&id, &cents); err != nil {
			return nil, err
		}
		out[id] = cents
	}
	return out, rows.Err()
}

// read scans one value into dst; no row leaves dst at zero.
func (s *Store) read(dst any, q string, args ...any) {
	if s.err != nil {
		return
	}
	err := s.conn.QueryRowContext(context.Background(), q, args...).Scan(dst)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		s.err = err
	}
}

// tx runs body between BEGIN IMMEDIATE and COMMIT. IMMEDIATE takes the write
// lock up front, so a second process waits in the busy timeout instead of
// failing halfway. body reports whether to commit: false (a duplicate key,
// nothing written) or an error rolls back.
func (s *Store) tx(body func() (bool, error)) error {
	if _, err := s.exec(sqlBegin); err != nil {
		return err
	}
	commit, err := body()
	if err != nil || !commit {
		if _, rbErr := s.exec(sqlRollback); err == nil {
			err = rbErr
		}
		return err
	}
	if _, err := s.exec(sqlCommit); err != nil {
		return err
	}
	return nil
}

// exec runs one statement, reports it to OnStatement and returns the rows it
// changed.
func (s *Store) exec(q string, args ...any) (int64, error) {
	res, err := s.conn.ExecContext(context.Background(), q, args...)
	if err != nil {
		return 0, fmt.Errorf("sqlstore: %s: %w", firstWord(q), err)
	}
	rows := int64(-1)
	if q != sqlBegin && q != sqlCommit && q != sqlRollback {
		if rows, err = res.RowsAffected(); err != nil {
			return 0, err
		}
	}
	if s.opts.OnStatement != nil {
		s.opts.OnStatement(Statement{SQL: literal(q, args), Rows: rows})
	}
	return rows, nil
}

func (s *Store) between() {
	if s.opts.Between != nil {
		s.opts.Between()
	}
}

// literal writes args into q's placeholders as SQL literals, for the trace.
func literal(q string, args []any) string {
	if len(args) == 0 {
		return q
	}
	var b strings.Builder
	for _, a := range args {
		i := strings.IndexByte(q, '?')
		if i < 0 {
			break
		}
		b.WriteString(q[:i])
		switch v := a.(type) {
		case string:
			b.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		default:
			fmt.Fprint(&b, v)
		}
		q = q[i+1:]
	}
	b.WriteString(q)
	return b.String()
}

func firstWord(q string) string {
	w, _, _ := strings.Cut(q, " ")
	return w
}
