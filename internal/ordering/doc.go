// Package ordering is section 8.3 of the book 《后端架构设计·分布式与数据一致性》:
// message order, replay, dead letters and the reconciliation loop.
//
// The one rule it teaches: order is a property of one key, not of the whole
// stream. Events of one order go to one partition (Partition); the projection
// applies them strictly by version (Projection.Apply), so a duplicate is a
// no-op and an early event is a retryable conflict; what retries cannot fix
// goes to the dead-letter queue (Consumer), and what the dead-letter queue
// holds is repaired from the source of truth (Reconcile). An append-only Log
// read by offset (NextBatch, Replay) rebuilds a projection from scratch.
//
// Nothing here prints or reads a clock; the caller plays the broker.
package ordering
