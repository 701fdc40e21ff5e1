// Package sqlstore is the book's 8.2 inbox on a real database: the dedup
// table and the balances it protects live in one SQLite file, and ApplyOnce
// is one real local transaction (BEGIN IMMEDIATE, insert the key, update the
// balance, COMMIT) instead of the Ledger's mutex.
//
// The rule it makes visible is the book's: write the dedup key and the effect
// in one local transaction. With a real file and a real process that is
// killed with SIGKILL at any statement, SQLite's atomic commit is what keeps
// "no loss, no double": a transaction killed before COMMIT leaves nothing, one
// killed after COMMIT leaves both the key and the effect.
//
// Why a package of its own, and not a file in internal/inbox: inbox is one
// of the pure mechanisms (no os, no clock, no I/O), so that its tests and
// examples run as fast, deterministic state machines. This package does I/O
// (it opens files, talks to SQLite and reports its statements), so it sits
// beside the mechanism as an adapter: it imports inbox and satisfies
// inbox.Store; inbox never imports it. The driver is modernc.org/sqlite, a
// translation of SQLite to pure Go, so building archlab needs no C compiler.
//
// The schema is created on first use and versioned: PRAGMA application_id
// marks the file as archlab's and PRAGMA user_version holds the schema
// version. Open checks both before it writes a byte, and then the tables
// themselves, column by column with their primary keys (check.go): a file
// that is not SQLite, holds another application's tables, a newer archlab's
// schema, or archlab's mark over other tables is refused and left as it was,
// with no -wal or -shm file created beside it.
//
// A run that keeps a file takes it with Lock (lock.go) for its whole
// length, so two runs never interleave their transactions and mix their
// counters; the run's own consumer processes open it all the same.
package sqlstore
