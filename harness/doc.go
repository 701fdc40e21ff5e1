// Package harness holds one harness per section of the book: the section's
// actors and verbs, written once, and the environment around the book's
// code. §8.2's Inbox delivers, redelivers and replays messages to a
// consumer whose handler is the book's own function (inbox.Consume,
// Ledger.MarkBeforeEffect); a row of §8.2's fault table (InboxFaults)
// strikes around it, through the store and the ack store the handler is
// handed (a crash at a point, a lost ack, a replay), and the janitor prunes
// the dedup table. §8.3's Ordering publishes, dispatches with a retry
// budget, dead-letters, reconciles and replays a log; §11.2's Shardjob
// splits, runs a shard with a crash or a stall, commits, fences a takeover
// and lets a zombie commit.
//
// Every driver calls these verbs: the drill files (package drills), the
// explorer (package explore), and the consumer process of --crash real,
// which runs the same handler on a real database (ServeDelivery). A verb
// records its step through the run's one Recorder, so the trace, the table
// and the diagram are renderings of the same run, and a fault is the
// environment's decision, never the mechanism's.
//
// The one rule it keeps: a rule lives in one place. How the broker
// redelivers, where a consumer can crash, how a conflict is requeued, how a
// takeover is fenced: each is one function here.
package harness
