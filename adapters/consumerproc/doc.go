// Package consumerproc runs the consumer of section 8.2 as an operating
// system process of its own, so that a drill's crash is a real one: the
// broker (the parent) kills the consumer with SIGKILL at the scenario's
// crash point, waits for it, and redelivers to a fresh process that opens
// the same SQLite file. Nothing is modelled; what survives the kill is what
// SQLite committed.
//
// It is an adapter of the harness, not a second consumer: *Spawner is a
// harness.Consumer, and the child runs harness.ServeDelivery: the strategy's
// handler, which is the book's own function (inbox.Consume,
// Ledger.MarkBeforeEffect), in the same environment as a consumer in the
// broker's process. The harness names the strategy and
// the point (harness.BeforeWrites, harness.BetweenWrites, harness.BeforeAck);
// this package only knows how to stop a process there.
//
// The protocol is small. The parent starts the child (archlab itself with
// ChildEnv=1, served in main before any command is built, or a test
// binary) with one JSON request on its
// standard input: the database, the message, the strategy and the point to
// die at. The child reports on file descriptor 3, one JSON event per line:
// every SQL statement it ran, every write its handler made (as the
// environment measured it), every point it passed, its ack and its prune,
// and the handler's answer when it returns. At the
// point where the harness's rule has the process die (harness.deliveryEnv)
// it stops and blocks reading its
// standard input; the parent sends SIGKILL and waits. Should the parent die
// first, the child's standard input reaches EOF and the child exits at once
// without going past the point, so no consumer outlives its broker. The ack
// is the broker's side of the harness: the child reports it, the parent
// sends it.
//
// This package does I/O (processes, pipes, signals). It is an adapter, like
// adapters/sqlstore, and imports
// the harness's vocabulary; the harness never imports it.
package consumerproc
