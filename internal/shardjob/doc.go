// Package shardjob is section 11.2 of the book 《后端架构设计·分布式与数据一致性》:
// job sharding, idempotent reruns and progress checkpoints.
//
// The one rule it teaches: a checkpoint says how far a shard certainly got,
// never how far it really got, so a rerun replays the items between the last
// checkpoint and the crash; the sink must therefore be idempotent by business
// key. The checkpoint is fenced by the shard's lease epoch, so a zombie
// worker that lost its lease can never move it.
//
// Nothing here prints, sleeps or reads a clock; the caller decides when a
// worker crashes.
package shardjob
