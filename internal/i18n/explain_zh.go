package i18n

// explainZH is explainEN in Chinese: the same lessons, paragraphs and
// numbers, wrapped at about 38 Chinese characters.
var explainZH = map[string]string{
	"explain.ack-lost": `注入的故障：
消费者处理付款消息 pay:evt-1（订单 o-1 支付 25.99）。账本把效果连同去重键一
起提交，随后发给消息代理的确认（ack）丢失（ErrAckLost）。消息代理只知道这条
消息没有被确认，于是再投递一次。用 --deliveries N 时，除最后一次外的确认全部
丢失。

关键规则：
先生效、后确认（inbox.Consume），并且去重键与效果写在同一个本地事务里
（Ledger.ApplyOnce）。因此丢一次确认只会多一次重投，绝不会多扣一次款：
ApplyOnce 找到去重键 pay:evt-1，把重复的那次抑制掉。

计数器说明了什么：
deliveries=2 是消息代理投递的次数。effects=1 证明付款只生效了一次。
balance=2599 是一笔付款（单位为分）。acks=2 统计确认尝试，包括丢失的那次：每
次投递一次。

代码在哪里：
internal/inbox：inbox.Consume 与 Ledger.ApplyOnce；MemoryAck.LoseNext 负责注
入确认丢失。场景在 drills/ack_lost.go。

接下来试试：
  archlab drill ack-lost --deliveries 5
丢失四次确认，消息代理投递五次：deliveries=5、acks=5，但 effects 仍为 1，
balance 仍为 2599。`,
	"explain.naive-redelivery": `注入的故障：
与 ack-lost 相同的确认丢失，但消费者调用的是 Ledger.NaiveApply，它不记录任何
去重键。

关键规则：
没有规则，这正是要点。至少一次投递意味着任何消息都可能不止到达一次。
NaiveApply 没有任何依据识别重投，于是每次投递都会再扣一次款。去重表要解决的
正是这个基线问题。

计数器说明了什么：
deliveries=2 且 effects=2：每次投递都变成了一次效果。balance=5198 是两笔
2599：顾客被扣了两次款。ack-lost 与本演练只差在调用 ApplyOnce，它打印的是
effects=1 balance=2599。

代码在哪里：
internal/inbox：Ledger.NaiveApply，对照旁边的 Ledger.ApplyOnce。场景在
drills/naive_redelivery.go。

接下来试试：
  archlab drill naive-redelivery --deliveries 3
effects=3、balance=7797：每多一次重投，损失就多一笔。`,
	"explain.dedup-scope": `注入的故障：
两个生产者 checkout 和 refund 为订单 o-2 各发出一个事件，都叫 evt-1（分别为
2.50 和 3.50）。随后消息代理真的把 checkout 的消息重投了一次。

关键规则：
去重键按生产者划分作用域：inbox.DedupKey 得到的是 checkout:evt-1 和
refund:evt-1。如果只用事件 ID 作键，第二笔付款会被当作重复丢弃，看起来像去重
成功，实际上是丢了一笔付款。带作用域的键照样能拦下真正的重投。

计数器说明了什么：
producers=2 与 same_event_id=evt-1 描述了这次冲突。effects=2 即每个生产者一
次效果。balance=600 是 250 + 350：两笔付款都在，重投没有计入。

代码在哪里：
internal/inbox：DedupKey 与 Ledger.ApplyOnce。场景在 drills/dedup_scope.go。

接下来试试：
  archlab drill dedup-scope --producers 3
第三个生产者（producer-3，4.50）也用 evt-1：effects=3，balance=1050。`,
	"explain.prune-window": `注入的故障：
生产者序号为 7 的付款 pay:evt-7（订单 o-3 支付 12.00）被应用，窗口内的一次重
投被抑制。随后清理任务删除 seq <= 7 的去重键（--prune-through），旧消息又被
重放，就像偏移回退之后那样。

关键规则：
去重表只在保留窗口内起保护作用。Ledger.Prune 按生产者 Seq 遗忘去重键；键一旦
没了，ApplyOnce 就分不清重放和新消息，只能再应用一次。窗口必须比最长的重投或
重放更长。

计数器说明了什么：
pruned=1 是被遗忘的那个键。replay_applied=true：旧消息再次生效。balance=2400
是两次 1200：重复扣款。

代码在哪里：
internal/inbox：Ledger.Prune（window.go 按 Seq 顺序保存去重键）与
Ledger.ApplyOnce。场景在 drills/prune_window.go。

接下来试试：
  archlab drill prune-window --prune-through 6
序号 7 的键仍在窗口内：pruned=0，replay_applied=false，balance=1200。`,
	"explain.mark-before-effect": `注入的故障：
处理函数先写去重键、后应用效果，分成两次独立的写入，并在两者之间崩溃
（ErrSimulatedCrash）。随后消息代理重投。

关键规则：
这里的顺序是故意写错的。去重键必须与效果在同一个事务里写入，绝不能先于效果。
此处去重键已经表示“已处理”，所以每次重投都被当作重复丢弃，付款永远不会生效。
在 ack-lost 中，先生效后确认让崩溃只变成一次无害的重投；这里的先标记后生效却
让崩溃变成了消息丢失。

计数器说明了什么：
balance=0 且 effects=0：什么都没有生效。redelivery_applied=false：没有任何一
次重投能补救。

代码在哪里：
internal/inbox：Ledger.MarkBeforeEffect（故意写错），对照旁边的
Ledger.ApplyOnce。场景在 drills/mark_before_effect.go。

接下来试试：
  archlab drill mark-before-effect --deliveries 10
重投九次，结果不变：balance=0，effects=0，redelivery_applied=false。去重表认
定已经处理过的消息，重试再多次也找不回来。`,
	"explain.partition-affinity": `注入的故障：
订单 order-1 … order-8 被路由到 4 个分区。随后消费者组重启并重新均衡，每个订
单再路由一次。

关键规则：
分区是键的纯函数：订单 ID 的 FNV-1a 哈希对分区数取模。同一订单的所有事件落在
同一分区，由同一个消费者按顺序读取。重启改变不了这个映射，因为映射与哪个消费
者在运行毫无关系。

计数器说明了什么：
orders=8 和 partitions=4 是初始设置。used=4：八个订单分布到了全部四个分区。
stable=yes：重启前后没有任何订单换分区。

代码在哪里：
internal/ordering：ordering.Partition。场景在 drills/partition_affinity.go。

接下来试试：
  archlab drill partition-affinity --orders 3
used=3，stable=yes：三个订单最多用到三个分区，所以有一个分区（连同读它的消费
者）空闲。`,
	"explain.out-of-order": `注入的故障：
订单 o-1 的 pay 事件（evt-2，v2）抢在它的 reserve 事件（evt-1，v1）之前到达。

关键规则：
投影一次只前进一个版本（Projection.Apply）。跳过版本就是 ErrConflict，值得重
试：只要投递次数低于 --max-attempts，Consumer.Handle 就返回 OutcomeRetry，消
息代理把 pay 重新排到队尾。reserve 应用之后，pay 的第二次投递也被应用，这一
行收敛到 v2/PAID，没有任何事件进入死信。

计数器说明了什么：
attempts=3 次投递：pay、reserve、再一次 pay。applied=2 次版本推进。
final=v2/PAID 是最终的行。dlq=0：没有事件进入死信。

代码在哪里：
internal/ordering：Projection.Apply 与 Consumer.Handle。消息代理的投递循环在
drills/dispatch.go，场景在 drills/out_of_order.go。

接下来试试：
  archlab drill out-of-order --max-attempts 1
没有重试预算：pay 在第一次投递时就进入死信。attempts=2，applied=1，
final=v1/INVENTORY_RESERVED，dlq=1。这一行落后于权威数据源，正是 reconcile
演练要修复的情形。`,
	"explain.poison": `注入的故障：
两个按原样永远无法应用的事件：evt-9 的类型是 refund，订单状态机不认识它；
evt-10 声称是 v5 的 pay，而 pay 永远是 v2。

关键规则：
毒消息不是冲突。Projection.Apply 还没看投影行就返回 ErrPoison，
Consumer.Handle 在第一次投递时就把毒消息转入死信队列，不消耗重试预算：格式错
误的事件，重试多少次都修不好。

计数器说明了什么：
events=2 是注入的事件数，dead=2 表示两个都在死信队列里。attempts=1/1 是它们
各自进入死信时的投递次数。applied=0：投影从未被改动（该行仍是 v0/）。

代码在哪里：
internal/ordering：Projection.Apply（先检查类型和版本）与 Consumer.Handle。
场景在 drills/poison.go。

接下来试试：
  archlab drill poison --max-attempts 10
结果相同，attempts=1/1：重试预算是给冲突用的，不是给毒消息的。`,
	"explain.retry-budget": `注入的故障：
订单 o-1 的 pay 事件（evt-2，v2）到了，但它的 reserve 事件永远不会来。

关键规则：
冲突会重试，但不会无限重试。Consumer.Handle 统计投递次数：低于 MaxAttempts
时返回 OutcomeRetry，由消息代理重新入队；达到 MaxAttempts 时转入死信队列。死
信队列把事件停放下来等待对账，而不是让它无休止地循环。

计数器说明了什么：
max=3 是预算。attempts=3：实际花掉的投递次数，恰好等于预算。outcome=dead 是
最后的结果。applied=0：这一行从未前进（v0/）。

代码在哪里：
internal/ordering：Consumer.Handle 与 NewConsumer（MaxAttempts）。重新入队的
循环在 drills/dispatch.go，场景在 drills/retry_budget.go。

接下来试试：
  archlab drill retry-budget --max-attempts 5
max=5，attempts=5，outcome=dead，applied=0。更大的预算能让迟到的事件多等一会
儿，却变不出一个永远不来的事件。`,
	"explain.reconcile": `注入的故障：
消费者没有富余的重试预算：每个事件只投递一次。pay（v2）抢在 reserve（v1）之
前到达，立刻进入死信；随后 reserve 被应用。投影卡在 v1，而权威数据源（订单服
务）显示的是 v2/PAID。

关键规则：
重放帮不上忙：能修好这一行的事件在死信队列里，不在消费者读取的日志中。
ordering.Reconcile 把每个订单与权威数据源比对，覆盖所有不一致的行，并记录一
条 Fix。修复不是事件，所以 AppliedCount 不计入它。

计数器说明了什么：
before=v1/INVENTORY_RESERVED 是卡住的行，after=v2/PAID 是修复后的行。fixes=1
且 dlq=1：每个进入死信、出现偏差的订单修复一次。

代码在哪里：
internal/ordering：Reconcile 与 MapSource（权威数据源）。场景在
drills/reconcile.go。

接下来试试：
本演练没有参数。不经对账，单独运行这场竞争：
  archlab drill out-of-order --max-attempts 1
它停在 final=v1/INVENTORY_RESERVED、dlq=1，也就是对账的起点。改用
--max-attempts 2，同样的竞争会自行收敛（final=v2/PAID，dlq=0），根本无账可对。`,
	"explain.replay": `注入的故障：
两个订单的五个事件存放在只追加的日志里。一个全新的投影从偏移 0 重放日志完成
重建。随后一个丢失了最后一次偏移提交的消费者从较旧的偏移恢复
（--resume-from 3），把日志尾部又读了一遍。

关键规则：
Projection.Apply 按版本幂等：版本不高于当前行的事件是重复，不是错误。因此从
任何偏移重放都是安全的，仅凭日志就足以重建投影。ordering.Replay 用
Log.NextBatch 按有界批次（--batch）读取，逐个事件推进偏移。

计数器说明了什么：
events=5 是日志长度。rebuilt_applied=5：重建应用了每一个事件。duplicates=2：
重读的尾部（evt-4、evt-5）什么也没改变。offset=5：重放停在日志末尾。

代码在哪里：
internal/ordering：Replay、Log.NextBatch 与 Projection.Apply。场景在
drills/replay.go。

接下来试试：
  archlab drill replay --resume-from 0
整个日志再读一遍：duplicates=5，offset=5，而两行依旧是 o-1 v3/FULFILLED 和
o-2 v2/PAID。`,
	"explain.seek-bounds": `注入的故障：
先正常读一次 NextBatch(0, 2)，然后消费者请求 5 个事件的日志中的偏移 6（仿佛
日志在它脚下被截断了），再请求大小为零的批次，最后请求恰好位于末尾的偏移 5。

关键规则：
偏移是某个事件之后的位置，所以合法偏移是 [0, length]。在 length 处读取不是错
误：它返回零个事件和原来的偏移。这种“读完”正是消费者得知自己已经追上的方式。
只有 [0, length] 之外的偏移才是 ErrOffsetOutOfRange，批大小小于 1 是
ErrBatchSize；两者都不改变偏移。

计数器说明了什么：
out_of_range=1 是在 6 处的读取。zero_size=1 是大小为 0 的读取。drained=1 是
在 5 处的读取。

代码在哪里：
internal/ordering：Log.NextBatch，以及 ErrOffsetOutOfRange 和 ErrBatchSize。
场景在 drills/seek_bounds.go。

接下来试试：
本演练没有参数。在重放中看一次“读完”：
  archlab drill replay --resume-from 5
消费者从末尾恢复：第一次 NextBatch 就没有事件，重放以 duplicates=0、offset=5
结束，没有报错。`,
	"explain.crash-resume": `注入的故障：
键 order-0 … order-999 按 FNV-1a 分成 4 个分片。分片 0 每处理 10 项提交一次
偏移，在第 37 项之后立即崩溃：这一项的效果已经发生，而检查点还停在 30。

关键规则：
检查点让重跑代价小：Runner.Run 从已提交的偏移恢复，而不是从 0 开始。下游
（sink）让重跑安全：Sink.Apply 记住业务键，所以崩溃前已生效、现在又被重放的
偏移 30 到 36 的项会被抑制，不会生效两次。进度是至少一次，效果是恰好一次。

计数器说明了什么：
shard=0 keys … shard=3 keys 各为 250：FNV-1a 的划分结果。shard0=250 是崩溃分
片的项数。crash_attempts=37 是分片 0 崩溃前处理到的项数。checkpoint=30 是最
后一次提交。replay=7 即 37 - 30。applied=1000：每个键一次。suppressed=7 等于
replay：下游抑制的恰好是重放的项。

代码在哪里：
internal/shardjob：Split、Runner.Run、Checkpoint.Commit 与 Sink.Apply。场景
在 drills/crash_resume.go。

接下来试试：
  archlab drill crash-resume --commit-every 5
提交更频繁，重放就更少：崩溃时的检查点变为 35，重放变为 2（suppressed=2），
applied 仍为 1000。若改用 --crash-after 40，崩溃恰好发生在提交 40 之前：
checkpoint=30，replay=10，整整一个提交间隔。`,
	"explain.stale-epoch": `注入的故障：
一个工作进程以租约纪元 1 持有 shard-0（100 项），处理 25 项后停顿，比如遇到
长时间 GC 或网络分区；它最后一次提交是 20。它的租约过期，新的持有者以纪元 2
接管分片，从 20 继续，做完并提交 100。之后僵尸醒来，提交了两次：自己的进度
（25）和分片末尾（100）。

关键规则：
隔离（fencing）。Checkpoint.Commit 把纪元和偏移一起保存，凡是纪元低于上一次
提交的，无论偏移是多少，一律以 ErrStaleEpoch 拒绝。僵尸既不能让检查点回退，
也不能认领已不属于它的分片。下游按业务键去重，保证每个效果只有一次。

围栏只在新纪元写入检查点时才升起，所以新持有者在做任何工作之前，先以纪元 2
提交它继续的偏移。如果交给 Runner.Run，新纪元要等到新持有者第一次提交才写入，
其间僵尸的提交会被接受：archlab explore shardjob 能找到这个窗口
（fence-at-first-commit）。

计数器说明了什么：
书中的代码隐含了这个演练，但日志没有打印，所以这些值是本实验室给出的。
zombie_epoch=1 与 owner_epoch=2 是两个租约纪元。zombie_commits=2 且
rejected=2：僵尸的每次提交都被挡下。checkpoint=100：新持有者的提交有效。
applied=100：每个键一次。suppressed=5：偏移 20 到 24 的项，僵尸停顿前已应用，
新持有者又重放了一遍。

代码在哪里：
internal/shardjob：Checkpoint.Commit（ErrStaleEpoch）与 Runner.Run。场景在
drills/stale_epoch.go。

接下来试试：
  archlab drill stale-epoch --lease-expires-after 30
僵尸在第 30 项之后、提交它之前停顿，所以检查点仍是 20，新持有者重放 10 项：
suppressed=10，而 rejected=2、checkpoint=100、applied=100 不变。`,
}
