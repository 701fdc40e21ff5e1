// Package inbox is the consumer side of section 8.2 of the book
// 《后端架构设计·分布式与数据一致性》: consumer idempotency, the dedup table and
// the real boundary of exactly-once.
//
// The one rule it teaches: write the dedup key and the effect in one local
// transaction, and acknowledge the broker only after that transaction. A
// broker that delivers at least once will then redeliver anything whose ack
// was lost, and the dedup key turns the redelivery into a harmless no-op.
//
// Ledger models the local store (its mutex stands in for the transaction).
// NaiveApply and MarkBeforeEffect are the two wrong designs the book measures
// it against. Nothing here prints, sleeps or reads a clock: the caller, not
// the package, decides when an ack is lost or a handler crashes.
package inbox
