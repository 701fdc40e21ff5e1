// Package harness holds one harness per section of the book: the section's
// actors and verbs, written once. §8.2's Inbox delivers, redelivers and
// replays messages to a consumer that may crash at a named point or lose its
// ack, and prunes the dedup table; §8.3's Ordering publishes, dispatches
// with a retry budget, dead-letters, reconciles and replays a log; §11.2's
// Shardjob splits, runs a shard with a crash or a stall, commits, fences a
// takeover and lets a zombie commit.
//
// Every driver calls these verbs: the drill files (package drills), the
// explorer (package explore), and the consumer process of --crash real,
// which runs Handle on a real database. A verb records its step through the
// run's one Recorder, so the trace, the table and the diagram are
// renderings of the same run, and a fault is the scenario's decision, never
// the mechanism's.
//
// The one rule it keeps: a rule lives in one place. How the broker
// redelivers, where a consumer can crash, how a conflict is requeued, how a
// takeover is fenced: each is one function here.
package harness
