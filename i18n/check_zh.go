package i18n

// checkZH 是学生练习的文字：archlab check、各练习的标题、说明与提示，以及
// 运行学生代码（strategy student）时测试台记录的步骤。
var checkZH = map[string]string{
	"help.check.short": "用演练和每一种故障序列检查你在 exercises/ 中写的练习",
	"help.check.long": `检查你在 exercises/ 中写的练习（每个练习一个 Go 文件，按书的顺序：每节一个协议
练习，你选择在书中机制周围调用什么；一个机制练习，你亲手写出机制本身）。对每个
练习，archlab 先在机制上运行书中自己的测试用例，再以“strategy student”用你的
代码运行本节的演练，然后运行探索器范围内的每一种故障序列，并打印：是否完成（以及
每种故障触发过多少个故障序列：有故障从未触发就不算通过），或者第一个被破坏的要
点、破坏它的最短运行、这次运行在同一故障序列上与书中运行分道的地方（“书中：”/
“你的：”，以及它显示的已知错误），和指向书中规则的提示。

每个练习在一个子进程中、按 --timeout（默认 10s）限时运行：永不结束的循环会被报
告出当时所在的位置和最后一次调用，其余练习照常检查。--watch 在 exercises/ 中
的文件每次保存后重新检查，按磁盘上的文件重新构建一个小检查器。卡住了？--hint
为正在做的练习（第一个已开始但未完成的练习，或指定的练习；检查点名了已知错误时，
为这个错误写的提示已在报告中）给出几条分级提示中的第一条，之后每次 --hint
给出下一条；每个练习的计数保存在用户的缓存目录中。--format exercism 为每个练习
按 Exercism 测试运行器格式第 3 版写出 DIR/EXERCISE/results.json，只打印文件名；
DIR 由 --output-dir 指定，默认 archlab-results。在 exercises/ 改动之前构建的
archlab（比如先安装、后修改）什么也不检查：它用一行说明这一点，退出码为 3。

退出码：0 全部完成，1 有未完成（或未结束）的练习，2 用法错误，3 这个 archlab
比 exercises/ 旧（请运行“go run ./cmd/archlab check”）。`,
	"help.check.example": `  # 所有练习，以及进度
  $ go run ./cmd/archlab check
  # 每次保存后重新检查 ledger（Ctrl-C 停止）
  $ go run ./cmd/archlab check ledger --watch
  # 一个练习，完整打印破坏它的最短运行及其演练文件
  $ go run ./cmd/archlab check consumer-handler --show
  # 正在做的练习的提示；再问一次得到下一条
  $ go run ./cmd/archlab check --hint
  # 为评分工具每个练习写一个 results.json（Exercism 格式第 3 版），写在 archlab-results 下
  $ go run ./cmd/archlab check --format exercism
  # 任务、要写什么和检查内容
  $ archlab explain ledger`,
	"check.flag.show":                   "完整打印破坏它的最短运行：时间线，以及重放它的演练文件",
	"check.err.unknown":                 "未知练习 %q；练习有 %s",
	"check.err.args":                    "check 最多接受一个练习，收到了 %d 个",
	"check.err.not-done":                "尚未完成：%s",
	"check.err.show-json":               "--show 打印时间线；与 --json 一起使用时请去掉它",
	"check.err.stale":                   "这个 archlab 是在 exercises/ 改动之前构建的，检查的会是旧代码；请运行：%s",
	"check.line.done":                   "✓ %s（§%s）：已完成：%d 个演练、%s 种故障序列，没有一个能破坏它",
	"check.line.not-done":               "✗ %s（§%s）：未完成：%s",
	"check.line.not-started":            "○ %s（§%s）：尚未开始：在 %[4]s 中编写 %[3]s",
	"check.line.unjudged":               "○ %s（§%s）：未判定：%s",
	"check.why.busy":                    "这台机器太忙，无法同时运行两个 goroutine",
	"check.line.error":                  "✗ %s（§%s）：你的代码出错：%v",
	"check.detail.shortest":             "    最短运行：%s",
	"check.detail.hint":                 "    提示：%s",
	"check.detail.show":                 "    完整运行及其演练文件：%s check %s --show",
	"check.detail.trace":                "破坏 %s 的最短运行：",
	"check.detail.file":                 "把下面重放它的演练文件保存为 %[2]s，然后运行\n    %[1]s drill --file %[2]s",
	"check.progress":                    "已完成 %d/%d 个练习",
	"check.lesson.counter":              "%s 为 %s，书中为 %s",
	"check.lesson.unit":                 "书中的测试 %s 未通过：%s",
	"check.lesson.state-kept-probe":     "其他运行之后，代码对一次简短运行（两笔付款各投递一次，第一笔要求调用存储之外的服务）的回答与第一次不同：它把状态放在动词给它的存储之外（包级变量、缓存），消费端重启就会丢失这些状态，一次运行的判定也会取决于它之前的运行。请把所有状态都放进那个存储",
	"check.lesson.state-kept":           "其他运行之后，代码对演练 %s 的回答与第一次不同：它把状态放在动词给它的存储之外（包级变量、缓存），消费端重启就会丢失这些状态，一次运行的判定也会取决于它之前的运行。请把所有状态都放进那个存储",
	"check.lesson.unfired":              "没有一种故障序列触发过故障 %s：这个范围从未检验过它",
	"check.line.drill":                  "演练 %s：%s",
	"check.hint.start":                  "打开 %s，编写 %s：它仍然返回 ErrNotImplemented",
	"check.unit.projection.outcome":     "第 %[2]d 次投递 %[1]s 时，Handle 返回 %[3]q；书中的消费端返回 %[4]q",
	"check.unit.projection.line":        "你的输出是 %q；书中的输出是 %q",
	"check.unit.projection.dead-letter": "%s 的死信记录是第 %d 次投递、原因 %q；书中的是第 %d 次投递、原因包装了 %s",
	"check.unit.projection.replay":      "书中的 Replay 从偏移量 %d 开始，中途停下：%s",

	"check.title.consumer-handler":    "消费端的处理函数：在至少一次投递的消息代理后面，每笔付款只生效一次",
	"check.title.projection-decision": "投影对一次投递的决策：应用、忽略、重试或转入死信",
	"check.title.projection":          "亲手写出投影的版本闸门以及消费端的重试与死信策略",
	"check.title.shard-loop":          "分片循环：恢复、幂等应用、带纪元提交、接管时设置围栏",
	"check.title.runner":              "机制本身：书中的 Runner.Run 与 Checkpoint，负责恢复、计数、提交与按纪元设围栏",

	"check.hint.consumer-handler":                          "§8.2：至少一次投递意味着任何消息都可能再来一次。什么让重复投递变得无害？在消息代理可以忘掉这条消息之前，什么必须已经提交？",
	"check.hint.consumer-handler.not-lost":                 "有消息丢失了：在它的效果提交之前，消息代理已经忘掉了它，或者去重键已经说了“做过了”。§8.2：效果在确认之前，去重键绝不能脱离效果单独提交。",
	"check.hint.consumer-handler.not-doubled":              "一笔付款生效了两次：重复投递没有被认出来。§8.2：消费端保存去重键，并且键和效果要么一起提交，要么都不提交。",
	"check.hint.consumer-handler.all-acked":                "有消息从未被确认，消息代理会一直投递它。§8.2：完成了工作（或发现工作已完成）的投递要告诉消息代理。",
	"check.hint.consumer-handler.outside-called":           "有一条需要通知的消息从未发出通知。§8.2，恰好一次的真实边界：本地存储之外的调用没有事务覆盖，所以每次走到这一步的投递都要调用，重复投递也一样；由对方按消息的键去重。",
	"check.hint.projection-decision":                       "§8.3：哪些失败等一等就能解决，哪些永远不能？版本缺口可能在缺失的事件到达后补上，但要在预算之内；无法应用的，要放到对账能找到的地方。",
	"check.hint.projection-decision.within-budget":         "有事件在预算用完之后还在重试。§8.3：预算按投递次数计；用完之后停止重试，把事件停放下来等待对账。",
	"check.hint.projection-decision.not-applied-twice":     "投影没有前进，却报告了已应用。§8.3：对于已达到的版本，Apply 返回未应用且没有错误：那是重复。",
	"check.hint.projection-decision.duplicate-not-refused": "已经应用过的事件被重试或送进了死信队列。§8.3：重复不是冲突：Projection.Apply 把它报告为未应用且没有错误，消费端继续往下走（OutcomeDuplicate）；只有版本缺口才值得重试。",
	"check.hint.projection-decision.poison":                "毒消息等多久都修不好。§8.3：Projection.Apply 能区分毒消息和冲突（errors.Is）；毒消息不能消耗重试预算。",
	"check.hint.projection-decision.out-of-order":          "版本缺口是值得重试的冲突：缺失的事件可能还会到达。§8.3：你要求重试的，消息代理会重新入队。",
	"check.hint.projection-decision.retry-budget":          "前驱永远不来的事件不能无限循环。§8.3：冲突一直重试到投递次数达到预算，然后停放。",
	"check.hint.projection":                                "§8.3：投影一次只前进一个版本。对闸门来说，每个事件是四种情况之一：永远无法应用、版本已经达到、来得太早、正好是下一个。只有最后一种会移动这一行；只有第三种值得等待。",
	"check.hint.projection.not-moved-back":                 "有一行的版本回退了。§8.3：版本不高于当前版本的事件是重复：闸门让这一行保持原样。",
	"check.hint.projection.not-applied-twice":              "有事件被应用了两次。§8.3：重投的事件带来的版本，这一行已经达到；闸门把它报告为未应用且没有错误，什么都不改。",
	"check.hint.projection.duplicate-not-refused":          "已经应用过的事件被重试或送进了死信队列。§8.3：重复不是冲突：Apply 返回 false 且没有错误，Handle 返回 duplicate；只有版本缺口才值得重试。",
	"check.hint.projection.within-budget":                  "有事件在预算用完之后还在重试。§8.3：预算按投递次数计；在最后一次投递上，冲突改为进入死信队列。",
	"check.hint.projection.out-of-order":                   "跳过了一个版本的事件不能移动这一行：它前面的事件可能还会到达。§8.3：闸门对缺口返回 ErrConflict，消费端要求重试。",
	"check.hint.projection.poison":                         "毒消息等多久都修不好。§8.3：未知的类型，或者版本不是该类型应有的版本，都是 ErrPoison，消费端在第一次投递时就把它送进死信队列。",
	"check.hint.projection.retry-budget":                   "前驱永远不来的冲突必须有个了结。§8.3：它一直重试到投递次数达到 MaxAttempts，然后连同这个次数和原因进入死信队列。",
	"check.hint.projection.replay":                         "重放会把每个事件再读一遍。§8.3：闸门按版本幂等，所以重放到已达到版本的事件是重复，各行都不动。",
	"check.hint.shard-loop":                                "§11.2：检查点说明分片确定做到了哪里；重跑从那里开始，下游让重放无害，租约纪元把旧的工作进程挡在外面。",
	"check.hint.shard-loop.zombie-never-moves":             "僵尸移动了检查点。书中说 Checkpoint 让“失去租约的工作进程无法移动偏移量”，但检查点要等你以自己的纪元提交之后才知道你的纪元，而 Runner.Run 要处理 CommitEvery 项之后才第一次提交。§11.2：接管时、做任何工作之前就设置围栏：w.Fence() 一步写入你的纪元。",
	"check.hint.shard-loop.exactly-once":                   "有键从未被应用：工作进程死掉时，检查点已经声称完成了还没做的项。§11.2：只有之前的项都完成了，才能提交这个偏移量。",
	"check.hint.shard-loop.replay-matches":                 "重跑重放的不是恢复处与崩溃点之间的那些项。§11.2：重跑从已提交的偏移量继续。",
	"check.hint.shard-loop.never-back":                     "检查点回退了。§11.2：在同一纪元内，进度只能向前。",
	"check.hint.shard-loop.crash-resume":                   "检查点或重放与书中不同。§11.2：从恢复的位置开始，每 N 项提交一次，结束时再提交一次。",
	"check.hint.runner":                                    "§11.2：检查点说明分片确定做到了哪里。Runner.Run 从那里恢复，从那里算起每 N 项提交一次，结束时再提交一次；Checkpoint.Commit 保存最新纪元的偏移量，在同一纪元内绝不让它回退。",
	"check.hint.runner.equal-is-noop":                      "同一纪元内提交已保存的偏移量，被拒绝了，或者改变了什么。§11.2，书中的原话是“相等的偏移量是幂等的”：重跑已完成的分片会再次提交末尾，这必须原样接受。",
	"check.hint.runner.lower-is-stale":                     "同一纪元内落后于检查点的提交被接受了。§11.2：“同一纪元内更小的偏移量被拒绝”，返回 shardjob.ErrStaleOffset，这样慢了一步的重复工作进程无法撤销进度。",
	"check.hint.runner.never-back":                         "检查点回退了。§11.2：同一纪元内，提交只能保持或增大偏移量；只有更新的纪元才能把它设得更小。",
	"check.hint.runner.fenced-after-first-commit":          "新持有者提交之后，旧纪元的工作进程的提交仍被接受。§11.2：“更低的纪元被拒绝”，返回 shardjob.ErrStaleEpoch，无论偏移量是多少。",
	"check.hint.runner.zombie-fenced":                      "新纪元已写入检查点之后，僵尸的提交仍被接受。§11.2：先比较纪元，再比较偏移量：旧纪元的提交无论带着什么偏移量都被拒绝。",
	"check.hint.runner.fence-refuses-the-zombie":           "僵尸的提交越过了接管围栏。§11.2：一旦保存了更新纪元的提交，旧纪元的每次提交都以 shardjob.ErrStaleEpoch 拒绝。",
	"check.hint.runner.zombie-never-moves":                 "接管之后，僵尸移动了检查点。§11.2：Checkpoint.Commit 把纪元和偏移量一起保存，并拒绝更低的纪元，无论偏移量是多少。",
	"check.hint.runner.stale-loop-stops-at-refused-commit": "提交被拒绝后，运行还在继续。§11.2：Runner.Run 立即返回检查点的错误：提交被拒绝，说明这个分片已不再归这个工作进程。",
	"check.hint.runner.exactly-once":                       "有键从未生效：检查点在某一项的效果发生之前就声称完成了它。§11.2：只有之前的项都已生效，才能提交这个偏移量；崩溃发生在某一项的效果之后、它的提交之前。",
	"check.hint.runner.each-key-once":                      "有键从未生效，或者运行没有走到末尾。§11.2：从已提交的偏移量恢复，从那里起处理每一项，并提交末尾。",
	"check.hint.runner.replay-matches":                     "重跑重放的不是恢复处与崩溃点之间的那些项。§11.2：Runner.Run 从已提交的偏移量（Load）开始，而不是从 0 开始。",
	"check.hint.runner.replay-since-checkpoint":            "重放的不是检查点与崩溃之间的项。§11.2：从已提交的偏移量恢复，并在第 crashAfter 项之后、它的提交之前停下。",
	"check.hint.runner.suppressed-is-replay":               "下游拦下的项比重跑重放的多或少。§11.2：重跑从检查点恢复，所以它重放的恰好是崩溃的那次运行越过检查点之后做的项。",
	"check.hint.runner.counted-from-resume":                "重跑的第一次提交不在恢复处之后 CommitEvery 项。§11.2：提交间隔从恢复的偏移量算起，第一个间隔结束之前不提交任何东西。",
	"check.hint.runner.window-open":                        "僵尸移动检查点的情形与书中的 Runner 和 Checkpoint 不同：书中的只让它在新持有者第一次提交之前的窗口里移动一次，之后再也不能。§11.2：书中的 Runner.Run 在第一次提交时才写入自己的纪元，而不是之前（接管围栏是本实验的补充，由测试台加在你的 Runner 外面）；从那次提交起，Checkpoint.Commit 拒绝旧纪元。",
	"check.hint.runner.crash-resume":                       "检查点或重放与书中不同。§11.2：从运行恢复的位置算起每 N 项提交一次，结束时再提交一次；在第 N 项之后的崩溃发生在这一项的提交之前。",
	"check.hint.runner.commit-cadence":                     "提交与书中不同。§11.2：间隔从运行恢复的位置算起，末尾总要提交。",

	"check.explain.consumer-handler": `任务：
在 exercises/consumer_handler.go 中编写 ConsumerHandler：消费端处理一次付款
投递的函数。消息代理至少投递一次：崩溃或确认丢失之后，同一条消息会再来。每笔
付款必须恰好生效一次，每条消息最终都必须被确认。

动词：
d.Message()；d.ApplyOnce()（在同一个本地事务中写去重键和效果；重复时什么都不
改）；d.Mark()（只写键）；d.Effect()（只写付款）；d.NaiveApply()（写付款，
没有键）；d.Notify(m)（m 要求的本地存储之外的调用：通知、发布；没有事务覆盖
它，所以每次走到这里的投递都要调用）；d.Ack()（可能丢失：消息代理随后会重投）。你自己的持久收件箱：
d.Store()（把消息存入你的收件箱表，立即提交）；d.Pending()（尚未处理的行）；
d.Process(m)（一行的效果和“已处理”标记在同一个事务里）。你自己的发件箱：
d.ApplyOnceWithOutbox()（即 ApplyOnce，同时在同一个事务里写一行记下这条消息的
调用）；d.Relay()（对每一行发出调用，再把它标记为已转发）。崩溃之后你的进程带
着完好的存储重启，运行 ConsumerRecover，其中可用 r.Pending()、r.Process(m)、
r.Notify(m) 和 r.Relay()。
场景中的崩溃发生之后，每个动词都返回 harness.ErrCrashed。崩溃可能发生在你第一
次调用之前、你的第一次写时（若它是一个事务则在其中，若它单独提交则紧随其后）、
确认之前或刚确认之后。存储也可能拒绝写入效果（harness.ErrEffectFailed）：把
错误返回，消息代理会重投。

检查什么：
用你的处理函数（strategy student）运行演练 ack-lost、dedup-scope 和
prune-window，再运行 explore inbox 的每一种故障序列（3 条消息、2 次故障），
并加入存储的失败和确认之后的崩溃：没有消息丢失，没有消息生效两次，每条消息
都被确认。

去哪里读：
§8.2 与 internal/inbox：Ledger、Consume。用下面最后两条命令比较各种设计。

试试：
  go run ./cmd/archlab check consumer-handler --show
  archlab explore inbox
  archlab drill mark-before-effect`,
	"check.explain.projection-decision": `任务：
在 exercises/projection_decision.go 中编写 ProjectionDecision：一个订单事件
的一次投递结果如何。返回 applied、duplicate、retry（消息代理把它重新排到队
尾）或 dead（死信队列，由对账修复）。

动词：
d.Event()；d.Attempt()（这是第几次投递，从 1 开始）；d.MaxAttempts()（重试预
算，按投递次数计）；d.Apply()（即 Projection.Apply：true；重复时为 false；或
者返回包装了 ordering.ErrConflict 或 ordering.ErrPoison 的错误）。

检查什么：
用你的决策（strategy student）运行演练 out-of-order、poison、retry-budget、
reconcile 和 redelivered-event，再运行加入毒消息的 explore ordering 的每一种故障序列（每种投递顺
序、最多 2 个重复、预算 1 到 3），然后对账：版本从不回退，没有事件被应用两
次，投影最终与事实来源一致，没有事件在预算用完后还在重试。

去哪里读：
§8.3 与 internal/ordering：Projection.Apply、Consumer.Handle。

试试：
  go run ./cmd/archlab check projection-decision --show`,
	"check.explain.projection": `任务：
在 exercises/projection.go 中按书中的形状写出 §8.3 的机制：Projection
（NewProjection、Apply、Get、AppliedCount）和 Consumer（NewConsumer、Handle、
DLQ）。Apply 是版本闸门：永远无法应用的事件返回包装了 ordering.ErrPoison 的
错误；版本不高于这一行的是重复，返回 false 且没有错误；版本跳过了下一个的返回包装
了 ordering.ErrConflict 的错误；正好是下一个版本的移动这一行。Handle 把它变成
applied、duplicate、retry（在 MaxAttempts 次投递之内）或 dead（连同投递次数和
原因进入死信队列）。

检查什么：
先把你的投影和消费端与书中的逐次调用对照：随机的 Apply、Handle、Repair 与
NewConsumer 调用序列（每种类型与版本、重复、缺口、两种毒消息、对账修复之后的事
件、从 -1 到 4 的预算），每个返回值、每一行、计数和死信都与书中的比较；再从两个
goroutine 同时调用 Apply 和 Handle，每一段调用历史都对照书中的类型检查。然后运行
书中的单元用例（TestOutOfOrderRejectedThenConverges、
TestPoisonGoesStraightToDLQ、TestConflictExhaustsRetryBudget、
TestReconcileRepairsDeadLettered、TestReplayRebuildsProjection）；然后用你的
投影和消费端代替书中的（strategy student，exercise projection），运行演练
out-of-order、poison、retry-budget、reconcile、reconcile-gaps、
redelivered-event 和 replay；再运行加入毒消息的 explore ordering 的每一种故障序列，以及
一个更大的范围，每种之后都在你的行上执行书中的 Reconcile：版本从不回退，没有
事件被应用两次，重复既不重试也不进死信队列，没有事件在预算用完后还在重试，投
影最终与事实来源一致。

去哪里读：
§8.3，以及写完之后的 internal/ordering：Projection.Apply、Consumer.Handle。

试试：
  go run ./cmd/archlab check projection --show`,
	"check.explain.shard-loop": `任务：
在 exercises/shard_loop.go 中编写 ShardLoop：一个工作进程以租约持有者的身份
处理一遍分片。工作进程可能在处理完某一项之后、提交它之前崩溃并被重跑；停顿的
工作进程会把租约输给纪元更高的新持有者，并可能作为僵尸继续提交。

动词：
w.Shard()、w.Epoch()、w.Items()、w.CommitEvery()、w.Load()（已提交的偏移
量）、w.Fence()（接管：把已提交的偏移量以你的纪元一步写回，并返回它）、
w.Apply(key)（幂等的下游：已应用过的键返回 false，下游失败的项返回
harness.ErrSinkFailed）、w.Commit(epoch, offset)
（纪元低于上一次提交的返回 shardjob.ErrStaleEpoch）。崩溃或停顿发生在某次
Apply 之后，与书中的 crashAfter 相同：从那以后每个动词都返回
harness.ErrCrashed。

检查什么：
用你的循环（strategy student；stale-epoch 中设围栏的那一行就是接管，旧纪元的
循环必须在第一次被拒绝的提交处停下）运行演练 crash-resume 和 stale-epoch，再
运行 explore shardjob 的每一种故障序列（30 个键：每种提交间
隔、崩溃点、下游失败的项，以及僵尸提交的时机：你第一次调用检查点之后，或你的某次提交之
后）：每个键只应用一次，重跑恰好重放恢复处与崩溃点之间的项，检查点从不回退，
没有僵尸移动检查点。原样照抄书中的 Runner.Run 通不过：这正是 zombie-window
演练的要点。

去哪里读：
§11.2 与 internal/shardjob：Runner.Run、Checkpoint.Commit、Sink.Apply；
演练 zombie-window 与 stale-epoch（下面最后两条命令）。

试试：
  go run ./cmd/archlab check shard-loop --show
  archlab explain zombie-window
  archlab explain stale-epoch`,

	"check.explain.runner": `任务：
在 exercises/runner.go 中用书中的名字写出书中的 Runner.Run 与
Checkpoint：这是机制本身，测试台把它放在 internal/shardjob 中书的代码所在
的位置。

Checkpoint 为每个分片保存已提交的偏移量，以及提交它的租约纪元。Load 与
Epoch 读出它们（没有时为 0）。Commit 拒绝低于已保存纪元的提交
（shardjob.ErrStaleEpoch），在同一纪元内拒绝更小的偏移量
（shardjob.ErrStaleOffset）；相等的偏移量被接受，且不改变任何东西；更高的纪
元可以设置任意偏移量。Runner.Run 从已提交的偏移量恢复，把每一项交给幂等的下
游，从恢复处算起每 CommitEvery 项提交一次，结束时再提交一次；在第
crashAfter 项之后、这一项的提交之前停下（shardjob.ErrInjectedCrash）；提交被
拒绝时返回检查点的错误。

检查什么：
先把你的 Runner 与 Checkpoint 与书中的逐次调用对照：两个分片上随机的 Run 与
Commit 调用序列（恢复后的运行、从 0 到 4 的每种 CommitEvery、崩溃、更低、相等
和更高的纪元与偏移量、提交超前的僵尸），每个 Result、错误、对下游和检查点的每次
调用、Load 和 Epoch 都与书中的比较；再从两个 goroutine 同时调用 Commit、Load 和
Epoch，每一段调用历史都对照书中的 Checkpoint 检查。然后在你的 Runner 与
Checkpoint 上运行书中的测试 TestRunCrashResume
（shard0=250 crash_attempts=37 checkpoint=30 replay=7 applied=1000
suppressed=7）；再把你的代码放在书中代码的位置，运行演练 crash-resume、
rerun-commit、zombie-window、stale-epoch、commit-cadence、current-epoch-zombie
和 sink-fails；然后在你的
Runner 外面加上本实验的接管围栏（fence-at-takeover），运行 explore shardjob
的每一种故障序列（30 个键）：每个键只生效一次，重跑恰好重放恢复处与崩溃点之间
的项，检查点从不回退，没有僵尸移动检查点。这些恰好是书中自己的 Runner 与
Checkpoint 能通过的演练和故障序列：没有围栏时，书中的循环会放僵尸进来，那是
练习 shard-loop 的要点。

去哪里读：
§11.2 与 internal/shardjob：Runner.Run、Checkpoint.Commit、Sink.Apply；
演练 rerun-commit 与 commit-cadence（下面最后两条命令）。

试试：
  go run ./cmd/archlab check runner --show
  archlab explain rerun-commit
  archlab explain commit-cadence`,

	"check.flag.hint":         "为正在做的练习（第一个已开始但未完成的练习）或指定的练习给出分级提示中的下一条（每个练习的计数保存在用户的缓存目录中）",
	"check.hints.line":        "第 %d/%d 条提示（%s）：%s",
	"check.hints.last":        "第 %d/%d 条提示（%s，最后一条）：%s",
	"check.hints.next":        "    再问一次可得下一条：%s",
	"check.hints.not-needed":  "%s 已完成：不需要提示",
	"check.hints.all-done":    "所有练习都已完成：不需要提示",
	"check.hints.err.read":    "无法读取 %s 中的提示计数（%v）；提示从第一条重新开始",
	"check.hints.err.write":   "无法在 %s 中保存提示计数（%v）；下一次 --hint 仍显示这一条",
	"check.hints.err.corrupt": "不是这个 archlab 写的提示计数",
	"check.hints.err.cache":   "无法在用户的缓存目录中保存提示计数（%v）；下一次 --hint 仍显示这一条",

	"check.hints.consumer-handler.1": "从消息代理的承诺开始：至少一次。任何消息都可能再来一次，在崩溃之后，或在确认没有到达消息代理之后。对你写的每一次调用都问一句：如果进程恰好在它之后崩溃，这条消息再来时会怎样？",
	"check.hints.consumer-handler.2": "只有消费端能认出重投，重投才是无害的：这就是去重键的用处。但没有效果的去重键会为一笔从未发生的付款说“已处理”，没有去重键的效果会再生效一次。在动词里找那个把两者一起提交的。",
	"check.hints.consumer-handler.3": "消息一旦被确认，消息代理就可能忘掉它，所以确认只能在效果提交之后。发现自己的去重键已经存在的投递无事可做，但仍然要确认，否则它会一直回来。崩溃之后每个动词都返回 harness.ErrCrashed：把它返回，不要吞掉。",

	// 练习 ledger（§8.2，机制）
	"check.title.ledger":                    "账本：去重表与保留窗口，运行在书中的 Consume 之下",
	"check.hint.ledger":                     "§8.2：去重键与效果是同一个本地事务，去重键是消息的身份：它的生产者加上它的事件 ID。",
	"check.hint.ledger.not-lost":            "有消息丢失了：一次投递找到了它的去重键，但它的付款从未生效。§8.2：去重键只能与效果一起写入，绝不能单独写。",
	"check.hint.ledger.not-doubled":         "一笔付款生效了两次：重投没有被认出来。§8.2：ApplyOnce 在与效果相同的事务里记下去重键，找到已有去重键时什么都不改，余额也不改。",
	"check.hint.ledger.all-acked":           "有消息从未被确认。书中的 Consume 在 ApplyOnce 没有返回错误时才确认：重复的消息返回 false 且没有错误，而不是返回错误。",
	"check.hint.ledger.dedup-scope":         "两个生产者 ID 相同的事件被当成了同一个。§8.2：事件 ID 是生产者自己的编号，所以去重键要按生产者区分：inbox.DedupKey。",
	"check.hint.ledger.prune-window":        "§8.2：Prune(maxSeq) 遗忘 Seq <= maxSeq 的去重键（包括等于的），并返回遗忘了多少个。",
	"check.hint.ledger.prune-keeps-newer":   "一次清理遗忘了仍在保留窗口内的去重键，或者数错了。§8.2：Prune(maxSeq) 只遗忘 Seq <= maxSeq 的键；较新的键都要留下，继续拦下它们的重放。",
	"check.unit.ledger.first-delivery":      "确认丢失的第一次投递报告 applied=%v；书中：applied=true，并返回 ErrAckLost",
	"check.unit.ledger.redelivery-applied":  "%s 的重投再次生效；书中：这是重复消息，返回 false 且没有错误",
	"check.unit.ledger.ack-lost":            "effects=%d balance=%d acks=%d；书中：effects=1 balance=2599 acks=2",
	"check.unit.ledger.taken-for-duplicate": "%s 的去重键是新的，却被当成了重复消息；书中：返回 true 且没有错误",
	"check.unit.ledger.dedup-scope":         "effects=%d balance=%d；书中：effects=2 balance=600",
	"check.unit.ledger.prune-window":        "pruned=%d replay_applied=%v balance=%d；书中：pruned=1 replay_applied=true balance=2400",
	"check.explain.ledger": `任务：
在 exercises/ledger.go 中写出书中的 Ledger：消费端的本地存储及其去重表。
NewLedger 返回一个空账本。ApplyOnce(m) 在同一个本地事务里（这里是同一把锁下）
记下去重键 inbox.DedupKey(m)（producer:ID）并让付款生效：去重键已存在时返回
false 且没有错误，什么都不改。Prune(maxSeq) 是保留窗口：遗忘消息 Seq <= maxSeq 的
去重键，保留其余的键，并返回遗忘了多少个。Balance 和 Applies 是演练的计数器读
取的数据。书中的错误设计（NaiveApply、MarkBeforeEffect）不需要写。

在它上面运行什么：
书中的 inbox.Consume，原样不动：先 ApplyOnce，再确认。消息代理、崩溃、确认丢
失、重复投递和重放都由实验注入，与每个 §8.2 演练相同。

检查什么：
先把你的 Ledger 与书中的 inbox.Ledger 逐次调用对照：随机的 ApplyOnce 与 Prune
调用序列（重投、另一个生产者的同一事件 ID、直接拼接后相同的生产者与 ID、乱序和
相同的发件箱序号、在每个边界上的 Prune），每个返回值以及之后的每次 Balance 和
Applies 都与书中的比较；再从两个 goroutine 同时投递，每一段调用历史都对照书中
的 Ledger 检查（去重键与效果在同一把锁下）。然后在你的 Ledger 上运行书中自己的
测试（TestSideEffectThenAckLost、TestDedupKeyIncludesProducer、
TestPruneOpensReplayWindow）；再用你的 Ledger 代替书中的，运行演练 ack-lost、
dedup-scope、prune-window、prune-keeps-newer、prune-out-of-order、
exactly-once-boundary 和 duplicate-delivery（strategy student，exercise
ledger）；最后逐一枚举 explore inbox 的每一种故障序列（3 条消息、2 次故障），
每一种都在新的账本上运行：没有消息丢失，没有消息生效两次，每条消息最终都被确
认。

去哪里读：
§8.2 与 internal/inbox：Ledger、DedupKey、Consume；window.go 展示了不必扫描整
张表的 Prune。

试试：
  go run ./cmd/archlab check ledger --show`,
	"check.hints.ledger.1": "从消息代理的承诺开始：至少一次。同一条消息可能再次来到 ApplyOnce；你的账本要记住什么，第二次调用才能认出它？第二次调用又可以改动什么？",
	"check.hints.ledger.2": "什么标识一条消息？两个生产者各自给事件编号，所以同一个事件 ID 可能来自两边。去重键与效果要么都发生，要么都不发生：在这个内存账本里，就是在同一把锁下，检查去重键也要在锁内。",
	"check.hints.ledger.3": "保留窗口按生产者的发件箱序号计量，而不是按时间：每个去重键都要带上它的消息的 Seq，这样 Prune(maxSeq) 才能恰好遗忘 Seq <= maxSeq 的那些键，不碰较新的键。Prune 报告它遗忘了多少；Applies 统计效果，而不是调用次数。",

	"check.hints.projection-decision.1": "Apply 有四种结局：已应用；版本已经达到（没有错误）；这个版本之前有缺口（ErrConflict）；永远无法应用的事件（ErrPoison）。写代码之前，先写下每一种对这次投递意味着什么。",
	"check.hints.projection-decision.2": "其中只有一种能靠等待解决：缺失的事件到达，缺口就补上了。用 errors.Is 区分错误，不要比较错误的文字。版本已经达到根本不是错误：没有什么可重试的。",
	"check.hints.projection-decision.3": "等待有预算。d.Attempt() 从 1 开始数这个事件的投递次数，d.MaxAttempts() 是预算：在最后一次允许的投递上要求重试，就超出了预算。等待解决不了的，或者不能再等的，放到对账能找到的地方。",
	"check.hints.projection.1":          "先只写闸门。设某个订单的这一行处在版本 n：列出版本为 n+1、n、低于 n、高于 n+1 的事件各意味着什么，其中哪一种会改变这一行。格式不对的事件排在这一切之前：target 告诉你它的类型应有的版本。",
	"check.hints.projection.2":          "闸门的回答是值，不是情绪：重复是 (false, nil)，不是错误；缺口和毒消息是错误，消费端用 errors.Is 区分它们，所以要用 %w 包装书中的哨兵错误。这一行和已应用计数一起前进，并且只在这一行前进时前进。",
	"check.hints.projection.3":          "Handle 把闸门的回答变成消息代理要做的事。哪一种回答能靠时间解决？它在投递次数低于预算时重试，在最后一次允许的投递上连同投递次数和原因进入死信队列；时间解决不了的，立即进入死信队列。没有给出预算时，预算有默认值。",

	"check.hints.shard-loop.1": "重跑既不能从零开始，也不能跳过工作。上一个工作进程确定做到了哪里？这正是检查点保存的：从那里继续，让幂等的下游使重放的项无害。",
	"check.hints.shard-loop.2": "提交间隔从你恢复的位置开始数，而不是从第一项开始，结束时再提交一次。只有当之前的每一项都已应用，才能提交这个偏移量：崩溃可能发生在任何一次 Apply 之后。",
	"check.hints.shard-loop.3": "上一纪元的僵尸可能还会提交，而检查点只有在以你的纪元写入之后才知道你的纪元。在做任何工作之前先接管分片：有一个动词能一步把已提交的偏移量以你的纪元写回。提交被 ErrStaleEpoch 拒绝，意味着分片已不归你：就此停下。",

	"check.flag.format":                   "报告的形式：text；exercism（每个练习一个 results.json，Exercism 测试运行器格式第 3 版）；gradescope（DIR/results.json，Gradescope 自动评分格式）；junit（DIR/junit.xml，JUnit XML）；classroom50（DIR/result.json，Classroom 50 自动评分的结果）",
	"check.flag.output-dir":               "--format exercism 写入 DIR/EXERCISE/results.json 的目录（默认 %s）",
	"check.err.format":                    "--format 只能是 text、exercism、gradescope、junit 或 classroom50，收到了 %q",
	"check.err.classroom50-env":           "--format classroom50 写出的是 Classroom 50 自动评分所评判的一次提交的结果；这里没有设置：%s",
	"check.err.classroom50-env.hint":      "请在自动评分程序中运行（见 docs/teachers.md），那里的运行器会设置 %s",
	"check.err.classroom50-git":           "--format classroom50 需要用 git log 读取所评判提交的日期：%v",
	"check.err.format-with":               "--format exercism 写文件，只打印文件名；请去掉 %s",
	"check.err.output-dir":                "--output-dir 是 --format exercism 写入的目录；请加上 --format exercism",
	"check.exercism.drill":                "演练 %s",
	"check.exercism.unit":                 "书中的测试 %s",
	"check.flag.timeout":                  "每个练习的时限，Go 的时长写法，如 10s 或 1m（默认 %s）；到时仍在运行的练习报告为未结束，其余练习照常检查（它的进程等待被其他程序占用的 CPU 的时间不计：机器忙不等于卡住）",
	"check.err.timeout":                   "--timeout 必须是 100ms 到 1h 之间的时长，如 10s 或 1m，收到了 %q",
	"check.err.exe":                       "无法启动用来检查练习的进程：%v",
	"check.err.limit":                     "无法检查 %s：这台机器的限制让它的进程停了下来（%s）；调高限制（ulimit -u、ulimit -v）后再检查",
	"check.explain.verdict":               `什么决定判定：你的代码造成的损害，而不是书中的数字。协议练习，或者 strategy student 的演练文件，只有在代码造成损害时才算没完成：付款丢失或生效两次、已经生效的消息从未调用存储之外的服务、消息从未被确认、投影最终与事实来源不一致、事件被应用两次、版本回退或被跳过、事件在预算用完之后还在重试、某一项从未生效、检查点回退或被僵尸移动；或者违反了任务里写明的一条要求（projection-decision：毒消息在第一次投递时转入死信，冲突在预算之内重试），报告会点名这条要求并注明“没有看到损害”；或者代码把状态放在动词给它的存储之外（包级变量）：你的代码的一次简短运行在最先和最后、它的演练在所有故障序列之后再运行一次，回答都必须一样。崩溃落在你的调用所在之处：每次调用之前都会崩溃一次；每次 Claim 之后，租约会在你变慢时到期。书中自己的设计在同一个演练里也会造成的损害（prune-window 里超出窗口的重放）是演练要讲的道理，不算你的错；如果你的设计没有造成它，报告会说你在这里比书中的设计更安全。与书中不同但没有造成损害的检查或计数器（例如每一项都提交的循环：checkpoint=36，而书中的设计为 30）显示为设计上的差别：只作参考，从不决定判定。机制练习逐次调用地与书中的类型对照：判定是第一个不同的返回值，或者没有任何顺序能解释的同时调用。`,
	"check.err.busy":                      "无法检查 %s：同时做的调用几乎从未在时间上重叠，这台机器太忙，无法同时运行两个 goroutine，所以什么都没有判定；等它空闲一些再检查",
	"check.line.hung":                     "✗ %s（§%s）：%s 内没有结束",
	"check.detail.hung":                   "    当时正在运行 %s；最后一次调用是 %s",
	"check.hung.unknown":                  "（不详）",
	"check.hung.no-call":                  "（还没有调用）",
	"check.detail.faults":                 "    逐一运行的 %s 种故障序列中，触发每种故障的序列数：%s",
	"check.detail.wide-skipped":           "    略过了大范围：你的处理函数有自己的表（持久收件箱或发件箱），探索器的状态无法区分它们；以上每个故障序列都从头运行，包括重启",
	"check.difference.counter":            "%s 为 %s，书中的设计为 %s",
	"check.difference.in":                 "%s：%s",
	"check.detail.safer":                  "    这里比书中的设计更安全，书中的设计会造成这个损害：%s",
	"check.detail.difference":             "    与书中的设计不同，但没有看到损害：%s",
	"check.flag.watch":                    "每次保存 exercises/ 中的文件后重新检查（Ctrl-C 停止）：检查器按磁盘上的文件重新构建，只检查保存的那个练习",
	"check.err.watch-with":                "--watch 在每次保存后打印结论，不能与 --json、--format exercism 或 --hint 同用",
	"check.watch.no-source":               "--watch 要从克隆的仓库重新构建练习，但没有找到仓库：%v",
	"check.watch.no-go":                   "--watch 要用 Go 重新构建练习，但 PATH 上没有 go 命令",
	"check.watch.no-dir":                  "无法监视 %s：%v",
	"check.watch.waiting":                 "正在监视 %s：保存文件即重新检查，Ctrl-C 停止",
	"check.watch.stopped":                 "已停止监视",
	"check.watch.saved":                   "── 已保存：%s；检查 %s ──",
	"check.watch.compile":                 "✗ 练习无法编译：",
	"check.err.interrupted":               "已中断：检查用的子进程已停止",
	"check.detail.printed":                "    检查期间你的代码打印了 %s 行（可以打印：check 会单独显示）；前 %d 行：",
	"check.err.no-result":                 "它的进程没有给出结果就结束了：%s",
	"check.err.child":                     "--child 是 archlab 自己用的：check 带着它和一个练习名启动自身；请改为运行 archlab check",
	"check.diag.step":                     "%s：%s",
	"check.diag.sep":                      "；",
	"check.diag.at":                       "    与书分道之处：第 %d 步，%s",
	"check.diag.book":                     "      书中：%s",
	"check.diag.yours":                    "      你的：%s",
	"check.diag.nothing":                  "什么也没做",
	"check.diag.mistake":                  "    已知错误：%s",
	"check.mistake.mark-before-effect":    "先写键后生效：去重键单独提交，效果之前一旦崩溃，键说“已处理”而付款从未发生，重投的消息被当作重复丢弃",
	"check.mistake.two-transactions":      "两个事务：效果和去重键分开写，两者之间崩溃时付款已生效却没有键，重投时再生效一次",
	"check.mistake.ack-first":             "先确认：效果尚未生效，消息代理就忘了这条消息，确认之后崩溃就会丢失它",
	"check.mistake.no-key":                "没有去重键：没有任何记录说明消息已处理，每次重投都会再生效一次",
	"check.mistake.no-recovery":           "没有恢复步骤：存入收件箱表并已确认的行只由存入它的那次投递处理，那次投递没能完成的行（确认之后崩溃、写入失败）再也没人回来处理",
	"check.mistake.notify-only-when-new":  "只在 ApplyOnce 报告新付款时才调用外部服务：消费端在提交之后、调用之前崩溃，这次调用就没有发出，而重投发现去重键后又跳过了它",
	"check.mistake.no-ack":                "不确认：消息代理永远不知道消息已处理，会一直保留它",
	"check.mistake.duplicate-as-conflict": "把重复当成冲突：已达到的版本表示已经处理过，而不是缺了什么；重试它或把它转入死信，会把正确的数据送去对账",
	"check.mistake.past-budget":           "超出预算仍在重试：无法解决的冲突在尝试次数用完后必须转入死信队列",
	"check.mistake.no-fence":              "接管时没有围栏：新持有者没有一步把自己的纪元写入检查点，旧持有者（僵尸）仍能提交并移动它",
	"check.mistake.key-without-producer":  "去重键缺了生产者：两个生产者中 ID 相同的事件被当成同一个，第二个永远不会生效",
	"check.mistake.prune-too-much":        "Prune 删得太多：比窗口边界新的键也被删掉，它们重投时会再生效一次",
	"check.mistake.prune-too-little":      "Prune 删得太少：窗口边界上的键没有删，去重表无限增长",
	"check.mistake.gap-applied":           "应用了有缺口的版本：跳过中间版本，直接应用了更后面的版本；在缺的版本到达之前它应当是冲突",
	"check.mistake.version-back":          "版本回退：旧版本覆盖了新版本；已经达到的版本应当算重复",
	"check.mistake.poison-retried":        "重试毒消息：永远无法应用的事件被重试到预算用完；它应当立即转入死信队列",
	"check.mistake.dead-before-budget":    "预算未用完就转入死信：冲突可能在缺的版本到达后解决；还有尝试次数时应当重试",
	"check.mistake.resume-from-zero":      "从零开始恢复：重跑从第一项开始而不是从检查点开始，重放了已经提交的部分",
	"check.mistake.stale-epoch-accepted":  "接受了过期纪元：Commit 接受了旧租期的偏移量，僵尸因此移动了检查点",
	"check.mistake.stale-offset-accepted": "接受了过期偏移量：同一纪元中 Commit 接受了比已存值更小的偏移量，检查点回退",
	"check.mistake.equal-offset-refused":  "拒绝了相等的偏移量：再次提交已存的偏移量不改变任何东西，必须成功",
	"check.exercism.explore":              "探索器范围内的每一种故障序列",
	"check.exercism.error":                "你的代码出错：%v",
	"check.exercism.not-run":              "未运行：%s 的检查在前面的测试处停下了",
	"check.exercism.wrote":                "%s：%s",
	"check.exercism.err.write":            "无法写入 %s：%s",
	"check.hints.runner.1":                "从检查点开始：对一次提交，它依次回答三个问题。它来自更早的租约纪元吗？同一纪元内，它会让分片后退吗？它到底改变了什么没有？只有书中的哨兵错误可以说“不”，而被拒绝的提交不改变任何东西。",
	"check.hints.runner.2":                "重跑从检查点所说的位置开始，绝不从零开始，并从那里计算提交间隔：第一次提交在恢复的偏移量之后 CommitEvery 项，而不是下一个整数倍处。分片的末尾总要提交，即使它恰好落在间隔的边界上。",
	"check.hints.runner.3":                "调用方要求的崩溃，发生在某一项的效果之后、它的提交之前：这正是重跑要重放、由下游变得无害的窗口。所以只有前面的项都已生效，才能提交这个偏移量；检查点拒绝的提交，带着它的错误结束这次运行。",

	"check.unit.runner.crash-err": "以 crashAfter %d 运行 shard-0 返回了 %s；书中的返回包装了 shardjob.ErrInjectedCrash 的错误",
	"check.unit.runner.crash":     "崩溃的那次运行：处理 %d 项，检查点 %d（已保存 %d）；书中的：处理 %d 项，检查点 %d",
	"check.unit.runner.rerun-err": "重跑 shard-0 返回了 %s；书中的返回 nil",
	"check.unit.runner.rerun":     "重跑：处理 %d 项，拦下 %d 项，检查点 %d（已保存 %d）；书中的：从 %[6]d 起处理 %[5]d 项，拦下 %[7]d 项，检查点 %[8]d",
	"check.unit.runner.shard":     "%s：生效 %d 项，拦下 %d 项，检查点 %d，错误 %s；书中的：生效 %[6]d 项，拦下 0 项，检查点 %[6]d，错误 <nil>",
	"check.unit.runner.totals":    "下游：applied=%d suppressed=%d；书中的：applied=%d suppressed=%d",

	"student.step.effect":                   "Effect %v",
	"student.step.crash-between":            "在两次写之间崩溃",
	"student.step.crash-before-call":        "在这一步的第 %d 次调用（%s）之前崩溃",
	"student.step.crash-after-calls":        "在这一步的最后一次调用（第 %d 次）之后崩溃",
	"student.step.past-budget":              "第 %[2]d 次投递之后不重投 %[1]v",
	"student.res.not-requeued":              "超出预算 %d 的重试：不再入队",
	"student.res.replay-refused":            "应用 %d，重复 %d，随后你的投影拒绝了偏移量 %d 处的事件：重放停在那里",
	"student.step.fence":                    "以纪元 %d 接管",
	"student.res.fence-is-yours":            "测试台不设围栏：由学生的循环设置",
	"student.outcome.unacked":               "m%d 从未被确认",
	"student.outcome.past-budget":           "有事件在预算用完后还在重试",
	"explore.emit.check.all-acked":          "每条消息最终都被确认",
	"student.outcome.outside-lost":          "m%d 从未发出通知",
	"explore.emit.check.outside-called":     "每条需要通知的消息都调用了本地存储之外的服务：到达调用处的投递都要调用",
	"student.outcome.skipped":               "一次应用让订单越过了下一个版本",
	"explore.emit.check.no-skipped-version": "每次应用只让订单前进一个版本，从不越过缺失的版本",
	"explore.emit.check.within-budget":      "没有事件在预算用完后还在重试",
}
