package harness

// What a step did, as values: the call made (Op) and what came of it
// (Outcome), in the book's names. A reader of a run (the checker naming a
// student's mistake) asks these, never the catalogue keys that word the
// step: a key is text, and renaming a text must not change a verdict.
// The keys are the harness's own, so the tables from key to value are
// here, next to the code that records them, and nowhere else.

// Op is the call a step records. A step no reader asks about has none.
type Op int

// The calls, as the book names them.
const (
	NoOp       Op = iota
	ApplyOnce     // §8.2: the key and the effect in one transaction
	NaiveApply    // §8.2: the effect with no key
	Mark          // §8.2: the key alone
	Effect        // §8.2: the effect alone, after its key or before it
	Ack           // the consumer's ack to the broker
	Store         // a durable inbox's row, stored before the ack
	Process       // a durable inbox's row processed: ApplyOnce for a stored row
	Recover       // a durable inbox's recovery: at a restart, or before the books are read
	Notify        // the outside call a message asks for
	Prune         // §8.2: the janitor forgets the keys below a sequence
	Project       // §8.3: an event handed to the projection
	DeadLetter    // §8.3: an event put in the DLQ
	TakeOver      // §11.2: a new owner's run under a newer epoch
	Fence         // §11.2: the new owner's commit of the epoch, before it works
	Commit        // §11.2: a commit of an offset to the checkpoint
)

// Outcome is what came of a step's call. A step no reader asks about has
// none.
type Outcome int

// The outcomes, as the book names them.
const (
	NoOutcome         Outcome = iota
	Applied                   // the effect (§8.2) or the event (§8.3) applied
	AppliedAgain              // applied a second time: the double the key prevents
	Duplicate                 // found already handled, and skipped
	TakenForDuplicate         // skipped as handled, though it never was: the loss
	Marked                    // the key written
	Stored                    // a durable inbox's row written
	Committed                 // the checkpoint took the commit
	Refused                   // the call returned an error (a stale epoch, a stale offset, a read past the log)
	ZombieMoved               // a zombie's commit moved the checkpoint
	Conflict                  // §8.3: OutcomeRetry, a gap in the versions
	Dead                      // §8.3: OutcomeDead, the retry budget spent
	DeadEarly                 // dead-lettered before the budget was spent
	DeadPoison                // dead-lettered at once: no retry can apply it
	DuplicateRetried          // a duplicate taken for a conflict and retried
	DuplicateDead             // a duplicate taken for a conflict and dead-lettered
	PastBudget                // a retry the budget no longer allows, not requeued
)

// ops and outcomes are the recorded keys that say a call or an outcome.
// Two keys may word one value (a delivery's write in §8.2 and §8.3, the
// reasons a dead letter's budget was spent); a key left out says none.
var (
	ops = map[string]Op{
		"step.apply-once":      ApplyOnce,
		"step.naive-apply":     NaiveApply,
		"step.mark":            Mark,
		"step.effect":          Effect, // the book's MarkBeforeEffect, its second write
		"student.step.effect":  Effect,
		"step.ack":             Ack,
		"durable.step.store":   Store,
		"durable.step.process": Process,
		"durable.step.restart": Recover,
		"durable.step.settle":  Recover,
		"step.notify":          Notify,
		"step.prune":           Prune,
		"step.project":         Project,
		"step.dead-letter":     DeadLetter,
		"step.take-over":       TakeOver,
		"step.fence":           Fence,
		"step.commit":          Commit,
		"step.commit-under":    Commit, // a zombie's, under the current epoch
	}
	outcomes = map[string]Outcome{
		"res.applied":                     Applied,
		"res.outcome.applied":             Applied,
		"res.applied-again":               AppliedAgain,
		"res.duplicate":                   Duplicate,
		"res.outcome.duplicate":           Duplicate,
		"res.taken-for-duplicate":         TakenForDuplicate,
		"res.marked":                      Marked,
		"res.stored":                      Stored,
		"res.committed":                   Committed,
		"res.err":                         Refused,
		"res.zombie-moved":                ZombieMoved,
		"res.outcome.conflict":            Conflict,
		"res.outcome.dead":                Dead,
		"res.outcome.dead-budget":         Dead,
		"res.outcome.dead-no-retry":       Dead,
		"res.outcome.dead-early":          DeadEarly,
		"res.outcome.dead-poison-version": DeadPoison,
		"res.outcome.dead-poison-type":    DeadPoison,
		"res.outcome.duplicate-retried":   DuplicateRetried,
		"res.outcome.duplicate-dead":      DuplicateDead,
		"student.res.not-requeued":        PastBudget,
	}
)

// said sets s's Op and Outcome from its words, as it is recorded.
func said(s *Step) {
	s.Op, s.Outcome = ops[s.Action.Key], outcomes[s.Result.Key]
}
