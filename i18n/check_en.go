package i18n

// checkEN holds the words of the student's exercises: archlab check, the
// exercises' titles, explanations and hints, and the steps the harness
// records when it runs a student's code (strategy student).
var checkEN = map[string]string{
	"help.check.short": "check the exercises you wrote in exercises/ against the drills and every schedule",
	"help.check.long": `Check the exercises you wrote in exercises/ (one Go file per exercise, in the
book's order: for each section a protocol exercise, where you choose the calls
around the book's mechanism, and a mechanism exercise, where you write the
mechanism itself). For each one, archlab runs the book's own test cases on a
mechanism, then the section's drills with your code as "strategy student", then
every schedule of the explorer's scope, and prints whether it is done (with how
many schedules struck with each fault: a fault that never struck is no pass),
or the first lesson it breaks, the shortest run that breaks it, where that run
parts from the book's on the same schedule ("the book:" / "yours:", and the
known mistake it shows), and a hint that points at the book's rule.

Each exercise runs in a child process under --timeout (10s by default): a loop
that never ends is reported with where it was and its last call, and the other
exercises are still checked. --watch checks again each time a file in
exercises/ is saved, rebuilding a small checker from the files on disk. Stuck?
--hint gives the first of a few graduated hints for the exercise in progress
(the first started and not done, or the one named; the hint for a known
mistake is in the report already), and each --hint after it the next; the count is kept per
exercise in the user's cache directory. --format exercism writes
DIR/EXERCISE/results.json for each exercise in Exercism's test-runner format,
version 3, and prints only the files' names; DIR is --output-dir,
archlab-results by default. An archlab built before exercises/ changed (go
install, then an edit) checks nothing: it says so in one line and exits 3.

Exit status: 0 every exercise done, 1 some are not (or did not finish), 2 a
usage error, 3 this archlab is older than exercises/ (run "go run ./cmd/archlab
check").`,
	"help.check.example": `  # every exercise, with the progress
  $ go run ./cmd/archlab check
  # check ledger again on every save (Ctrl-C stops)
  $ go run ./cmd/archlab check ledger --watch
  # one exercise, with the shortest breaking run in full and its drill file
  $ go run ./cmd/archlab check consumer-handler --show
  # a hint for the exercise in progress; ask again for the next one
  $ go run ./cmd/archlab check --hint
  # one results.json per exercise for a grading tool (Exercism's format, v3)
  $ go run ./cmd/archlab check --format exercism --output-dir results
  # the task, what to write and what is checked
  $ archlab explain ledger`,
	"check.flag.show":                   "print the shortest breaking run in full: its timeline and the drill file that replays it",
	"check.err.unknown":                 "unknown exercise %q; the exercises are %s",
	"check.err.args":                    "check takes at most one exercise, got %d",
	"check.err.not-done":                "not done yet: %s",
	"check.err.show-json":               "--show prints a timeline; leave it out with --json",
	"check.err.stale":                   "this archlab was built before exercises/ changed, so it would check the old code; run: %s",
	"check.line.done":                   "✓ %s (§%s): done: %d drills and %s schedules, none breaks it",
	"check.line.not-done":               "✗ %s (§%s): not done: %s",
	"check.line.not-started":            "○ %s (§%s): not started: write %s in %s",
	"check.line.unjudged":               "○ %s (§%s): not judged: %s",
	"check.why.busy":                    "this machine was too busy to run two goroutines at the same time",
	"check.line.error":                  "✗ %s (§%s): your code failed: %v",
	"check.detail.shortest":             "    shortest run: %s",
	"check.detail.hint":                 "    hint: %s",
	"check.detail.show":                 "    the whole run and its drill file: %s check %s --show",
	"check.detail.trace":                "The shortest run that breaks %s:",
	"check.detail.file":                 "Save this drill file, the replay, as %[2]s; then run\n    %[1]s drill --file %[2]s",
	"check.progress":                    "%d/%d exercises done",
	"check.lesson.counter":              "%s is %s, the book says %s",
	"check.lesson.unit":                 "the book's test %s fails: %s",
	"check.lesson.state-kept-probe":     "the code answers a short run (two payments, each delivered once, the first asking for a call outside the store) otherwise after the other runs than it did first: it keeps state outside the store its verbs give it (a package-level variable, a cache), which a restart of the consumer loses, and a run's verdict would depend on the runs before it. Keep every piece of state in that store",
	"check.lesson.state-kept":           "the code answers the drill %s otherwise after the other runs than it did first: it keeps state outside the store its verbs give it (a package-level variable, a cache), which a restart of the consumer loses, and a run's verdict would depend on the runs before it. Keep every piece of state in that store",
	"check.lesson.unfired":              "no schedule struck with the fault %s: the scope never tested it",
	"check.line.drill":                  "drill %s: %s",
	"check.hint.start":                  "open %s and write %s: it still returns ErrNotImplemented",
	"check.unit.projection.outcome":     "Handle(%s, attempt %d) returns %q; the book's consumer returns %q",
	"check.unit.projection.line":        "yours prints %q; the book prints %q",
	"check.unit.projection.dead-letter": "the dead letter of %s has attempt %d and reason %q; the book's has attempt %d and a reason wrapping %s",
	"check.unit.projection.replay":      "the book's Replay from offset %d stops: %s",

	"check.title.consumer-handler":    "the consumer's handler: each payment applied once behind an at-least-once broker",
	"check.title.projection-decision": "the projection's decision on one delivery: apply, ignore, retry or dead-letter",
	"check.title.projection":          "the projection's version gate and the consumer's retry and dead-letter policy, written yourself",
	"check.title.shard-loop":          "the shard loop: resume, apply idempotently, commit with the epoch, fence the takeover",
	"check.title.runner":              "the mechanism: the book's Runner.Run and Checkpoint, resuming, counting, committing and fencing by epoch",

	"check.hint.consumer-handler":                          "§8.2: at-least-once delivery means any message may come again. What makes a redelivery harmless, and what must be committed before the broker may forget the message?",
	"check.hint.consumer-handler.not-lost":                 "A message was lost: the broker forgot it, or a key said \"done\", before its effect was committed. §8.2: the effect comes before the ack, and a dedup key must never commit without its effect.",
	"check.hint.consumer-handler.not-doubled":              "A payment landed twice: a redelivery was not recognised. §8.2: the consumer keeps a dedup key, and the key and the effect commit together or not at all.",
	"check.hint.consumer-handler.all-acked":                "A message was never acked, so the broker will keep delivering it. §8.2: a delivery that has done its work (or found it done) says so to the broker.",
	"check.hint.consumer-handler.outside-called":           "A notify message was never notified. §8.2, the real boundary of exactly-once: the call outside the store is covered by no transaction, so it must be made on every delivery that gets that far, a duplicate included; the other side deduplicates it by the message's key.",
	"check.hint.projection-decision":                       "§8.3: which failures can waiting fix, and which never? A gap in the versions may close when the missing event arrives, within a budget; what cannot apply goes where reconciliation will find it.",
	"check.hint.projection-decision.within-budget":         "An event was retried past its budget. §8.3: the budget counts deliveries; when it is spent, retrying stops and the event is parked for reconciliation.",
	"check.hint.projection-decision.not-applied-twice":     "A delivery was reported applied when the projection did not move. §8.3: Apply reports a version already reached as not applied, with no error: that is a duplicate.",
	"check.hint.projection-decision.duplicate-not-refused": "An event already applied was retried or dead-lettered. §8.3: a duplicate is not a conflict: Projection.Apply reports it as not applied, with no error, and the consumer moves on (OutcomeDuplicate); only a version gap is worth a retry.",
	"check.hint.projection-decision.poison":                "Poison cannot be fixed by waiting. §8.3: Projection.Apply tells poison from a conflict (errors.Is); poison must not spend the retry budget.",
	"check.hint.projection-decision.out-of-order":          "A version gap is a conflict worth retrying: the missing event may still arrive. §8.3: the broker requeues what you ask it to retry.",
	"check.hint.projection-decision.retry-budget":          "An event whose predecessor never comes must not loop. §8.3: a conflict is retried until the delivery count reaches the budget, then parked.",
	"check.hint.projection":                                "§8.3: a projection moves one version at a time. Each event is one of four things to the gate: never applicable, already reached, too early, or next. Only the last moves the row; only the third is worth waiting for.",
	"check.hint.projection.not-moved-back":                 "A row's version went down. §8.3: an event at or below the current version is a duplicate: the gate leaves the row as it is.",
	"check.hint.projection.not-applied-twice":              "An event was applied twice. §8.3: a redelivered event reaches a version the row already holds; the gate reports it as not applied, with no error, and nothing changes.",
	"check.hint.projection.duplicate-not-refused":          "An event already applied was retried or dead-lettered. §8.3: a duplicate is not a conflict: Apply returns false with no error, and Handle says duplicate; only a version gap is worth a retry.",
	"check.hint.projection.within-budget":                  "An event was retried past its budget. §8.3: the budget counts deliveries; on the last one a conflict goes to the dead-letter queue instead.",
	"check.hint.projection.out-of-order":                   "An event that skips a version must not move the row: the one before it may still come. §8.3: the gate answers a gap with ErrConflict, and the consumer asks for a retry.",
	"check.hint.projection.poison":                         "Poison cannot be fixed by waiting. §8.3: an unknown type, or a version its type never has, is ErrPoison, and the consumer dead-letters it on its first delivery.",
	"check.hint.projection.retry-budget":                   "A conflict whose predecessor never comes must end. §8.3: it is retried until the delivery count reaches MaxAttempts, then dead-lettered with that count and the reason.",
	"check.hint.projection.replay":                         "Replay reads every event again. §8.3: because the gate is idempotent by version, a replayed event already reached is a duplicate and the rows do not move.",
	"check.hint.shard-loop":                                "§11.2: a checkpoint says how far the shard certainly got; a rerun starts there, the sink makes the replay harmless, and the lease epoch keeps an old worker out.",
	"check.hint.shard-loop.zombie-never-moves":             "A zombie moved the checkpoint. The book says of Checkpoint that \"a worker that lost its lease cannot move the offset\", but it only learns your epoch when you commit under it, and Runner.Run first commits after CommitEvery items. §11.2: raise the fence as you take over, before any work: w.Fence() writes your epoch in one step.",
	"check.hint.shard-loop.exactly-once":                   "A key was never applied: the checkpoint claimed items that were not done when the worker died. §11.2: an offset may be committed only when the items before it are done.",
	"check.hint.shard-loop.replay-matches":                 "The rerun replayed something other than the items between where it resumed and the crash. §11.2: a rerun resumes from the committed offset.",
	"check.hint.shard-loop.never-back":                     "The checkpoint moved back. §11.2: progress only moves forward within an epoch.",
	"check.hint.shard-loop.crash-resume":                   "The checkpoint or the replay differs from the book's. §11.2: commit every N items counted from where you resumed, and once more at the end.",
	"check.hint.runner":                                    "§11.2: the checkpoint says how far a shard certainly got. Runner.Run resumes there, commits every N items counted from there and at the end; Checkpoint.Commit keeps the newest epoch's offset and never lets it go back within an epoch.",
	"check.hint.runner.equal-is-noop":                      "A commit of the offset already stored, in the same epoch, was refused or changed something. §11.2, in the book's words: \"Equal offset is idempotent\": a rerun of a finished shard commits the end again, and that must be accepted as it is.",
	"check.hint.runner.lower-is-stale":                     "A commit behind the checkpoint, in the same epoch, was accepted. §11.2: \"a lower offset inside the same epoch is rejected\", with shardjob.ErrStaleOffset, so a slow duplicate of the worker cannot undo progress.",
	"check.hint.runner.never-back":                         "The checkpoint moved back. §11.2: within one epoch a commit may only keep or raise the offset; only a newer epoch may set it lower.",
	"check.hint.runner.fenced-after-first-commit":          "A worker of an older epoch committed after the new owner had committed. §11.2: \"a lower epoch … is rejected\", with shardjob.ErrStaleEpoch, whatever the offset.",
	"check.hint.runner.zombie-fenced":                      "A zombie's commit was accepted once the new epoch was in the checkpoint. §11.2: the epoch is compared before the offset: an older epoch is refused whatever offset it carries.",
	"check.hint.runner.fence-refuses-the-zombie":           "A zombie's commit got past the takeover fence. §11.2: once a commit of a newer epoch is stored, every commit of an older one is refused with shardjob.ErrStaleEpoch.",
	"check.hint.runner.zombie-never-moves":                 "A zombie moved the checkpoint after the takeover. §11.2: Checkpoint.Commit stores the epoch with the offset and refuses a lower epoch, whatever the offset.",
	"check.hint.runner.stale-loop-stops-at-refused-commit": "A run went on after its commit was refused. §11.2: Runner.Run returns the checkpoint's error at once: a refused commit means the shard is no longer this worker's.",
	"check.hint.runner.exactly-once":                       "A key was never applied: the checkpoint claimed an item before its effect. §11.2: an offset is committed only after the items before it were applied, and the crash falls after an item's effect, before its commit.",
	"check.hint.runner.each-key-once":                      "A key was never applied, or the run did not reach the end. §11.2: resume at the committed offset, apply every item from there, and commit the end.",
	"check.hint.runner.replay-matches":                     "The rerun replayed something other than the items between where it resumed and the crash. §11.2: Runner.Run starts at the committed offset (Load), not at 0.",
	"check.hint.runner.replay-since-checkpoint":            "The replay is not the items between the checkpoint and the crash. §11.2: resume at the committed offset, and stop right after the crashAfter-th item, before its commit.",
	"check.hint.runner.suppressed-is-replay":               "The sink suppressed more or less than the rerun replayed. §11.2: a rerun resumes at the checkpoint, so it replays exactly what the crashed run did past it.",
	"check.hint.runner.counted-from-resume":                "The rerun's first commit is not CommitEvery items after where it resumed. §11.2: the commit interval is counted from the resume offset, and nothing is committed before the first interval ends.",
	"check.hint.runner.window-open":                        "The zombie moved the checkpoint other than the book's Runner and Checkpoint let it: once, inside the window before the owner's first commit, and never after. §11.2: the book's Runner.Run writes its epoch at its first commit, not before (the takeover fence is the lab's, raised around your Runner), and from that commit on Checkpoint.Commit refuses the older epoch.",
	"check.hint.runner.crash-resume":                       "The checkpoint or the replay differs from the book's. §11.2: commit every N items counted from where the run resumed, and once more at the end; a crash after the Nth item comes before that item's commit.",
	"check.hint.runner.commit-cadence":                     "The commits differ from the book's. §11.2: the interval is counted from where the run resumed, and the end is always committed.",

	"check.explain.consumer-handler": `The task:
Write ConsumerHandler in exercises/consumer_handler.go: the consumer's
handler for one delivery of a payment. The broker delivers at least once:
after a crash or a lost ack the same message comes again. Every payment
must be applied exactly once, and every message must end acked.

The verbs:
d.Message(); d.ApplyOnce() (the dedup key and the effect in one local
transaction; a duplicate changes nothing); d.Mark() (the key alone);
d.Effect() (the payment alone); d.NaiveApply() (the payment, no key);
d.Notify(m) (the call outside the store m asks for: a notification, a publish;
no transaction covers it, so it is made on every delivery that gets there);
d.Ack() (may be lost: the broker then delivers again). A durable inbox of
your own: d.Store() (the message into your inbox table, committed at once),
d.Pending() (the rows not processed yet), d.Process(m) (a row's effect and
its done mark in one transaction). An outbox of your own:
d.ApplyOnceWithOutbox() (ApplyOnce, with a row for the message's call in the
same transaction), d.Relay() (each row's call, then the row marked relayed).
After a crash your process restarts with its store intact and runs
ConsumerRecover, with r.Pending(), r.Process(m), r.Notify(m) and r.Relay().
After the scenario's crash every verb returns
harness.ErrCrashed. A crash strikes before your first call, at your first
write (inside it when it is one transaction, right after it when it commits
alone), before your ack or right after it. The store may also refuse the
effect's write (harness.ErrEffectFailed): return the error, and the broker
delivers again.

What is checked:
The drills ack-lost, dedup-scope and prune-window with your handler
(strategy student), then every schedule of explore inbox (3 messages, 2
faults) with the store's failures and the crash after the ack added: no
message lost, none applied twice, every message acked.

Where to read:
§8.2 and internal/inbox: Ledger, Consume. The designs compared: the
last two commands below.

Try:
  go run ./cmd/archlab check consumer-handler --show
  archlab explore inbox
  archlab drill mark-before-effect`,
	"check.explain.projection-decision": `The task:
Write ProjectionDecision in exercises/projection_decision.go: what one
delivery of an order event comes to. Return applied, duplicate, retry (the
broker requeues it at the back) or dead (the dead-letter queue, which
reconciliation repairs).

The verbs:
d.Event(); d.Attempt() (this delivery's number, from 1); d.MaxAttempts()
(the retry budget, in deliveries); d.Apply() (Projection.Apply: true, a
duplicate as false, or an error wrapping ordering.ErrConflict or
ordering.ErrPoison).

What is checked:
The drills out-of-order, poison, retry-budget, reconcile and
redelivered-event with your decision (strategy student), then every schedule of explore ordering with
the poison event added (every delivery order, up to 2 duplicates, budgets 1
to 3) followed by reconciliation: the version never moves back, no event is
applied twice, the projection ends equal to the source of truth, no event
is retried past its budget.

Where to read:
§8.3 and internal/ordering: Projection.Apply, Consumer.Handle.

Try:
  go run ./cmd/archlab check projection-decision --show`,
	"check.explain.projection": `The task:
Write the book's §8.3 mechanism in exercises/projection.go, in the book's
shapes: Projection (NewProjection, Apply, Get, AppliedCount) and Consumer
(NewConsumer, Handle, DLQ). Apply is the version gate: an event that can
never apply wraps ordering.ErrPoison; a version at or below the row's is a
duplicate, (false, nil); a version past the next one wraps
ordering.ErrConflict; the next version moves the row. Handle turns that
into applied, duplicate, retry (within MaxAttempts deliveries) or dead (into
the DLQ, with the attempt and the reason).

What is checked:
First your Projection and Consumer beside the book's, call by call: random
sequences of Apply, Handle, Repair and NewConsumer (every type and version,
duplicates, gaps, poison of both kinds, an event after a repair, budgets
from -1 to 4), every answer, row, count and dead letter compared with the
book's; then Apply and Handle from two goroutines at once, each history
checked against the book's types. Then the book's unit cases
(TestOutOfOrderRejectedThenConverges,
TestPoisonGoesStraightToDLQ, TestConflictExhaustsRetryBudget,
TestReconcileRepairsDeadLettered, TestReplayRebuildsProjection); then the
drills out-of-order, poison, retry-budget, reconcile, reconcile-gaps,
replay and redelivered-event with your projection and consumer in place of
the book's (strategy student, exercise projection); then every schedule of explore
ordering with the poison event added, and a wider one, each followed by the
book's Reconcile over your rows: the version never moves back, no event is
applied twice, no duplicate is retried or dead-lettered, no event is
retried past its budget, the projection ends equal to the source of truth.

Where to read:
§8.3 and, once yours is done, internal/ordering: Projection.Apply,
Consumer.Handle.

Try:
  go run ./cmd/archlab check projection --show`,
	"check.explain.shard-loop": `The task:
Write ShardLoop in exercises/shard_loop.go: one worker's pass over a shard
as the holder of its lease. A worker may crash right after an item, before
its commit, and be rerun; a stalled worker loses its lease to a new owner
with a higher epoch and may still commit as a zombie.

The verbs:
w.Shard(), w.Epoch(), w.Items(), w.CommitEvery(), w.Load() (the committed
offset), w.Fence() (the takeover: the committed offset written back under
your epoch in one step, and returned), w.Apply(key) (the idempotent sink:
false for a key already applied, harness.ErrSinkFailed for an item the
sink failed), w.Commit(epoch, offset) (a lower epoch
than the last commit's is shardjob.ErrStaleEpoch). A crash or stall
strikes right after an Apply, as the book's crashAfter does: from then on
every verb returns harness.ErrCrashed.

What is checked:
The drills crash-resume and stale-epoch with your loop (strategy student;
stale-epoch's fence line is the takeover, the old epoch's loop must stop at
its first refused commit), then every schedule of explore shardjob (30
keys: every commit interval, crash point, item the sink fails, and moment
a zombie commits: right after your first call to the checkpoint, or after
one of your commits): every key applied once, the rerun replays exactly the items
between where it resumed and the crash, the checkpoint never moves back,
no zombie moves the checkpoint. The book's Runner.Run, copied as it is,
does not pass: that is the lesson of the zombie-window drill.

Where to read:
§11.2 and internal/shardjob: Runner.Run, Checkpoint.Commit, Sink.Apply;
the drills zombie-window and stale-epoch (the last two commands below).

Try:
  go run ./cmd/archlab check shard-loop --show
  archlab explain zombie-window
  archlab explain stale-epoch`,

	"check.explain.runner": `The task:
Write the book's Runner.Run and Checkpoint in exercises/runner.go, with the
book's names: the mechanism itself, where the harness puts it in place of
internal/shardjob's.

Checkpoint keeps each shard's committed offset and the lease epoch that
committed it. Load and Epoch read them (0 when none). Commit refuses an
epoch lower than the stored one (shardjob.ErrStaleEpoch), and in the same
epoch a lower offset (shardjob.ErrStaleOffset); an equal offset is accepted
and changes nothing; a higher epoch may set any offset. Runner.Run resumes
at the committed offset, applies each item to the idempotent sink, commits
every CommitEvery items counted from where it resumed and at the end, stops
right after its crashAfter-th item, before that item's commit
(shardjob.ErrInjectedCrash), and returns a refused commit's error.

What is checked:
First your Runner and Checkpoint beside the book's, call by call: random
sequences of Run and Commit on two shards (resumed runs, every CommitEvery
from 0 to 4, crashes, lower, equal and higher epochs and offsets, a zombie
that commits ahead), every Result, error, call to the sink and the
checkpoint, Load and Epoch compared with the book's; then Commit, Load and
Epoch from two goroutines at once, each history checked against the book's
Checkpoint. Then the book's test TestRunCrashResume (shard0=250 crash_attempts=37
checkpoint=30 replay=7 applied=1000 suppressed=7) on your Runner and
Checkpoint; the drills crash-resume, rerun-commit, zombie-window,
stale-epoch, commit-cadence, current-epoch-zombie and sink-fails with yours
where the book's sit; then every
schedule of explore shardjob (30 keys) with the lab's takeover fence around
your Runner (fence-at-takeover): every key applied once, the rerun replays
exactly the items between where it resumed and the crash, the checkpoint
never moves back, no zombie moves it. These are exactly the drills and
schedules the book's own Runner and Checkpoint pass: without the fence the
book's loop lets a zombie in, which is shard-loop's lesson.

Where to read:
§11.2 and internal/shardjob: Runner.Run, Checkpoint.Commit, Sink.Apply;
the drills rerun-commit and commit-cadence (the last two commands below).

Try:
  go run ./cmd/archlab check runner --show
  archlab explain rerun-commit
  archlab explain commit-cadence`,

	"check.flag.hint":         "give the next of a few graduated hints for the exercise in progress (the first started and not done), or the one named (the count is kept per exercise in the user's cache directory)",
	"check.hints.line":        "hint %d/%d for %s: %s",
	"check.hints.last":        "hint %d/%d for %s, the last one: %s",
	"check.hints.next":        "    ask again for the next one: %s",
	"check.hints.not-needed":  "%s is done: no hint needed",
	"check.hints.all-done":    "every exercise is done: no hint needed",
	"check.hints.err.read":    "the hint count in %s cannot be read (%v); the hints start again from the first",
	"check.hints.err.write":   "cannot keep the hint count in %s (%v); the next --hint shows this one again",
	"check.hints.err.corrupt": "not a hint count this archlab wrote",
	"check.hints.err.cache":   "cannot keep the hint count in the user's cache directory (%v); the next --hint shows this one again",

	"check.hints.consumer-handler.1": "Start from what the broker promises: at least once. Any message may come again, after a crash or after an ack that never reached the broker. For each call you write, ask: if the process dies right after it, what happens when the message comes back?",
	"check.hints.consumer-handler.2": "A redelivery is harmless only when the consumer can recognise it: that is what a dedup key is for. But a key committed without its effect says \"done\" for a payment that never happened, and an effect committed without its key is applied again. Look through the verbs for the one that commits both together.",
	"check.hints.consumer-handler.3": "The broker may forget a message as soon as it is acked, so the ack comes only once the effect is committed. A delivery that finds its key already there has nothing left to do, but it must still ack, or it comes back forever. After a crash every verb returns harness.ErrCrashed: return it, do not swallow it.",

	// exercise ledger (§8.2, the mechanism)
	"check.title.ledger":                    "the ledger: the dedup table and its retention window, under the book's Consume",
	"check.hint.ledger":                     "§8.2: the dedup key and the effect are one local transaction, and the key is the message's identity: its producer and its event ID.",
	"check.hint.ledger.not-lost":            "A message was lost: a delivery found its key, but its payment never landed. §8.2: a key is written only together with its effect, never on its own.",
	"check.hint.ledger.not-doubled":         "A payment landed twice: a redelivery was not recognised as one. §8.2: ApplyOnce records the key in the same transaction as the effect, and a key it finds changes nothing, the balance included.",
	"check.hint.ledger.all-acked":           "A message was never acked. The book's Consume acks after ApplyOnce returns with no error: a duplicate is false, nil, not an error.",
	"check.hint.ledger.dedup-scope":         "Two producers' events with the same ID were taken for one. §8.2: the ID is the producer's own numbering, so the key is scoped by producer: inbox.DedupKey.",
	"check.hint.ledger.prune-window":        "§8.2: Prune(maxSeq) forgets the keys whose Seq is <= maxSeq, the bound included, and reports how many it forgot.",
	"check.hint.ledger.prune-keeps-newer":   "A prune forgot a key still inside the retention window, or miscounted. §8.2: Prune(maxSeq) forgets only the keys with Seq <= maxSeq; every newer key stays and still stops its replay.",
	"check.unit.ledger.first-delivery":      "the first delivery, whose ack is lost, reports applied=%v; the book's: applied=true with ErrAckLost",
	"check.unit.ledger.redelivery-applied":  "the redelivery of %s was applied again; the book's: a duplicate, false, nil",
	"check.unit.ledger.ack-lost":            "effects=%d balance=%d acks=%d; the book's: effects=1 balance=2599 acks=2",
	"check.unit.ledger.taken-for-duplicate": "%s was taken for a duplicate though its key was new; the book's: true, nil",
	"check.unit.ledger.dedup-scope":         "effects=%d balance=%d; the book's: effects=2 balance=600",
	"check.unit.ledger.prune-window":        "pruned=%d replay_applied=%v balance=%d; the book's: pruned=1 replay_applied=true balance=2400",
	"check.explain.ledger": `The task:
Write the book's Ledger in exercises/ledger.go: the consumer's local store,
with its dedup table. NewLedger returns an empty ledger. ApplyOnce(m)
records the dedup key inbox.DedupKey(m) (producer:ID) and applies the
payment in one local transaction, here one lock: a key already there returns
false, nil and changes nothing. Prune(maxSeq) is the retention window: it
forgets the keys whose message has Seq <= maxSeq, keeps the others, and
reports how many it forgot. Balance and Applies are what the drills'
counters read. The book's wrong designs (NaiveApply, MarkBeforeEffect) are
not asked for.

What runs over it:
The book's inbox.Consume, unchanged: ApplyOnce, then the ack. The broker,
the crashes, the lost acks, the duplicates and the replays are the lab's,
as in every §8.2 drill.

What is checked:
First your Ledger beside the book's inbox.Ledger, call by call: random
sequences of ApplyOnce and Prune (redeliveries, another producer's event
with the same ID, producers and IDs whose plain concatenations collide,
Seqs out of order and shared, Prune at every edge), every answer and every
Balance and Applies after it compared with the book's; then two deliveries
at once, from two goroutines, each history checked against the book's
Ledger (the key and the effect under one lock). Then the book's own tests
on your Ledger (TestSideEffectThenAckLost, TestDedupKeyIncludesProducer,
TestPruneOpensReplayWindow); the drills ack-lost, dedup-scope,
prune-window, prune-keeps-newer, prune-out-of-order, exactly-once-boundary
and duplicate-delivery with your Ledger in the book's place (strategy
student, exercise ledger); then every schedule of explore inbox (3
messages, 2 faults), enumerated one by one on a fresh ledger: no message
lost, none applied twice, every message acked.

Where to read:
§8.2 and internal/inbox: Ledger, DedupKey, Consume; window.go for a Prune
that does not scan the whole table.

Try:
  go run ./cmd/archlab check ledger --show`,
	"check.hints.ledger.1": "Start from what the broker promises: at least once. The same message may reach ApplyOnce again; what must your ledger remember so that the second call can tell, and what may that second call change?",
	"check.hints.ledger.2": "What identifies a message? Two producers number their events independently, so the same event ID may come from both. The key and the effect must both happen or neither: in this in-memory ledger, under one lock, with the check for the key inside it too.",
	"check.hints.ledger.3": "The retention window is counted in the producer's outbox sequence, not in time: each key needs the Seq of its message, so that Prune(maxSeq) can forget exactly those with Seq <= maxSeq and leave the newer ones alone. Prune reports what it forgot; Applies counts effects, not calls.",

	"check.hints.projection-decision.1": "Apply can end in four ways: applied; a version already reached (no error); a gap before this version (ErrConflict); an event that can never apply (ErrPoison). Write down what each one means for this delivery before you write any code.",
	"check.hints.projection-decision.2": "Only one of those can be mended by waiting: a gap closes when the missing event arrives. Tell the errors apart with errors.Is, not by their text. And a version already reached is not an error at all: there is nothing to retry.",
	"check.hints.projection-decision.3": "Waiting has a budget. d.Attempt() counts this event's deliveries from 1 and d.MaxAttempts() is the budget: a retry asked for on the last allowed delivery would go past it. What waiting cannot mend, or may no longer wait for, goes where reconciliation will find it.",
	"check.hints.projection.1":          "Start with the gate alone. For one order the row is at version n: list what an event of version n+1, n, below n, and above n+1 each means, and which of them changes the row. A malformed event comes before all that: target tells you what version its type must have.",
	"check.hints.projection.2":          "The gate's answers are values, not moods: a duplicate is (false, nil), not an error; a gap and poison are errors the consumer tells apart with errors.Is, so wrap the book's sentinels with %w. The row and the applied count move together, and only when the row does.",
	"check.hints.projection.3":          "Handle turns the gate's answer into what the broker does. Which answer can time mend? That one is retried while attempt is below the budget, and on the last allowed delivery it is dead-lettered with the attempt and the reason, like the one time cannot mend, which goes there at once. The budget has a default when none is given.",

	"check.hints.shard-loop.1": "A rerun must neither start from zero nor skip work. Where did the previous worker certainly get? That is what the checkpoint holds: resume there, and let the idempotent sink make the replayed items harmless.",
	"check.hints.shard-loop.2": "Count the commit cadence from where you resumed, not from the first item, and commit once more at the end. An offset may be committed only once every item before it has been applied: a crash can strike right after any Apply.",
	"check.hints.shard-loop.3": "A zombie of the previous epoch may still commit, and the checkpoint learns your epoch only when something is written under it. Take the shard over before any work: one verb writes the committed offset back under your epoch in one step. A commit refused with ErrStaleEpoch means the shard is no longer yours: stop there.",

	"check.flag.format":                   "how to report: text; exercism (one results.json per exercise, Exercism's test-runner format, version 3); gradescope (DIR/results.json, Gradescope's autograder format); junit (DIR/junit.xml, JUnit XML); classroom50 (DIR/result.json, Classroom 50's autograder result)",
	"check.flag.output-dir":               "where --format exercism writes DIR/EXERCISE/results.json (default %s)",
	"check.err.format":                    "--format must be text, exercism, gradescope, junit or classroom50, got %q",
	"check.err.classroom50-env":           "--format classroom50 writes the result of a submission that Classroom 50's autograder grades; not set here: %s",
	"check.err.classroom50-env.hint":      "run it in the autograder (docs/teachers.md), where the runner sets %s",
	"check.err.classroom50-git":           "--format classroom50 needs the date of the commit graded, from git log: %v",
	"check.err.format-with":               "--format exercism writes files and prints only their names; leave out %s",
	"check.err.output-dir":                "--output-dir is where --format exercism writes; add --format exercism",
	"check.exercism.drill":                "drill %s",
	"check.exercism.unit":                 "the book's test %s",
	"check.flag.timeout":                  "each exercise's time limit, a Go duration such as 10s or 1m (default %s); an exercise still running then is reported as not finished, and the others are still checked (time its process waits for a CPU that other programs have is not counted: a busy machine is not a hang)",
	"check.err.timeout":                   "--timeout must be a duration from 100ms to 1h, such as 10s or 1m, got %q",
	"check.err.exe":                       "cannot start a process to check the exercises in: %v",
	"check.err.limit":                     "could not check %s: this machine's limits stopped its process (%s); raise them (ulimit -u, ulimit -v) and check again",
	"check.explain.verdict":               `What decides the verdict: the harm your code does, never the book's numbers. A protocol exercise, or a drill file of strategy student, is not done only when the code does a harm: a payment lost or applied twice, a call outside the store never made for a message that was applied, a message never acked, a projection that ends unlike the source of truth, an event applied twice, a version moved back or skipped, an event retried past its budget, an item never applied, a checkpoint moved back or by a zombie. Or when it breaks a clause its task states (projection-decision: poison dead-lettered on its first delivery, a conflict retried within its budget), which the report names with "no harm was seen". Or when it keeps state outside the store its verbs give it (a package-level variable): a short run of your code, first and last, and its drills, run again after every schedule, must answer the same. The crashes strike where your calls put them: right before each of them, and, after each Claim, the lease runs out while you are slow. A harm the book's own design does in the same drill (prune-window's replay past the window) is the drill's lesson, not yours; if your design does not do it, the report says you are safer than the book there. A check or a counter that differs from the book's with no harm ("checkpoint 36 where the book's design gives 30", for a loop that commits after every item) is shown as a difference of design: it informs, it never decides. A mechanism exercise is judged call by call against the book's type: its verdict is the first answer that differs, or calls made at once that no order explains.`,
	"check.err.busy":                      "could not check %s: the calls made at once hardly ever overlapped, as this machine was too busy to run two goroutines at the same time, so nothing was judged; check again when it is quieter",
	"check.line.hung":                     "✗ %s (§%s): did not finish within %s",
	"check.detail.hung":                   "    it was running %s; its last call was %s",
	"check.hung.unknown":                  "(not known)",
	"check.hung.no-call":                  "(none yet)",
	"check.detail.faults":                 "    of the %s schedules run one by one, these many struck with each fault: %s",
	"check.detail.wide-skipped":           "    the wide scope was left out: your handler keeps a table of its own (a durable inbox or an outbox), which the explorer's states cannot tell apart; each schedule above ran from the start, restarts included",
	"check.difference.counter":            "%s %s where the book's design gives %s",
	"check.difference.in":                 "%s: %s",
	"check.detail.safer":                  "    safer than the book here, which does this harm: %s",
	"check.detail.difference":             "    differs from the book's design, with no harm seen: %s",
	"check.flag.watch":                    "check again each time a file in exercises/ is saved (Ctrl-C stops): the checker is rebuilt from the files on disk, and only the exercise saved is checked",
	"check.err.watch-with":                "--watch prints a verdict after every save and cannot be combined with --json, --format exercism or --hint",
	"check.watch.no-source":               "--watch rebuilds the exercises from the clone, and found none: %v",
	"check.watch.no-go":                   "--watch rebuilds the exercises with Go, and found no go command on PATH",
	"check.watch.no-dir":                  "cannot watch %s: %v",
	"check.watch.waiting":                 "watching %s: save a file to check again, Ctrl-C to stop",
	"check.watch.stopped":                 "stopped watching",
	"check.watch.saved":                   "── saved: %s; checking %s ──",
	"check.watch.compile":                 "✗ the exercises do not compile:",
	"check.err.interrupted":               "interrupted: the check's child process was stopped",
	"check.detail.printed":                "    your code printed %s lines while it was checked (it may print: check shows it apart); the first %d:",
	"check.err.no-result":                 "its process ended without a result: %s",
	"check.err.child":                     "--child is archlab's own: a check starts itself with it and one exercise to check; run archlab check instead",
	"check.diag.step":                     "%s: %s",
	"check.diag.sep":                      "; ",
	"check.diag.at":                       "    where it parts from the book: step %d, %s",
	"check.diag.book":                     "      the book: %s",
	"check.diag.yours":                    "      yours: %s",
	"check.diag.nothing":                  "nothing",
	"check.diag.mistake":                  "    known mistake: %s",
	"check.mistake.mark-before-effect":    "mark before the effect: the key is committed in its own write, so a crash before the effect leaves a key that says done for a payment never made, and the redelivery is dropped as a duplicate",
	"check.mistake.two-transactions":      "two transactions: the effect and the key are written apart, so a crash between them applies the payment with no key, and the redelivery applies it again",
	"check.mistake.ack-first":             "ack first: the broker forgets the message before its effect is safe, so a crash after the ack loses it",
	"check.mistake.no-key":                "no dedup key: nothing remembers a message was handled, so every redelivery applies it again",
	"check.mistake.no-recovery":           "no recovery: rows stored in the inbox table and acked are processed only by the delivery that stored them, so one it could not finish (a crash after the ack, a failed write) is never come back to",
	"check.mistake.notify-only-when-new":  "the outside call only when ApplyOnce reports a new payment: a consumer that dies between the commit and the call leaves it unmade, and the redelivery finds the key and skips it",
	"check.mistake.no-ack":                "no ack: the broker never hears the message was handled and keeps it forever",
	"check.mistake.duplicate-as-conflict": "a duplicate taken for a conflict: a version already reached is done, not missing something; retrying it or dead-lettering it sends correct data to reconciliation",
	"check.mistake.past-budget":           "retried past the budget: a conflict that cannot resolve must go to the dead-letter queue once its attempts are spent",
	"check.mistake.no-fence":              "no fence at the takeover: the new owner never writes its epoch into the checkpoint in one step, so the old owner, a zombie, can still commit and move it",
	"check.mistake.key-without-producer":  "a key without its producer: two producers' events with the same ID are taken for one, and the second is never applied",
	"check.mistake.prune-too-much":        "Prune forgets too much: keys newer than the window's edge go too, and their redeliveries apply again",
	"check.mistake.prune-too-little":      "Prune forgets too little: the key at the window's edge stays, and the table grows without end",
	"check.mistake.gap-applied":           "a gap applied: a version past the next one is applied, skipping the one between; it must be a conflict until the missing one arrives",
	"check.mistake.version-back":          "the version moves back: an old version is applied over a newer one; a version already reached is a duplicate",
	"check.mistake.poison-retried":        "poison retried: an event that can never apply is retried until the budget runs out; it belongs in the dead-letter queue at once",
	"check.mistake.dead-before-budget":    "dead-lettered before the budget: a conflict may resolve when the missing version arrives; retry it while attempts remain",
	"check.mistake.resume-from-zero":      "resume from zero: the rerun starts at the first item instead of at the checkpoint, and replays what was already committed",
	"check.mistake.stale-epoch-accepted":  "a stale epoch accepted: Commit takes an older lease term's offset, so a zombie moves the checkpoint",
	"check.mistake.stale-offset-accepted": "a stale offset accepted: Commit takes an offset lower than the stored one in the same epoch, and the checkpoint moves back",
	"check.mistake.equal-offset-refused":  "an equal offset refused: committing the stored offset again changes nothing and must succeed",
	"check.exercism.explore":              "every schedule of the explorer's scope",
	"check.exercism.error":                "your code failed: %v",
	"check.exercism.not-run":              "not run: the check of %s stopped at an earlier test",
	"check.exercism.wrote":                "%s: %s",
	"check.exercism.err.write":            "cannot write %s: %s",
	"check.hints.runner.1":                "Start with the checkpoint: it answers three questions about a commit, in order. Is it from an older lease term? Within the same term, would it take the shard backwards? Does it change anything at all? Only the book's sentinels may say no, and a refusal leaves everything as it was.",
	"check.hints.runner.2":                "A rerun starts where the checkpoint says, never at zero, and counts its commit interval from there: the first commit comes CommitEvery items after the resume offset, not at the next round number. The end of the shard is always committed, even when it falls on a boundary.",
	"check.hints.runner.3":                "The crash the caller asks for falls right after an item's effect and before its commit: that is the window a rerun replays, and the sink makes harmless. So an offset is committed only after the item before it was applied, and a commit the checkpoint refuses ends the run with its error.",

	"check.unit.runner.crash-err": "the run of shard-0 with crashAfter %d returned %s; the book's returns an error wrapping shardjob.ErrInjectedCrash",
	"check.unit.runner.crash":     "the crashed run: %d attempts, checkpoint %d (stored %d); the book's: %d attempts, checkpoint %d",
	"check.unit.runner.rerun-err": "the rerun of shard-0 returned %s; the book's returns nil",
	"check.unit.runner.rerun":     "the rerun: %d attempts, %d suppressed, checkpoint %d (stored %d); the book's: %d attempts from %d, %d suppressed, checkpoint %d",
	"check.unit.runner.shard":     "%s: %d applied, %d suppressed, checkpoint %d, error %s; the book's: %[6]d applied, 0 suppressed, checkpoint %[6]d, error <nil>",
	"check.unit.runner.totals":    "the sink: applied=%d suppressed=%d; the book's: applied=%d suppressed=%d",

	"student.step.effect":                   "Effect %v",
	"student.step.crash-between":            "crashes between its writes",
	"student.step.crash-before-call":        "crashes before call %d of the step (%s)",
	"student.step.crash-after-calls":        "crashes after its last call of the step (call %d)",
	"student.step.past-budget":              "stops redelivering %v after attempt %d",
	"student.res.not-requeued":              "a retry past the budget of %d: not requeued",
	"student.res.replay-refused":            "applied %d, duplicates %d, then your projection refused the event at offset %d: the replay stops there",
	"student.step.fence":                    "takes over under epoch %d",
	"student.res.fence-is-yours":            "no harness fence: the student's loop fences",
	"student.outcome.unacked":               "m%d never acked",
	"student.outcome.past-budget":           "an event retried past its budget",
	"explore.emit.check.all-acked":          "every message ends acked",
	"student.outcome.outside-lost":          "m%d never notified",
	"explore.emit.check.outside-called":     "the call outside the store is made for every notify message: a delivery that reaches it makes it",
	"student.outcome.skipped":               "an apply moved the order past the next version",
	"explore.emit.check.no-skipped-version": "every apply moves an order by one version, never past a missing one",
	"explore.emit.check.within-budget":      "no event is retried past its budget",
}
