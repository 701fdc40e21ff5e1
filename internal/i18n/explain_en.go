package i18n

// explainEN holds the lessons `archlab explain NAME` prints, key
// "explain.<drill>": what is injected, the rule that protects (or fails
// to), what each counter proves, where to read the code and what to try
// next. Every number in "Try next" was checked by running the drill.
var explainEN = map[string]string{
	"explain.ack-lost": `Injected:
The consumer handles payment pay:evt-1 (25.99 for order o-1). The ledger
commits the effect together with its dedup key, then the ack to the broker
is lost (ErrAckLost). The broker only knows that the message is unacked, so
it delivers it again. With --deliveries N, every ack but the last is lost.

The rule:
Effect first, ack second (inbox.Consume), and the dedup key is written in
the same local transaction as the effect (Ledger.ApplyOnce). A lost ack
therefore costs a redelivery, never a second charge: ApplyOnce finds the key
pay:evt-1 and suppresses the duplicate.

What the counters prove:
deliveries=2 is how often the broker delivered. effects=1 proves the payment
was applied once. balance=2599 is one payment, in cents. acks=2 counts ack
attempts, the lost one included: one per delivery.

Where to read the code:
internal/inbox: inbox.Consume and Ledger.ApplyOnce; MemoryAck.LoseNext
injects the lost ack. The scenario is drills/ack_lost.go.

Try next:
  archlab drill ack-lost --deliveries 5
Four acks are lost and the broker delivers five times: deliveries=5 and
acks=5, but effects stays 1 and balance stays 2599.`,
	"explain.naive-redelivery": `Injected:
The same lost ack as in ack-lost, but the consumer calls Ledger.NaiveApply,
which keeps no dedup key.

The rule:
None, and that is the point. At-least-once delivery means any message may
arrive more than once. NaiveApply has nothing to recognise a redelivery by,
so every delivery charges the order again. This is the baseline the dedup
table exists to fix.

What the counters prove:
deliveries=2 and effects=2: every delivery became an effect. balance=5198 is
two payments of 2599: the customer was charged twice. ack-lost differs only
in calling ApplyOnce, and prints effects=1 balance=2599.

Where to read the code:
internal/inbox: Ledger.NaiveApply, next to Ledger.ApplyOnce. The scenario is
drills/naive_redelivery.go.

Try next:
  archlab drill naive-redelivery --deliveries 3
effects=3 and balance=7797: the damage grows with every redelivery.`,
	"explain.dedup-scope": `Injected:
Two producers, checkout and refund, each emit an event they both call evt-1
for order o-2 (2.50 and 3.50). Then the broker genuinely redelivers the
checkout message.

The rule:
The dedup key is scoped by producer: inbox.DedupKey gives checkout:evt-1 and
refund:evt-1. Keyed by the event ID alone, the second payment would have
been dropped as a duplicate, a lost payment that looks like a successful
dedup. The scoped key still catches the real redelivery.

What the counters prove:
producers=2 and same_event_id=evt-1 describe the collision. effects=2 is one
effect per producer. balance=600 is 250 + 350: both payments, and the
redelivery not counted.

Where to read the code:
internal/inbox: DedupKey and Ledger.ApplyOnce. The scenario is
drills/dedup_scope.go.

Try next:
  archlab drill dedup-scope --producers 3
A third producer (producer-3, 4.50) reuses evt-1 too: effects=3 and
balance=1050.`,
	"explain.prune-window": `Injected:
Payment pay:evt-7, producer sequence 7 (12.00 for order o-3), is applied,
and a redelivery inside the window is suppressed. Then a janitor prunes the
dedup keys with seq <= 7 (--prune-through) and the old message is replayed,
as after an offset rewind.

The rule:
A dedup table protects only inside its retention window. Ledger.Prune
forgets keys by producer Seq; once the key is gone, ApplyOnce cannot tell
the replay from a new message and applies it again. The window must outlast
the longest possible redelivery or replay.

What the counters prove:
pruned=1 is the forgotten key. replay_applied=true: the old message took
effect again. balance=2400 is 1200 twice: a double charge.

Where to read the code:
internal/inbox: Ledger.Prune (the keys are kept in Seq order in window.go)
and Ledger.ApplyOnce. The scenario is drills/prune_window.go.

Try next:
  archlab drill prune-window --prune-through 6
The key with seq 7 stays inside the window: pruned=0, replay_applied=false,
balance=1200.`,
	"explain.mark-before-effect": `Injected:
The handler writes the dedup key first and applies the effect second, as two
separate writes, and crashes between them (ErrSimulatedCrash). The broker
then redelivers.

The rule:
Broken on purpose. The dedup key must be written with the effect, in one
transaction, never before it. Here the key already says "done", so every
redelivery is dropped as a duplicate and the payment is never applied. In
ack-lost, effect-then-ack turns a crash into a harmless redelivery; here
mark-before-effect turns it into a lost message.

What the counters prove:
balance=0 and effects=0: nothing was applied. redelivery_applied=false: no
redelivery could repair it.

Where to read the code:
internal/inbox: Ledger.MarkBeforeEffect (wrong on purpose), next to
Ledger.ApplyOnce. The scenario is drills/mark_before_effect.go.

Try next:
  archlab drill mark-before-effect --deliveries 10
Nine redeliveries, the same result: balance=0, effects=0,
redelivery_applied=false. More retries cannot bring back a message the dedup
table believes is done.`,
	"explain.partition-affinity": `Injected:
Orders order-1 … order-8 are routed to 4 partitions. Then the consumer group
restarts and rebalances, and every order is routed again.

The rule:
The partition is a pure function of the key: FNV-1a of the order ID modulo
the partition count. All events of one order land on one partition and are
read by one consumer, in order. A restart cannot change the mapping, because
nothing in it depends on which consumer is running.

What the counters prove:
orders=8 and partitions=4 are the setup. used=4: the eight orders spread
over all four partitions. stable=yes: no order moved across the restart.

Where to read the code:
internal/ordering: ordering.Partition. The scenario is
drills/partition_affinity.go.

Try next:
  archlab drill partition-affinity --orders 3
used=3 and stable=yes: three orders cannot use more than three partitions,
so one partition, and the consumer reading it, stays idle.`,
	"explain.out-of-order": `Injected:
The pay event of order o-1 (evt-2, v2) overtakes its reserve event (evt-1,
v1).

The rule:
The projection advances one version at a time (Projection.Apply). A version
that skips one is ErrConflict, which is worth retrying: Consumer.Handle
returns OutcomeRetry while the delivery count is below --max-attempts, and
the broker requeues pay at the back. reserve applies, pay's second delivery
applies, and the row converges to v2/PAID with nothing dead-lettered.

What the counters prove:
attempts=3 deliveries: pay, reserve, pay again. applied=2 version advances.
final=v2/PAID is the row. dlq=0: nothing was dead-lettered.

Where to read the code:
internal/ordering: Projection.Apply and Consumer.Handle. The broker loop is
drills/dispatch.go, the scenario drills/out_of_order.go.

Try next:
  archlab drill out-of-order --max-attempts 1
No retry budget: pay is dead-lettered at its first delivery. attempts=2,
applied=1, final=v1/INVENTORY_RESERVED, dlq=1. The row is stuck behind the
source of truth: the situation the reconcile drill repairs.`,
	"explain.poison": `Injected:
Two events that can never be applied as written: evt-9 has type refund,
which the order state machine does not know, and evt-10 claims pay at v5,
but pay is always v2.

The rule:
Poison is not a conflict. Projection.Apply returns ErrPoison before it even
looks at the row, and Consumer.Handle dead-letters poison on its first
delivery, without spending the retry budget: no retry can fix a malformed
event.

What the counters prove:
events=2 were injected, dead=2 are both in the DLQ. attempts=1/1 is the
delivery each one died on. applied=0: the projection was never touched (the
row reads v0/).

Where to read the code:
internal/ordering: Projection.Apply (it checks type and version first) and
Consumer.Handle. The scenario is drills/poison.go.

Try next:
  archlab drill poison --max-attempts 10
The same result, attempts=1/1: the budget is for conflicts, not for poison.`,
	"explain.retry-budget": `Injected:
The pay event of order o-1 (evt-2, v2) arrives, but its reserve event never
does.

The rule:
A conflict is retried, but not forever. Consumer.Handle counts deliveries:
below MaxAttempts it returns OutcomeRetry and the broker requeues the event;
at MaxAttempts it dead-letters it. The DLQ parks the event for
reconciliation instead of letting it loop.

What the counters prove:
max=3 is the budget. attempts=3: the deliveries spent, exactly the budget.
outcome=dead is the last outcome. applied=0: the row never moved (v0/).

Where to read the code:
internal/ordering: Consumer.Handle and NewConsumer (MaxAttempts). The
requeue loop is drills/dispatch.go, the scenario drills/retry_budget.go.

Try next:
  archlab drill retry-budget --max-attempts 5
max=5, attempts=5, outcome=dead, applied=0. A bigger budget gives a late
event more time to arrive; it cannot produce one that never comes.`,
	"explain.reconcile": `Injected:
The consumer has no retry budget to spare: one delivery per event. pay (v2)
overtakes reserve (v1) and is dead-lettered at once; reserve then applies.
The projection is stuck at v1 while the order service, the source of truth,
says v2/PAID.

The rule:
Replay cannot help: the event that would fix the row is in the DLQ, not in
the log the consumer reads. ordering.Reconcile compares each order with the
source of truth and overwrites every row that differs, recording a Fix. A
repair is not an event, so AppliedCount does not count it.

What the counters prove:
before=v1/INVENTORY_RESERVED is the stuck row, after=v2/PAID the repaired
one. fixes=1 and dlq=1: one fix per dead-lettered, diverged order.

Where to read the code:
internal/ordering: Reconcile and MapSource (the source of truth). The
scenario is drills/reconcile.go.

Try next:
This drill has no flags. Run the race without reconciliation:
  archlab drill out-of-order --max-attempts 1
It ends at final=v1/INVENTORY_RESERVED with dlq=1, the state reconcile
starts from. With --max-attempts 2 the same race converges by itself
(final=v2/PAID, dlq=0) and there is nothing to reconcile.`,
	"explain.replay": `Injected:
Five events of two orders sit in an append-only log. A fresh projection is
rebuilt by replaying it from offset 0. Then a consumer that lost its last
offset commit resumes from an older offset (--resume-from 3) and reads the
tail again.

The rule:
Projection.Apply is idempotent by version: an event at or below the row's
version is a duplicate, not an error. So a replay from any offset is safe,
and the log alone is enough to rebuild the projection. ordering.Replay reads
in bounded batches (--batch) with Log.NextBatch and advances per event.

What the counters prove:
events=5 is the log. rebuilt_applied=5: the rebuild applied every event.
duplicates=2: the re-read tail (evt-4, evt-5) changed nothing. offset=5: the
replay stopped at the end of the log.

Where to read the code:
internal/ordering: Replay, Log.NextBatch and Projection.Apply. The scenario
is drills/replay.go.

Try next:
  archlab drill replay --resume-from 0
The whole log is read again: duplicates=5, offset=5, and the rows still read
o-1 v3/FULFILLED and o-2 v2/PAID.`,
	"explain.seek-bounds": `Injected:
After a normal read, NextBatch(0, 2), the consumer asks for offset 6 of a
5-event log (as if the log had been truncated under it), for a batch of zero
events, and for a batch at offset 5, exactly the end.

The rule:
An offset is the position just after an event, so the valid offsets are
[0, length]. Reading at length is not an error: it returns no events and the
same offset. This drained read is how a consumer learns it has caught up.
Only an offset outside [0, length] is ErrOffsetOutOfRange, and a size below
1 is ErrBatchSize; both leave the offset unchanged.

What the counters prove:
out_of_range=1 is the read at 6. zero_size=1 is the read of size 0.
drained=1 is the read at 5.

Where to read the code:
internal/ordering: Log.NextBatch, with ErrOffsetOutOfRange and ErrBatchSize.
The scenario is drills/seek_bounds.go.

Try next:
This drill has no flags. See a drained read inside a replay:
  archlab drill replay --resume-from 5
The consumer resumes at the end: its first NextBatch returns no events, and
the replay ends with duplicates=0 and offset=5, without an error.`,
	"explain.crash-resume": `Injected:
The keys order-0 … order-999 are split into 4 shards by FNV-1a. Shard 0
commits its offset every 10 items and crashes right after its 37th item:
after that item's effect, before any commit past 30.

The rule:
The checkpoint makes the rerun cheap: Runner.Run resumes from the committed
offset, not from 0. The sink makes it safe: Sink.Apply remembers business
keys, so the items at offsets 30 to 36, applied before the crash and
replayed now, are suppressed, not applied twice. Progress is at-least-once;
the effects are exactly once.

What the counters prove:
shard=0 keys … shard=3 keys = 250 each: the FNV-1a split. shard0=250 is the
size of the crashing shard. crash_attempts=37 is how far shard 0 got before
the crash. checkpoint=30 is the last commit. replay=7 is 37 - 30.
applied=1000: every key once. suppressed=7 equals replay: the sink
suppressed exactly the replayed items.

Where to read the code:
internal/shardjob: Split, Runner.Run, Checkpoint.Commit and Sink.Apply. The
scenario is drills/crash_resume.go.

Try next:
  archlab drill crash-resume --commit-every 5
Commit more often, replay less: the checkpoint at the crash becomes 35 and
the replay 2 (suppressed=2); applied is still 1000. With --crash-after 40
instead, the crash comes just before the commit of 40: checkpoint=30 and
replay=10, a whole interval.`,
	"explain.stale-epoch": `Injected:
A worker holds shard-0 (100 items) under lease epoch 1 and stalls after 25
items, as in a long GC pause or a network partition; its last commit was 20.
Its lease expires, and a new owner takes the shard under epoch 2, resumes
from 20, finishes and commits 100. Then the zombie wakes up and commits
twice: its own progress (25) and the end of the shard (100).

The rule:
Fencing. Checkpoint.Commit stores the epoch with the offset and rejects any
commit whose epoch is lower than the last one with ErrStaleEpoch, whatever
the offset. The zombie can neither move the checkpoint back nor claim the
shard it no longer owns. The sink, keyed by business key, keeps every effect
single.

The fence rises only when the new epoch reaches the checkpoint, so the new
owner commits the offset it resumes from under epoch 2 before it does any
work. Left to Runner.Run, the epoch would arrive with the owner's first
commit, and a zombie commit in between would be accepted: archlab explore
shardjob finds that window (fence-at-first-commit).

What the counters prove:
The book implies this drill but prints no log, so the values are the lab's.
zombie_epoch=1 and owner_epoch=2 are the two lease terms. zombie_commits=2
and rejected=2: every zombie commit was fenced. checkpoint=100: the owner's
commit stands. applied=100: every key once. suppressed=5: the items at
offsets 20 to 24, applied by the zombie before it stalled and replayed by
the owner.

Where to read the code:
internal/shardjob: Checkpoint.Commit (ErrStaleEpoch) and Runner.Run. The
scenario is drills/stale_epoch.go.

Try next:
  archlab drill stale-epoch --lease-expires-after 30
The zombie stalls right after its 30th item, before committing it, so the
checkpoint is still 20 and the owner replays 10: suppressed=10, while
rejected=2, checkpoint=100 and applied=100 stay.`,
}
