package exercises

import (
	"archlab/harness"
	"archlab/internal/ordering"
)

// ProjectionDecision is exercise projection-decision, §8.3 (message order,
// replay, dead letters and reconciliation).
//
// The task: decide what one delivery of an order event comes to. The
// broker delivers the events of one order in any order, duplicates
// included, and requeues at the back whatever you ask it to retry. Return
// one of:
//
//	ordering.OutcomeApplied    the projection moved to the event's version
//	ordering.OutcomeDuplicate  a version already reached: nothing to do
//	ordering.OutcomeRetry      try again later (the broker requeues it)
//	ordering.OutcomeDead       put it in the dead-letter queue, for reconciliation
//
// as the book does: a poison event (ErrPoison) to the dead-letter queue on
// its first delivery, since no retry can help it; a conflict (ErrConflict,
// a version missing before it) retried while the budget lasts, and
// dead-lettered on its last attempt. Any other decision that loses no
// update, applies none twice and ends equal to the source of truth is a
// sound design; these two clauses are the task's as well.
//
// The verbs you may call, all on d:
//
//	d.Event()        the event (ID, order, version, type)
//	d.Attempt()      this delivery's number for this event, from 1
//	d.MaxAttempts()  the retry budget, counted in deliveries
//	d.Apply()        Projection.Apply: (true, nil) applied, (false, nil) a
//	                 duplicate, or an error wrapping ordering.ErrConflict (a
//	                 version is missing before this one) or ordering.ErrPoison
//	                 (this event can never apply); test with errors.Is
//
// What is checked: the drills out-of-order, poison, retry-budget,
// reconcile and redelivered-event run with your decision (the §8.3 drills
// whose broker asks the consumer), then every schedule of `archlab explore ordering` with the
// poison event added (every delivery order, up to 2 duplicates, budgets 1
// to 3), followed by reconciliation: the version never moves back, no event
// is applied twice, the projection ends equal to the source of truth, and
// no event is retried past its budget.
//
// 练习 projection-decision，§8.3（消息顺序、重放、死信与对账）。
//
// 任务：决定一个订单事件的一次投递结果如何。消息代理以任意顺序投递同一订单的事
// 件（包括重复），并把你要求重试的事件重新排到队尾。返回以下之一：
// OutcomeApplied（投影前进到事件的版本）、OutcomeDuplicate（版本已达到，无事可
// 做）、OutcomeRetry（稍后再试，消息代理重新入队）、OutcomeDead（转入死信队
// 列，留待对账）。和书中一样：毒消息（ErrPoison）在第一次投递时就转入死信队
// 列，因为重试帮不了它；冲突（ErrConflict，之前缺了一个版本）在预算之内重试，
// 在最后一次尝试时转入死信队列。其他不丢失更新、不重复应用、最终与事实来源一
// 致的决策都是可靠的设计；这两条也是任务的要求。
//
// 可以调用的动词（都在 d 上）：Event() 事件；Attempt() 这是该事件的第几次投
// 递，从 1 开始；MaxAttempts() 重试预算，按投递次数计；Apply() 即
// Projection.Apply：(true, nil) 表示已应用，(false, nil) 表示重复，否则返回包
// 装了 ordering.ErrConflict（之前缺了一个版本）或 ordering.ErrPoison（这个事件
// 永远无法应用）的错误，用 errors.Is 判断。
//
// 检查什么：先用你的决策运行演练 out-of-order、poison、retry-budget、
// reconcile 和 redelivered-event（§8.3 中由消息代理询问消费端的那些演练），再运行加入毒消息的
// archlab explore ordering 的每一种故障序列（每种投递顺序、最多 2 个重复、预算
// 1 到 3），最后对账：版本从不回退，没有事件被应用两次，投影最终与事实来源一
// 致，没有事件在预算用完之后还在重试。
func ProjectionDecision(d *harness.EventDelivery) (ordering.Outcome, error) {
	// Write your decision here. 在这里写你的决策。
	return "", ErrNotImplemented
}
