// Package explore answers the question a single drill cannot: is a design
// safe under every fault schedule, not only the book's one? For a small
// scope it enumerates every schedule (which message is delivered when, where
// a handler crashes, which ack is lost, what is replayed; every delivery
// order of an order's events; every crash point, commit interval and zombie
// commit), runs each one through the section's harness (package harness:
// the same verbs, and so the same rules, the drills run, on internal/inbox,
// internal/ordering and internal/shardjob), and checks the section's
// invariants after each run. A schedule step is a harness verb: Deliver
// with a fault for §8.2; Publish, Dispatch and Reconcile for §8.3; Run,
// Fence and the zombie's commit for §11.2. The explorer keeps only what is
// its own: the schedules, the invariants and the counting.
//
// The one rule it teaches: a verdict comes from running, not from a script.
// The safe design must show no violation in the whole scope, and each unsafe
// design must be caught by at least one schedule, found by the enumeration.
// The shortest such schedule is kept; it can be replayed step by step into a
// harness.Recorder (Trace), so the command prints it with the drills' own
// trace, and written as a drill file (Emit) that `archlab drill --file`
// replays to the same violation.
//
// Counts are exact and deterministic: schedules are numbered in one
// canonical order, every result is a sum or a minimum by (length, number),
// so the report is the same for any number of workers. Schedules are
// streamed to the workers in small batches, never collected, so memory does
// not grow with the scope. --random samples a scope too large to enumerate,
// reproducibly: sample i depends only on the seed and i.
//
// Nothing here prints or reads a clock; the command measures and renders.
// Words come from the catalogue (internal/i18n) as keys: a counterexample's
// one-line form and an emitted file's texts exist in every language.
package explore
