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
// Schedules that reach the same state share all of their futures, so the state
// engine (Options.Engine, the default for §8.2 and §8.3) counts them without
// running them one by one, as a model checker such as TLC visits each distinct
// state once. A §8.2 state is what a run's future depends on, read from the
// harness: per message, acked or not, effects written (0, 1, or more: all the
// invariants ask), its dedup key held or not, and the faults spent. A delivery
// is local: what it does depends on its own message's bits alone, and it
// changes only those (a prune may forget other keys, blindly), so one harness
// run teaches the move for every state where the message has the same bits, at
// most 768 runs however large the scope. The claim is checked as the moves are
// learnt: the ledger is watched (keyStore), and a delivery that reaches another
// message is an error, not a wrong count. Each step acks a message or spends a
// fault, so states fall in layers; the engine finds them breadth first, and
// dynamic programming from the deepest layer counts, for every state, the
// schedules that finish from it, the ones that break each invariant, and the
// fewest steps to a broken end. From the empty state, the first step that stays
// on a shortest broken path gives the counterexample the enumerator would keep,
// and the counts of the steps passed over give its number. Sums past 2^64 are
// an error (ErrOverflow), so are walks past StateLimit states. TestEnginesAgree
// holds the two engines to the same report on every scope of a grid.
//
// A §8.3 state is the harness's Snapshot (the row, the retries queued with
// their attempts, the applies, the invariants so far) and the copies of
// each event still to deliver: the harness's Deliver hands over one event
// at a time, which is the same run as publishing the order and
// dispatching it (TestDeliverIsDispatchStepwise), and the end of a run is
// the enumerator's own. Costs ride along the counts, so the retry-budget
// table's deliveries come out of the same walk.
//
// §11.2 enumerates: each of its schedules is one pass of the book's
// Runner.Run per worker, an indivisible call, and two schedules share no
// state past their first run, so there is nothing to count once.
//
// A student's code (StudentInbox, StudentOrdering) walks the same states:
// it reaches the world only through its own message's or event's verbs.
//
// Nothing here prints or reads a clock; the command measures and renders.
// Words come from the catalogue (i18n) as keys: a counterexample's
// one-line form and an emitted file's texts exist in every language.
package explore
