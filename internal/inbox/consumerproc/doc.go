// Package consumerproc runs the consumer of section 8.2 as an operating
// system process of its own, so that a drill's crash is a real one: the
// broker (the parent) kills the consumer with SIGKILL at an injected point,
// waits for it, and redelivers to a fresh process that opens the same
// SQLite file. Nothing is modelled; what survives the kill is what SQLite
// committed.
//
// The protocol is small. The parent starts the child (archlab's hidden
// "__consumer" subcommand, or a test binary) with one JSON request on its
// standard input: the database, the message, the handler (ApplyOnce,
// NaiveApply or MarkBeforeEffect) and the point to die at. The child reports
// on file descriptor 3, one JSON event per line: every SQL statement it ran,
// its handler's answer, its ack, and "I reached point X". At X it stops and
// blocks reading its standard input; the parent sends SIGKILL and waits.
// Should the parent die first, the child's standard input reaches EOF and the
// child exits at once without going past X, so no consumer outlives its
// broker.
//
// This package does I/O (processes, pipes, signals). It sits beside the
// pure mechanism internal/inbox, like internal/inbox/sqlstore; drills see it
// only through a small interface the command fills in.
package consumerproc
