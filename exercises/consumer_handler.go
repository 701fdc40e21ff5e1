package exercises

import "archlab/harness"

// ConsumerHandler is exercise consumer-handler, §8.2 (consumer idempotency,
// the dedup table and the real boundary of exactly-once).
//
// The task: the broker delivers at least once, so the same message may
// arrive again after a crash or a lost ack. Write the handler for one
// delivery so that, whatever the broker and the faults do, every payment
// is applied exactly once, every message ends acked, and the call outside
// the store a message asks for is made: exactly once ends at the store's
// boundary, so outside it the call is made on every delivery that gets
// that far, and the other side deduplicates.
//
// The verbs you may call, all on d:
//
//	d.Message()    the delivered message (producer, event ID, seq, order, amount)
//	d.ApplyOnce()  the dedup key and the effect, in ONE local transaction;
//	               (false, nil) for a key already there: nothing changes
//	d.Mark()       the dedup key alone, committed at once; false if it was there
//	d.Effect()     the effect alone (the payment), committed at once, no key
//	d.NaiveApply() the effect with no key at all
//	d.Notify(m)    calls the service outside the local store that m asks
//	               for (a notification, a publish); nothing for a message
//	               that asks for none. No transaction covers it
//	d.Ack()        tells the broker the message is handled; may return
//	               inbox.ErrAckLost (the broker will deliver it again)
//
// Or keep a durable inbox of your own, a table in the local store:
//
//	d.Store()      the message into your inbox table, committed at once;
//	               false if it was there
//	d.Pending()    the table's rows not processed yet
//	d.Process(m)   a stored row's effect and its done mark, in ONE local
//	               transaction; (false, nil) for a row already done
//
// Or make the call outside the store through an outbox:
//
//	d.ApplyOnceWithOutbox()  ApplyOnce, with a row for the call d.Message()
//	               asks for in your outbox table, in the SAME transaction
//	d.Relay()      makes the call of every outbox row not relayed yet,
//	               then marks the row relayed
//
// Or claim the key with a lease, as an idempotency middleware does:
//
//	d.Claim()      the message's key, with a lease, committed at once;
//	               false if the key is completed; a lease that ended (its
//	               holder died, or was slow past it) is taken over
//	d.Complete()   marks the claimed key completed, committed at once
//
// After a crash your consumer process restarts with its local store
// intact and runs ConsumerRecover (below) before its next delivery, and
// once more before the books are read. Keep every piece of state in that
// store: a package-level variable outlives no restart.
//
// Once the scenario crashes the consumer, every verb returns
// harness.ErrCrashed: return it. A crash can strike right before any of
// your calls, inside a write of two, and after your last; after d.Claim
// your lease may run out while you are slow, and another consumer handle
// the message first. The store may also
// refuse the write that carries the effect, with the consumer alive:
// ApplyOnce or Effect then returns harness.ErrEffectFailed, nothing of
// that write commits, and a handler that returns the error sends no ack,
// so the broker delivers the message again.
//
// What is checked: the drills ack-lost, dedup-scope and prune-window run
// with your handler (the drills of §8.2 whose handler is the safe one),
// then every schedule of `archlab explore inbox` (3 messages, 2 faults:
// crashes, lost acks, replays) with the store's failures and the crash
// right after the ack added (effect-fails, crash-after-ack), a crash
// right before each of your calls (crash-call-k) and the lease running
// out after each Claim (lease-expires), where m1 asks for a call outside
// the store: no message lost, none applied twice, every message acked in
// the end, m1's call made; and a short run of your handler, first and
// last, answers the same.
//
// 练习 consumer-handler，§8.2（消费端幂等、去重表与“恰好一次”的真实边界）。
//
// 任务：消息代理至少投递一次，崩溃或确认丢失之后，同一条消息可能再来一次。写出
// 处理一次投递的处理函数，使得无论消息代理和故障怎样，每笔付款都恰好生效一次，
// 每条消息最终都被确认，消息要求的外部调用也发出了：恰好一次止于本地存储的边界，
// 边界之外，每次走到这一步的投递都要调用，由对方去重。
//
// 也可以用你自己的持久收件箱（本地存储中的一张表）：Store() 把消息存入表中并立即
// 提交；Pending() 列出尚未处理的行；Process(m) 在同一个本地事务里写一行的效果和
// “已处理”标记。或者通过发件箱发出外部调用：ApplyOnceWithOutbox() 就是
// ApplyOnce，同时在同一个事务里往你的发件箱表写一行，记下这条消息要求的调用；
// Relay() 对每个尚未转发的发件箱行发出调用，再把它标记为已转发。也可以以租约
// 认领去重键（如同带时限的锁）：Claim() 认领并立即提交，键已完成时返回 false，
// 已结束的租约（持有者死去或慢过了租期）会被接管；Complete() 把认领的键标为
// 已完成并立即提交。崩溃之后，你的消费进程带着完好的本地存储重启，在下一次投递之前
// （以及最后核对账目之前）运行 ConsumerRecover。所有状态都要放进那个存储：包级
// 变量挺不过重启。
//
// 可以调用的动词（都在 d 上）：Message() 投递来的消息；ApplyOnce() 在同一个本
// 地事务里写去重键和效果，键已存在时返回 (false, nil) 且什么都不改；Mark() 只
// 写去重键并立即提交；Effect() 只写效果（付款）并立即提交，不写键；
// NaiveApply() 只写效果，完全没有键；Notify(m) 调用 m 要求的本地存储之外的服务
// （通知、发布），不要求的消息什么都不做，没有事务覆盖它；Ack() 告诉消息代理消息已处理，可能返回
// inbox.ErrAckLost（消息代理会重投一次）。场景让消费端崩溃之后，每个动词都返回
// harness.ErrCrashed：把它返回即可。崩溃可能发生在你的任何一次调用之前、
// 一次两写操作的中间，以及最后一次调用之后；Claim 之后，你的租约可能在你变慢时
// 到期，另一个消费端先处理了这条消息。存储也可能在消费端没有崩溃时拒绝写入效果：ApplyOnce 或 Effect
// 返回 harness.ErrEffectFailed，这次写入什么都不提交；把错误返回的处理函数不会
// 发出确认，于是消息代理重投这条消息。
//
// 检查什么：先用你的处理函数运行演练 ack-lost、dedup-scope 和 prune-window
// （§8.2 中处理函数是安全设计的那些演练），再运行 archlab explore inbox 的每一
// 种故障序列（3 条消息、2 次故障：崩溃、确认丢失、重放），并加入存储的失败
// （effect-fails）、确认之后的崩溃（crash-after-ack）、你每次调用之前的崩溃
// （crash-call-k）以及每次 Claim 之后租约到期（lease-expires），其中 m1 要求一次
// 本地存储之外的调用：没有消息丢失，没有消息生效两次，每条消息最终都被确认，m1
// 的调用发出了；你的处理函数的一次简短运行，在最先和最后给出同样的回答。
func ConsumerHandler(d *harness.Delivery) error {
	// Write your handler here. 在这里写你的处理函数。
	return ErrNotImplemented
}

// ConsumerRecover is your consumer's recovery step: it runs when the
// process restarts after a crash, with its local store as the crash left
// it and no fault striking, before the next delivery. A handler that keeps
// no inbox table of its own has nothing to recover: leave it as it is.
// The verbs, on r: r.Pending(), r.Process(m), r.Notify(m) and r.Relay(),
// as on a delivery.
//
// 恢复步骤：进程在崩溃后重启时运行，本地存储保持崩溃时的样子，不会有故障发生，
// 在下一次投递之前运行。不维护自己收件箱表的处理函数没有什么要恢复的：保持原样即可。
// 可用的动词（在 r 上）：r.Pending()、r.Process(m)、r.Notify(m) 和 r.Relay()，
// 与投递时相同。
func ConsumerRecover(r *harness.Restart) error {
	return nil
}
