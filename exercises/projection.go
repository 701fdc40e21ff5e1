package exercises

import (
	"fmt"

	"archlab/internal/ordering"
)

// Projection is exercise projection, §8.3 (message order, replay, dead
// letters and reconciliation), the mechanism tier: here you write the
// book's version gate and the consumer's policy themselves, in the book's
// shapes (internal/ordering holds the book's own, for after).
//
// The task: events of one order arrive in any order, duplicates included.
// Write:
//
//	NewProjection()   an empty projection
//	p.Apply(e)        the version gate. An event whose type the order's
//	                  state machine does not know, or whose version is not
//	                  its type's (target below), can never apply: an error
//	                  wrapping ordering.ErrPoison. A version at or below the
//	                  order's current one is a duplicate: (false, nil),
//	                  nothing changes. A version past the next one means an
//	                  earlier event is missing: an error wrapping
//	                  ordering.ErrConflict. Otherwise the row moves to the
//	                  event's version and status, and Apply returns true.
//	p.Get(orderID)    the order's row, and whether it has one
//	p.AppliedCount()  how many version advances Apply made
//	NewConsumer(p, n) a consumer with a retry budget of n deliveries (n <= 0:
//	                  the book's default, 3)
//	c.Handle(e, attempt)
//	                  one delivery (attempt counts from 1): applied,
//	                  duplicate, retry (the broker delivers it again
//	                  later) or dead (into c's dead-letter queue, with the
//	                  attempt and the reason)
//	c.DLQ()           the dead letters, oldest first
//
// Repair, the reconciler's overwrite, is written for you; keep it in step
// if you change how the rows are kept. Wrap errors with fmt.Errorf and %w,
// so that errors.Is finds ordering.ErrPoison and ordering.ErrConflict.
//
// What is checked: first your Projection and Consumer beside the book's,
// call by call: random sequences of Apply, Handle, Repair and NewConsumer
// (every type and version, duplicates, gaps, poison of both kinds, an
// event after a repair, budgets from -1 to 4), every answer, row, count
// and dead letter compared with the book's, then Apply and Handle from two
// goroutines at once; then the book's unit cases (TestOutOfOrderRejectedThenConverges,
// TestPoisonGoesStraightToDLQ, TestConflictExhaustsRetryBudget,
// TestReconcileRepairsDeadLettered, TestReplayRebuildsProjection), then the
// §8.3 drills that run a projection and a consumer (out-of-order, poison,
// retry-budget, reconcile, reconcile-gaps, replay, redelivered-event) with
// yours in place of the book's, then every schedule of `archlab explore
// ordering` with the poison event added (every delivery order, up to 2
// duplicates, budgets 1 to 3), followed by the book's Reconcile: no order
// skips a version, the version never moves back, no event is applied twice,
// no duplicate is retried or dead-lettered, no event is retried past its
// budget, and the projection ends equal to the source of truth.
//
// 练习 projection，§8.3（消息顺序、重放、死信与对账），机制层：这里由你亲手写出书
// 中的版本闸门和消费端的策略，形状与书中一致（书中自己的实现在
// internal/ordering，写完再看）。
//
// 任务：同一订单的事件以任意顺序到达，包括重复。写出：NewProjection() 一个空投
// 影；p.Apply(e) 版本闸门——订单状态机不认识的类型，或版本不是该类型应有版本的
// 事件（见下面的 target），永远无法应用：返回包装了 ordering.ErrPoison 的错误；
// 版本不高于订单当前版本的是重复：返回 (false, nil)，什么都不改；版本跳过了下一
// 个，说明之前缺了一个事件：返回包装了 ordering.ErrConflict 的错误；否则把该行推
// 进到事件的版本和状态，返回 true。p.Get(orderID) 订单的行以及是否存在；
// p.AppliedCount() Apply 推进版本的次数；NewConsumer(p, n) 重试预算为 n 次投递
// 的消费端（n <= 0 时取书中的默认值 3）；c.Handle(e, attempt) 处理一次投递
// （attempt 从 1 开始计）：applied（已应用）、duplicate（重复）、retry（消息代理
// 稍后重投）或 dead（连同投递次数和原因进入 c 的死信队列）；c.DLQ() 死信，按先
// 后顺序。
//
// Repair 是对账时的覆盖写，已经替你写好；如果你改变了行的存放方式，记得同步修改
// 它。用 fmt.Errorf 和 %w 包装错误，使 errors.Is 能找到 ordering.ErrPoison 和
// ordering.ErrConflict。
//
// 检查什么：先把你的投影和消费端与书中的逐次调用对照：随机的 Apply、Handle、Repair
// 与 NewConsumer 调用序列（每种类型与版本、重复、缺口、两种毒消息、对账修复之后的
// 事件、从 -1 到 4 的预算），每个返回值、每一行、计数和死信都与书中的比较，再从两个
// goroutine 同时调用 Apply 和 Handle；然后运行书中的单元用例（TestOutOfOrderRejectedThenConverges、
// TestPoisonGoesStraightToDLQ、TestConflictExhaustsRetryBudget、
// TestReconcileRepairsDeadLettered、TestReplayRebuildsProjection），再用你的投
// 影和消费端代替书中的，运行 §8.3 中驱动投影和消费端的演练（out-of-order、
// poison、retry-budget、reconcile、reconcile-gaps、replay、
// redelivered-event），最后运行加入毒消息的 archlab explore ordering 的每一种故
// 障序列（每种投递顺序、最多 2 个重复、预算 1 到 3），其后执行书中的 Reconcile：
// 没有订单跳过版本，版本从不回退，没有事件被应用两次，重复既不重试也不进死信队
// 列，没有事件在预算用完之后还在重试，投影最终与事实来源一致。
type Projection struct {
	orders  map[string]ordering.OrderState
	applied int
}

// NewProjection returns an empty projection.
func NewProjection() *Projection {
	return &Projection{orders: make(map[string]ordering.OrderState)}
}

// Apply advances the order to e.Version, through the version gate.
func (p *Projection) Apply(e ordering.Event) (bool, error) {
	// Write the version gate here. 在这里写版本闸门。
	return false, ErrNotImplemented
}

// Get returns the row of one order and whether it exists.
func (p *Projection) Get(orderID string) (ordering.OrderState, bool) {
	// Write it here. 在这里写。
	return ordering.OrderState{}, false
}

// AppliedCount reports how many version advances Apply made.
func (p *Projection) AppliedCount() int {
	// Write it here. 在这里写。
	return 0
}

// Repair overwrites an order's row with what the source of truth says; the
// book's Reconcile calls it. A repair is not an event: it is not counted
// as applied. (Given. 已给出。)
func (p *Projection) Repair(orderID string, st ordering.OrderState) { p.orders[orderID] = st }

// target is the order's state machine, as the book's: the status and the
// version each event type produces, or ErrPoison for a type it does not
// know. (Given. 已给出。)
func target(e ordering.Event) (ordering.Status, int64, error) {
	switch e.Type {
	case "reserve":
		return ordering.StatusReserved, 1, nil
	case "pay":
		return ordering.StatusPaid, 2, nil
	case "fulfill":
		return ordering.StatusFulfilled, 3, nil
	}
	return "", 0, fmt.Errorf("ordering: event %s has type %q: %w", e.ID, e.Type, ordering.ErrPoison)
}

// Consumer applies the events of one partition to a projection and decides,
// for each failure, between retrying and dead-lettering.
type Consumer struct {
	proj        *Projection
	MaxAttempts int // the retry budget, counted in deliveries
	dlq         []ordering.DLQEntry
}

// NewConsumer returns a consumer over p with a retry budget of maxAttempts
// deliveries per event.
func NewConsumer(p *Projection, maxAttempts int) *Consumer {
	// Write it here (the default budget too). 在这里写（包括默认预算）。
	return &Consumer{proj: p, MaxAttempts: maxAttempts}
}

// Handle classifies one delivery; attempt is the broker's 1-based delivery
// count for this event.
func (c *Consumer) Handle(e ordering.Event, attempt int) ordering.Outcome {
	// Write the retry and dead-letter policy here. 在这里写重试与死信策略。
	return ""
}

// DLQ returns the dead-letter queue, oldest first.
func (c *Consumer) DLQ() []ordering.DLQEntry {
	return append([]ordering.DLQEntry(nil), c.dlq...)
}

var _ = target // the stub does not call it yet; your Apply will
