package i18n

// realdbEN holds the words of the 8.2 drills on a real database (--store
// sqlite, --db, --crash real): their trace steps, flags and errors. It is a
// map of its own, like the explanations, so that the feature's words read
// together; zh has exactly the same keys (realdb_zh.go).
var realdbEN = map[string]string{
	// Trace.
	"actor.database":                    "database",
	"step.deliver-process":              "delivers %v (attempt %d) to pid %d",
	"step.sql":                          "%s",
	"step.sql-pid":                      "[pid %d] %s",
	"step.kill.before-ack":              "SIGKILL pid %d: after COMMIT, before ack",
	"step.kill.between-mark-and-effect": "SIGKILL pid %d: key committed, no effect",
	"step.kill.before-writes":           "SIGKILL pid %d: before its first write",
	"step.kill.between-writes":          "SIGKILL pid %d: inside its transaction, before COMMIT",
	"res.sql-ok":                        "ok",
	"res.sql-rows":                      "%d row(s)",
	"res.killed":                        "%s; waited for",
	"res.ack-never-sent":                "never sent: pid is dead (ErrAckLost)",
	"check.crash-real.killed":           "each injected crash was a real SIGKILL of a consumer process",

	// Flags and help.
	"help.flag.store": "where the §8.2 consumer keeps its dedup keys and balances: memory (the book's Ledger) or sqlite (a real SQLite file)",
	"help.flag.db":    "with --store sqlite, keep the database at `PATH` to inspect with the sqlite3 shell (emptied when a run starts); without --db a temporary file is used and removed afterwards",
	"help.flag.crash": "model: crashes are modelled in one process, as in the book; real: each delivery goes to a consumer process of its own, killed with SIGKILL at the injected point (needs --store sqlite)",
	"help.drill.example-store": `  # the §8.2 drills on a real SQLite file, the consumer killed with SIGKILL
  $ archlab drill --chapter 8.2 --store sqlite --crash real`,
	"help.example.sqlite":     "the same drill on a real SQLite file, its SQL in the timeline",
	"help.example.crash-real": "the consumer as a process of its own, killed with SIGKILL and redelivered to",
	"help.example.db":         "keep the database and look inside",
	"cli.db-kept":             "archlab: the database is kept at %s; look inside with: sqlite3 %s 'SELECT * FROM processed_keys'",

	// Errors: what was wrong and what is allowed.
	"err.store":               "--store must be memory or sqlite, got %q",
	"err.crash":               "--crash must be model or real, got %q",
	"err.crash-needs-store":   "--crash real needs --store sqlite: a killed process keeps only what it committed to a file",
	"err.db-needs-store":      "--db needs --store sqlite",
	"err.db-one-drill":        "--db keeps the database of one drill: give a drill name instead of %s",
	"err.store-no-drill":      "--store and --crash apply to the §8.2 drills; section %s has none",
	"err.db.directory":        "--db %s is a directory: give the path of a database file (created if missing)",
	"err.db.unreadable":       "--db %s cannot be read (%v); the file was not modified",
	"err.db.not-sqlite":       "--db %s is not a SQLite database; the file was not modified",
	"err.db.foreign":          "--db %s holds another application's tables, not archlab's; the file was not modified",
	"err.db.newer":            "--db %s has archlab schema version %d, this archlab knows version %d; the file was not modified",
	"err.db.open":             "--db %s cannot be opened or created (%v)",
	"err.crash-no-executable": "--crash real runs archlab itself as the consumer, but its executable was not found (%v)",
	"err.interrupted":         "interrupted: the consumer process was killed and waited for, temporary files removed",
}
