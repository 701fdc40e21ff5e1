// Package shardjob is section 11.2 of the book 《后端架构设计·分布式与数据一致性》:
// job sharding, idempotent reruns and progress checkpoints.
//
// The one rule it teaches: a checkpoint says how far a shard certainly got,
// never how far it really got, so a rerun replays the items between the last
// checkpoint and the crash; the sink must therefore be idempotent by business
// key. The checkpoint is fenced by the shard's lease epoch: once a commit of
// a newer epoch is stored, an older epoch's commit is ErrStaleEpoch. Until
// then it is not: Runner.Run writes the new owner's epoch only at its first
// commit, so a zombie's commit before that is accepted, and the owner's next
// commit may even move such a commit back. The lab's takeover fence (a
// commit of the resume offset under the new epoch before any work) closes
// that window; the book's loop does not have it.
//
// Nothing here prints, sleeps or reads a clock; the caller decides when a
// worker crashes.
package shardjob
