package exercises

import "archlab/internal/inbox"

// Ledger is exercise ledger, §8.2 (consumer idempotency, the dedup table
// and the real boundary of exactly-once): the mechanism itself, in the
// book's shape.
//
// The task: write the book's Ledger, the consumer's local store. It
// applies payments to orders and keeps the dedup table that makes a
// redelivery harmless:
//
//	NewLedger()         an empty ledger
//	l.ApplyOnce(m)      the dedup key and the effect in ONE local transaction
//	                    (here: under one lock). The key is inbox.DedupKey(m),
//	                    producer:ID. A key already there returns false, nil
//	                    and changes nothing; a new one returns true, nil.
//	                    A message is applied as it comes: an amount of 0
//	                    or below (a refund) and an empty ID are messages
//	                    like any other.
//	l.Prune(maxSeq)     the retention window: forget every key whose message
//	                    has Seq <= maxSeq, keep the others, report how many
//	                    it forgot
//	l.Balance(order)    the cents applied to an order
//	l.Applies()         how many effects were applied, duplicates excluded
//
// You may use anything in Go's standard library and inbox.DedupKey; not
// the book's inbox.Ledger. The book's inbox.Consume runs over your Ledger
// unchanged: ApplyOnce, then the ack. The book's wrong designs
// (NaiveApply, MarkBeforeEffect) are not asked for.
//
// What is checked: first your Ledger beside the book's inbox.Ledger, call
// by call: random sequences of ApplyOnce and Prune (new keys and
// redeliveries, another producer's event with the same ID, producers and
// IDs whose plain concatenations collide, Seqs out of order and shared,
// Prune at every edge), every answer and every Balance and Applies after
// it compared with the book's, then two deliveries at once, from two
// goroutines; then the book's own tests on your Ledger
// (TestSideEffectThenAckLost, TestDedupKeyIncludesProducer,
// TestPruneOpensReplayWindow); then the drills ack-lost, dedup-scope,
// prune-window, prune-keeps-newer, prune-out-of-order,
// exactly-once-boundary and duplicate-delivery, whose handler is the book's Consume, with your
// Ledger in the book's place; then every schedule of `archlab explore
// inbox` (3 messages, 2 faults: crashes, lost acks, duplicates, replays)
// with the book's Consume over your Ledger: no message lost, none applied
// twice, every message acked in the end.
//
// 练习 ledger，§8.2（消费端幂等、去重表与“恰好一次”的真实边界）：按书中的形状
// 写出机制本身。
//
// 任务：写出书中的 Ledger，即消费端的本地存储。它把付款记到订单上，并维护让重投
// 变得无害的去重表：NewLedger() 返回一个空账本；l.ApplyOnce(m) 在同一个本地事
// 务里（这里是同一把锁下）写去重键和效果，去重键是 inbox.DedupKey(m)，即
// producer:ID，键已存在时返回 false, nil 且什么都不改，新键返回 true, nil；
// 消息按原样生效：金额为 0 或负数（退款）、ID 为空的消息和别的消息一样处理；
// l.Prune(maxSeq) 是保留窗口：忘掉消息 Seq <= maxSeq 的每个键，保留其余的键，
// 返回忘掉了多少个；l.Balance(order) 返回记到订单上的金额（分）；l.Applies()
// 返回生效了多少次效果，不含重复。
//
// 可以使用 Go 标准库和 inbox.DedupKey，但不能使用书中的 inbox.Ledger。书中的
// inbox.Consume 原样运行在你的 Ledger 上：先 ApplyOnce，再确认。书中的错误设计
// （NaiveApply、MarkBeforeEffect）不需要写。
//
// 检查什么：先把你的 Ledger 与书中的 inbox.Ledger 逐次调用对照：随机的 ApplyOnce
// 与 Prune 调用序列（新键与重投、另一个生产者的同一事件 ID、直接拼接后相同的生产者
// 与 ID、乱序和相同的发件箱序号、在每个边界上的 Prune），每个返回值以及之后的每次
// Balance 和 Applies 都与书中的比较，再从两个 goroutine 同时投递；然后在你的
// Ledger 上运行书中自己的测试（TestSideEffectThenAckLost、
// TestDedupKeyIncludesProducer、TestPruneOpensReplayWindow）；再运行处理函数
// 是书中 Consume 的演练 ack-lost、dedup-scope、prune-window、
// prune-keeps-newer、prune-out-of-order、exactly-once-boundary 和
// duplicate-delivery，用你的
// Ledger 代替书中的；最后运行 archlab explore inbox 的每一种故障序列（3 条消
// 息、2 次故障：崩溃、确认丢失、重复投递、重放），书中的 Consume 运行在你的
// Ledger 上：没有消息丢失，没有消息生效两次，每条消息最终都被确认。
type Ledger struct {
	// Your fields here. 在这里写你的字段。
}

// NewLedger returns an empty ledger. 返回一个空账本。
func NewLedger() *Ledger {
	return &Ledger{}
}

// ApplyOnce records the dedup key and applies the effect atomically; a
// duplicate returns false, nil and changes nothing.
// 原子地写去重键并应用效果；重复的消息返回 false, nil，什么都不改。
func (l *Ledger) ApplyOnce(m inbox.Message) (bool, error) {
	// Write ApplyOnce here. 在这里写 ApplyOnce。
	return false, ErrNotImplemented
}

// Prune forgets every dedup key whose Seq is <= maxSeq and reports how
// many it forgot. 忘掉 Seq <= maxSeq 的每个去重键，返回忘掉的个数。
func (l *Ledger) Prune(maxSeq int64) int {
	// Write Prune here. 在这里写 Prune。
	return 0
}

// Balance returns the cents applied to an order. 返回记到订单上的金额（分）。
func (l *Ledger) Balance(orderID string) int64 {
	return 0
}

// Applies reports how many effects were applied. 返回生效的效果次数。
func (l *Ledger) Applies() int {
	return 0
}
