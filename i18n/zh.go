package i18n

// zh is the Chinese catalogue; see en.go. It holds exactly en's keys, with
// the same fmt verbs in the same order. Its words are the glossary's
// (glossary.go, GLOSSARY.md): the book's own terms where the book has one
// (消费端, 去重表, 幂等, 重放, 死信队列, 对账, 分片, 检查点), and one chosen
// word where it has none (纪元 for epoch, 围栏 for fencing, 下游 for sink,
// 故障序列 for the explorer's schedules); TestGlossary keeps the rejected
// variants out. Counter names and Go identifiers stay in English, letter for
// letter, but a sentence says what a counter means (余额 2599, not
// "balance 2599"). Prose takes Chinese punctuation: ，。：；（）“”.
var zh = map[string]string{
	// Sections of the book.
	"section.8.2":  "第8章 §8.2 消费端幂等、去重表与恰好一次的真实边界",
	"section.8.3":  "第8章 §8.3 消息顺序、重放与死信的对账闭环",
	"section.11.2": "第11章 §11.2 任务分片、幂等重跑与进度检查点",

	// Drill titles (one line each).

	// Flag help for drill parameters.

	// Phases of a drill, as --step shows them.
	"phase.setup":    "准备",
	"phase.fault":    "故障",
	"phase.recovery": "恢复",
	"phase.verdict":  "判定",
	"phase.damage":   "危害",

	// Actors of the timeline.
	"actor.broker":       "消息代理",
	"actor.consumer":     "消费端",
	"actor.ledger":       "账本",
	"actor.reader":       "读取方",
	"actor.janitor":      "清理任务",
	"actor.router":       "路由器",
	"actor.partitions":   "分区",
	"actor.group":        "消费者组",
	"actor.projection":   "投影",
	"actor.dlq":          "死信队列",
	"actor.reconciler":   "对账器",
	"actor.producer":     "生产者",
	"actor.log":          "日志",
	"actor.rebuilder":    "重建器",
	"actor.splitter":     "分片器",
	"actor.worker":       "工作进程",
	"actor.worker-e1":    "工作进程 e1",
	"actor.worker-e2":    "工作进程 e2",
	"actor.checkpoint":   "检查点",
	"actor.sink":         "下游",
	"actor.worker-epoch": "工作进程 e%s",
	"actor.shard":        "分片 %s",
	"actor.shards":       "分片",

	// Timeline actions.
	"step.deliver":             "投递 %v（第 %d 次）",
	"step.deliver-again":       "重投 %v，这是重复事件（第 %d 次）",
	"step.ack":                 "确认 %v",
	"step.apply-once":          "ApplyOnce %v：键与效果，同一本地事务",
	"step.naive-apply":         "NaiveApply %v",
	"step.mark":                "Mark %v：两次写入之一，去重键",
	"step.crash-before-effect": "在生效之前崩溃",
	"step.read-balance":        "读取 %s 的余额",
	"step.prune":               "清理序号 <= %d 的去重键",
	"step.route":               "路由 %s",
	"step.restart":             "重启并重新均衡",
	"step.reroute-all":         "重新路由全部 %d 个订单",
	"step.count-partitions":    "统计在用的分区",
	"step.project":             "应用 %v",
	"step.dead-letter":         "把 %v 转入死信队列",
	"step.read-state":          "读取 %s 的投影行",
	"step.repair":              "按事实来源对账 %s",
	"step.append":              "追加 %v",
	"step.replay-from":         "从偏移量 %d 重放（每批 %d 个）",
	"step.resume-from":         "从过期的偏移量 %d 恢复",
	"step.read":                "NextBatch(offset %d, size %d)",
	"step.assign":              "按 FNV-1a 分配键",
	"step.split":               "把 %d 个键分成 %d 个分片",
	"res.split-refused":        "被拒绝：分片数必须是正数，得到 %d",
	"step.crash":               "处理 %d 项后崩溃",
	"step.crash.one":           "处理 %d 项后崩溃",
	"step.resume":              "从检查点 %d 重跑",
	"step.run":                 "运行该分片",
	"step.commit":              "提交 %s 到 %d",
	"step.commits":             "提交 %s 到 %d … %d",
	"step.count-effects":       "统计生效次数",
	"step.run-epoch":           "以租约纪元 %d 运行",
	"step.fence":               "设围栏：纪元 %d，偏移量 %d",
	"step.stall":               "处理 %d 项后停顿",
	"step.take-over":           "纪元 %d 从偏移量 %d 接管",

	// Timeline results.
	"res.received":                  "已收到",
	"res.acked":                     "已确认",
	"res.ack-lost":                  "丢失（ErrAckLost）",
	"res.applied":                   "已生效，余额 %d",
	"res.duplicate":                 "去重键已存在，拦下重复",
	"res.applied-again":             "又生效了 %d 次，余额 %d",
	"res.balance":                   "余额 %d，已生效 %d 次",
	"res.marked":                    "去重键已写入",
	"res.crashed":                   "已崩溃（注入的模拟崩溃%.0s）",
	"res.taken-for-duplicate":       "有去重键：按重复丢弃，未生效",
	"res.partition":                 "分区 %d",
	"res.partition-moved":           "从分区 %d 移到 %d",
	"res.restarted":                 "所有订单重新路由",
	"res.moved":                     "移动了 %d 个",
	"res.used":                      "用了 %d 个分区（共 %d 个）",
	"res.outcome.applied":           "已应用：%v",
	"res.outcome.duplicate":         "重复，仍为 %v",
	"res.outcome.duplicate-retried": "被重试，但它是重复：订单已经是 %v",
	"res.outcome.duplicate-dead":    "进入死信队列，但它是重复：订单已经是 %v",
	"res.outcome.dead":              "第 %d 次投递时进入死信",
	"res.state":                     "%v（投影累计应用 %d 个事件，所有订单合计）",
	"res.repaired":                  "已修复 %v -> %v",
	"res.log-length":                "日志长度 %d",
	"res.replayed":                  "应用 %d，重复 %d，偏移量停在 %d",
	"res.err":                       "被拒绝（%v）",
	"res.drained":                   "没有事件：已在 %d 处读完",
	"res.keys":                      "%d 个键",
	"res.checkpoint-at":             "检查点仍为 %d",
	"res.rerun":                     "生效 %d 次，拦下 %d 次",
	"res.committed":                 "已提交",
	"res.commits":                   "共提交 %d 次",
	"res.effects":                   "生效 %d 次，拦下 %d 次",
	"res.lease-expired":             "租约过期（检查点 %d）",

	// Lesson checks: each holds for any parameters.

	// The command: table columns, verdicts, summaries.
	"cli.col.counter":          "计数器",
	"cli.col.value":            "值",
	"cli.col.book":             "书中",
	"cli.col.lab":              "实验",
	"cli.col.section":          "章节",
	"cli.col.drill":            "演练",
	"cli.col.drill-file":       "演练与文件",
	"cli.col.result":           "结果",
	"cli.col.counters":         "计数器",
	"cli.verdict.book":         "%s：%d 个计数器与书中一致，%d/%d 条要点成立",
	"cli.verdict.lab":          "%s：%d 个计数器符合实验的预期（书中未打印），%d/%d 条要点成立",
	"cli.verdict.not-compared": "%s：参数与书中不同，%d 个计数器不与书比对；%d/%d 条要点成立",
	"cli.fail.counter":         "%s：%s 为 %s，书中为 %s",
	"cli.fail.check":           "%s：要点不成立：%s",
	"cli.fail.error":           "%s：机制出错：%v",
	"cli.fail.missing":         "%s：书中打印的一个计数器没有产生",
	"cli.summary":              "%d 个演练，%d 个通过，%d 个失败",
	"cli.step.press-enter":     "按 Enter 进入%s阶段，按 q 结束 ",
	"cli.step.next-drill":      "按 Enter 进入下一个演练 %s，按 q 直接看汇总 ",
	"cli.step.stopped":         "已停止：计数器、要点与结果在最后才揭晓；再运行一次即可看到",
	"cli.step.no-terminal":     "--step 只在标准输入和标准输出都是终端时暂停：下面不暂停，直接打印时间线",
	"cli.step.interrupted":     "已中断（Ctrl-C）",

	// Errors: what was wrong and what is allowed.
	"err.flag.unknown":          "未知选项：%s",
	"err.flag.needs-value":      "选项 %s 需要一个值",
	"err.flag.not-a-number":     "%s 需要一个整数，收到 %q",
	"err.flag.invalid":          "%s 不能是 %q",
	"err.lang":                  "--lang 只能是 zh 或 en，实际为 %q",
	"err.unknown-command":       "%q 不是 %q 的子命令",
	"err.unknown-drill":         "没有名为 %q 的演练",
	"err.hint.did-you-mean":     "你是不是想用：%s？",
	"err.hint.help":             "运行“%s --help”查看用法",
	"err.hint.list":             "运行“archlab list”查看全部演练",
	"err.drill.nothing":         "drill 需要一个演练名、--all 或 --chapter",
	"err.drill.args":            "演练 %s 不接受参数，却收到 %q",
	"err.drill.name-and-all":    "演练名与 %[2]s 只能给一个（收到 %[1]s 和 %[2]s）",
	"err.drill.all-and-chapter": "--all 与 --chapter 只能给一个",
	"err.drill.formats":         "只能选一种输出：--json、--mermaid 或表格（可加 --trace 或 --step）",
	"err.chapter":               "没有章节 %q：有效的章节为 %s",
	"err.param.min":             "--%s 至少为 %d，实际为 %d",
	"err.param.range":           "--%s 必须在 %d 到 %d 之间，实际为 %d",
	"err.param.why":             "%s（%s）",
	"err.mismatch":              "%d 个演练与书中不符（%s）：%s",
	"err.mismatch.one":          "%d 个演练与书中不符（%s）：%s",
	"err.explain.args":          "explain 只接受一个演练名，实际收到 %d 个参数",

	// Help text.
	"help.root.short": "本书分布式数据一致性机制的配套实验",
	"help.root.long": `archlab 是《后端架构设计·分布式与数据一致性》的配套实验。每个演练
搭建书中的一个内存机制，注入书中描述的故障（崩溃、确认丢失、去重键被
清理、毒消息或乱序事件、僵尸工作进程），并打印书中打印的计数器。

退出状态：
  0    所有演练（或探索的策略）都与书中一致
  1    有演练与书中不一致
  2    用法错误：输入有误，一行说明错在哪里、允许什么
  3    无法运行：数据库只读、被占用或忙，磁盘已满，标准输出写入失败
       （管道被关闭时不报错）
  130  被中断（Ctrl-C）；143 被终止（SIGTERM）`,
	"help.root.example": `  # 全部演练，与 CI 的运行方式相同
  $ archlab drill --all
  # 单个演练及其时间线
  $ archlab drill ack-lost --trace
  # 某一节的演练，中文输出
  $ archlab drill --chapter 8.3 --lang zh
  # 演练背后的要点
  $ archlab explain crash-resume`,
	"help.drill.short": "运行一个演练、全部演练（--all）或某一节的演练（--chapter）",
	"help.drill.long": `运行书中的演练，并把计数器与书中的值比对。

给出演练名时，运行该演练并打印表格：计数器、值、书中打印的值和标记。使用
--all（或 --chapter 8.2|8.3|11.2）时，以书中的参数运行全部（或该节的）演练并
打印汇总。改变演练参数就是一次“假如”：场景随之改变，这样的运行不与书比对，
但要点仍会检查。`,
	"help.drill.example": `  # 全部演练，即回归检查
  $ archlab drill --all
  # 某一节
  $ archlab drill --chapter 11.2
  # 单个演练及其时间线
  $ archlab drill ack-lost --trace
  # 把时间线导出为 Mermaid 图，用于幻灯片
  $ archlab drill ack-lost --mermaid > ack-lost.mmd
  # 机器可读的输出
  $ archlab drill --all --json`,
	"help.drill.book-counters": "书中打印：%s",
	"help.drill.lab-counters":  "书中代码隐含了这个演练，但日志没有打印；以下计数器是实验给出的，不是书中的：%s",
	"help.drill.params":        "把参数改成非默认值就是一次“假如”：计数器不与书比对，要点仍会检查。",
	"help.example.book":        "书中的场景",
	"help.example.trace":       "附带每一步的时间线",
	"help.example.what-if":     "假如：改变场景",
	"help.flag.all":            "按书中顺序运行全部演练",
	"help.flag.chapter":        "运行某一节的演练（%s）",
	"help.flag.list-json":      "以 JSON 输出各节及其演练：名称、标题、书中的计数器、参数",
	"help.flag.json":           "输出 JSON 而不是表格",
	"help.flag.trace":          "在表格之前打印每一步的时间线",
	"help.flag.mermaid":        "把步骤输出为 Mermaid 时序图",
	"help.flag.step":           "同 --trace，但在各阶段之间暂停，按 Enter 继续（仅限终端）",
	"help.flag.lang":           "语言：zh 或 en（默认取自 LC_ALL、LC_MESSAGES、LANG）",
	"help.flag.no-color":       "输出不着色（也可设置 NO_COLOR）",
	"help.flag.version":        "打印版本",
	"help.flag.help":           "显示此命令的帮助",
	"help.list.short":          "按书的章节列出演练",
	"help.list.example":        "  # 每个演练及其一行标题\n  $ archlab list",
	"help.explain.short":       "讲解演练背后的要点",
	"help.explain.example":     "  # crash-resume 讲了什么、接下来可以试什么\n  $ archlab explain crash-resume",
	"help.head.usage":          "用法：",
	"help.head.aliases":        "别名：",
	"help.head.examples":       "示例：",
	"help.head.commands":       "可用命令：",
	"help.head.flags":          "选项：",
	"help.head.global-flags":   "全局选项：",
	"help.more":                "使用 \"%s [命令] --help\" 查看命令的详细说明。",
	"help.flags-word":          "[选项]",
	"help.command-word":        "[命令]",
	"help.flag.default":        "（默认值 %s）",
	"help.type.string":         "文本",
	"help.type.int":            "整数",
	"help.type.uint":           "整数",
	"help.type.duration":       "时长",
	"err.args.none":            "%s 不接受参数，却收到 %q",
	"err.os.not-exist":         "文件或目录不存在",
	"err.os.permission":        "没有权限",
	"err.os.is-dir":            "这是一个目录",
	"err.os.not-dir":           "路径中有一段不是目录",
	"time.seconds":             "%s 秒",
	"time.milliseconds":        "%s 毫秒",
	"time.microseconds":        "%s 微秒",
	"help.completion.short":    "输出命令行补全脚本（bash、zsh、fish、powershell）",
	"help.completion.long": `输出让命令行用 Tab 补全 archlab 的命令、演练名和选项取值的脚本。各个命令行
如何加载，见对应的帮助：

  archlab completion bash --help`,
	"help.completion.shell.short": "输出 %s 的补全脚本",
	"help.completion.bash.long": `输出 bash 的补全脚本。需要先安装 bash-completion 软件包。

在当前命令行中加载：

  source <(archlab completion bash)

在以后每个新命令行中加载（Linux）：

  archlab completion bash > /etc/bash_completion.d/archlab

在装有 Homebrew 的 macOS 上：

  archlab completion bash > $(brew --prefix)/etc/bash_completion.d/archlab`,
	"help.completion.zsh.long": `输出 zsh 的补全脚本。如果还没有开启补全，在 ~/.zshrc 中加入一次这一行：

  autoload -U compinit; compinit

在当前命令行中加载：

  source <(archlab completion zsh)

在以后每个新命令行中加载，把脚本写进 $fpath 中的一个目录：

  archlab completion zsh > "${fpath[1]}/_archlab"`,
	"help.completion.fish.long": `输出 fish 的补全脚本。

在当前命令行中加载：

  archlab completion fish | source

在以后每个新命令行中加载：

  archlab completion fish > ~/.config/fish/completions/archlab.fish`,
	"help.completion.powershell.long": `输出 PowerShell 的补全脚本。

在当前命令行中加载：

  archlab completion powershell | Out-String | Invoke-Expression

在以后每个新命令行中加载：把上面这一行加入 PowerShell 的配置文件。`,
	"help.flag.no-descriptions": "补全时不在每个取值旁显示说明",
	"err.completion.shell":      "completion 需要指定命令行：bash、zsh、fish 或 powershell",
	"help.help.short":           "查看任一命令的帮助",
	"help.version.short":        "打印版本",

	// explore：小范围内的每一种故障序列（archlab explore）。策略名、不变式名
	// 与故障名保持英文：它们是实验的标识符，--json 中也一样。
	"explore.help.short": "在真实机制上运行小范围内的每一种故障序列",
	"explore.help.long": `一个演练只展示书中挑选的那一种故障序列。explore 在真实机制上运行小范围内的每
一种故障序列（在给定上限内的每一种投递顺序、崩溃点、确认丢失与重放），每次运
行后检查本节的不变式，并按策略打印有多少故障序列违反了它们，以及其中最短的一
个。安全的设计必须零违反，每个不安全的设计至少被一个故障序列抓住：由枚举找
到，而不是写好的剧本。

计数是精确的，在任何机器上、任何 --workers 下都相同。--random 对大到无法枚举
的范围抽样，用 --seed 可以重现。速率输出到标准错误；运行超过一秒时显示进度
条。

退出码：每个判定都与书一致时为 0，否则为 1，用法错误为 2。`,
	"explore.help.example": `  # effect-then-ack 在每一种崩溃、确认丢失与重放下都安全吗？
  $ archlab explore inbox
  # 同上，并逐步展示每个最短反例
  $ archlab explore inbox --show
  # 把 naive 的最短反例输出为演练文件，用 drill --file 重放
  $ archlab explore inbox naive --emit > naive.txtar
  # 一个订单事件的每一种投递顺序，外加一个毒消息
  $ archlab explore ordering --poison
  # 重放代价与提交间隔，以及僵尸工作进程
  $ archlab explore shardjob
  # 范围太大无法枚举：抽样
  $ archlab explore inbox --messages 6 --faults 4 --random 100000 --seed 1`,
	"explore.help.inbox.short": "§8.2：naive、mark-before-effect、effect-then-ack 与 early-prune 面对每一种故障序列",
	"explore.help.inbox.long": `来自两个生产者的消息（前两条共用事件 ID evt-1）经过一个至少一次投递的消息代
理，它会以任意顺序重投任何未确认的消息。每次投递要么成功，要么遇到 §8.2 故障表
中的一种故障：
%s
一个故障序列最多含 --faults 个故障。每个策略都经由 §8.2 的测试台跑遍每一个故障
序列：运行的是书中的处理函数本身，故障注入在交给它的存储与确认存储周围；结束后
每条消息必须恰好生效一次：不丢失（lost），不重复（doubled）。`,
	"explore.help.inbox.example": `  # 默认范围：3 条消息，最多 2 个故障
  $ archlab explore inbox
  # 逐步看 mark-before-effect 为什么丢消息
  $ archlab explore inbox mark-before-effect --show
  # 同一个故障序列输出为演练文件，并重放它
  $ archlab explore inbox mark-before-effect --emit > mbe.txtar
  $ archlab drill --file mbe.txtar
  # 依次输出每个不安全策略的演练文件
  $ archlab explore inbox --emit
  # 更大的范围
  $ archlab explore inbox --messages 4 --faults 3`,
	"explore.help.ordering.short": "§8.3：一个订单事件的每一种投递顺序，逐个重试预算",
	"explore.help.ordering.long": `一个订单的事件（reserve v1、pay v2、fulfill v3）以每一种顺序到达，最多
--duplicates 次重复投递；加 --poison 时再加一个毒消息。冲突的事件重新排到队
尾，直到 --max-attempts；从 1 开始的每个预算都面对每一种顺序。不变式：版本从
不回退，没有事件被应用两次，投影最终等于事实来源。重试预算表按预算统计：有多
少顺序仅靠重试就收敛，有多少需要死信队列与对账（Reconcile）。`,
	"explore.help.ordering.example": `  # 默认范围：最多 2 次重复，预算 1 到 3
  $ archlab explore ordering
  # 加一个毒消息，预算最多到 5
  $ archlab explore ordering --poison --max-attempts 5
  # 把 retry-only 的最短反例输出为演练文件
  $ archlab explore ordering retry-only --emit > retry-only.txtar`,
	"explore.help.shardjob.short": "§11.2：一个分片的每个崩溃点、提交间隔与僵尸提交",
	"explore.help.shardjob.long": `一个有 --keys 项的分片在租约纪元 1 下处理，每 C 项提交一次检查点，处理 K 项
之后、提交它们之前崩溃（或者不崩溃）。新的持有者以纪元 2 取得租约，从检查点重
跑；崩溃的工作进程成了僵尸，在新持有者第一次调用检查点之后，或它的某次提交之
后，提交自己走到的偏移量。每个 C、K 与僵尸时机的组合都是一个故障序列。只有造
成损害的故障序列才算违反：某个键应用了两次或没有应用、检查点回退、僵尸移动了
检查点，或者重跑重放的不是“恢复处到崩溃点之间”的那些项。图表显示提交间隔的代
价：每次运行的提交次数，对比崩溃后重放的项数。`,
	"explore.help.shardjob.example": `  # 默认范围：30 个键
  $ archlab explore shardjob
  # 逐步看僵尸的可乘之机
  $ archlab explore shardjob --show
  # 把僵尸的可乘之机输出为演练文件
  $ archlab explore shardjob fence-at-first-commit --emit > zombie.txtar`,
	"explore.flag.show":         "把每个最短反例打印成逐步的时间线",
	"explore.flag.random":       "随机抽取这么多个故障序列而不是枚举（0：每一个故障序列）",
	"explore.flag.seed":         "--random 的种子：相同的种子抽到相同的样本",
	"explore.flag.workers":      "运行故障序列的工作协程数（0：每个核一个）；结果与它无关",
	"explore.flag.messages":     "消息条数，来自共用事件 ID 的两个生产者",
	"explore.flag.faults":       "每个故障序列最多的故障数（故障见 archlab drill --verbs 8.2）",
	"explore.flag.notify":       "m1 的处理函数还调用一个本地存储之外的服务（通知）：报告统计每个策略把这次调用做了两次及以上、以及从未做过的故障序列数",
	"explore.outside.head":      "m1 对本地存储之外的调用，没有事务覆盖它：",
	"explore.outside.row":       "%s 个故障序列中调用了两次及以上，%s 个中从未调用",
	"explore.outside.lesson":    "恰好一次止于本地存储：去重键守住的是付款，不是调用，所以每个策略在走到这一步的投递上都会再次调用，安全的那个也一样。对方必须按消息的键去重。",
	"explore.flag.duplicates":   "三个事件的额外投递次数上限",
	"explore.flag.poison":       "在每种投递顺序中加入一个毒消息",
	"explore.flag.max-attempts": "要探索的重试预算：从 1 到此值的每个预算",
	"explore.flag.keys":         "分片中的项数",

	"explore.err.unknown":             "未知机制 %q：explore 支持 %s",
	"explore.err.nothing":             "explore 需要指定机制：%s",
	"explore.err.args":                "explore %s 最多接受一个 STRATEGY，收到 %q",
	"explore.err.formats":             "只能选一种输出：--json，或表格（可加 --show）",
	"explore.err.seed-without-random": "--seed 只用于抽样：请同时给出 --random",
	"explore.err.hint.random":         "改为抽样，例如 --random 100000 --seed 1",
	"explore.err.too-large":           "explore %s：该范围有 %s 个故障序列，超过可枚举的上限 %s",
	"explore.err.drift":               "explore %s：%s 的行为与书中代码不符（internal/ 是否被改动？）：%v",
	"explore.err.mismatch":            "explore %[2]s 有 %[1]d 个判定与书不一致：%[3]s",
	"explore.err.mismatch.one":        "explore %[2]s 有 %[1]d 个判定与书不一致：%[3]s",

	"explore.rate":                    "%s：%s 个故障序列 × %d 个策略，%s，并行 %d 路，每秒 %s 个",
	"explore.progress":                "explore %s",
	"explore.progress.unit.schedules": "个故障序列",
	"explore.progress.unit.states":    "个状态",
	"explore.header.exhaustive":       "范围内的每一个故障序列：共 %s 个（%s）",
	"explore.header.sampled":          "从 %[2]s 个故障序列中随机抽取 %[1]s 个（%[3]s），种子 %[4]d",
	"explore.rerun":                   "重现：%s",
	"explore.legend.messages":         "消息：%s",
	"explore.legend.ordering":         "moved-back：版本回退 · applied-twice：同一版本应用了两次\ndiverged：投影最终与事实来源不一致 · duplicate-refused：已应用的事件被重试或进入死信",
	"explore.legend.shardjob":         "not-exactly-once：某个键应用了 0 次或多次 · moved-back：检查点回退\nreplay-mismatch：重放项数 ≠ 崩溃点 − 恢复偏移量 · zombie-moved：僵尸的提交改变了检查点",

	"explore.col.strategy":     "策略",
	"explore.col.schedules":    "故障序列数",
	"explore.col.violations":   "违反",
	"explore.col.verdict":      "判定",
	"explore.col.shortest":     "最短反例",
	"explore.col.max-attempts": "max-attempts",
	"explore.col.by-retry":     "仅靠重试收敛",
	"explore.col.reconciled":   "需要死信队列 + 对账",
	"explore.col.deliveries":   "每种顺序的平均投递次数",

	"explore.book.safe":           "安全",
	"explore.book.unsafe":         "不安全",
	"explore.verdict.as-the-book": "%s，与书一致",
	"explore.verdict.contradicts": "与书矛盾（书中为%s）",
	"explore.verdict.not-found":   "%s，但本次抽样没有找到失败的故障序列",
	"explore.budget.title":        "重试预算：retry-then-reconcile 下每种投递顺序的结局",
	"explore.chart.title":         "重放代价与提交间隔（fence-at-takeover，每个 K 之后崩溃一次）",
	"explore.chart.col.interval":  "commit-every",
	"explore.chart.col.commits":   "无崩溃运行的提交次数",
	"explore.chart.col.replay":    "崩溃后重放的项数",
	"explore.chart.replay":        "%.1f（最多 %d）",
	"explore.summary.pass":        "%d 个策略，每个判定都与书一致",
	"explore.summary.fail":        "%[2]d 个判定中有 %[1]d 个与书不一致",
	"explore.show.title":          "最短反例，第 %d 个故障序列，违反 %s",

	// explore 自己的时间线步骤；其余沿用演练的。
	"explore.step.crash-before":    "在第一次写之前崩溃",
	"explore.step.crash-in-write":  "在 %s 内部崩溃：什么都没有提交",
	"explore.step.crash-after":     "写完之后、确认之前崩溃",
	"explore.step.effects-of":      "读取 %s，由 %v 支付",
	"explore.step.compare-source":  "与事实来源（%v）比较",
	"explore.step.read-checkpoint": "读取 %s 的检查点",
	"explore.res.once":             "余额 %d：生效一次",
	"explore.res.lost":             "余额 %d：丢失，从未生效",
	"explore.res.doubled":          "余额 %d：生效 %d 次",
	"explore.res.no-repair":        "无需修复",
	"explore.res.matches":          "一致",
	"explore.res.diverged":         "不一致：仍是 %v",
	"explore.res.checkpoint":       "偏移量 %d，纪元 %d",

	// explore 的反例：一行的形式，以及演练文件（--emit）。
	"explore.line":                      "%s ⇒ %s",
	"explore.line.sep":                  "，",
	"explore.outcome.lost":              "m%d 丢失",
	"explore.outcome.doubled":           "m%d 生效 %d 次",
	"explore.outcome.diverged":          "%v，事实来源为 %v",
	"explore.outcome.moved-back":        "版本回退",
	"explore.outcome.applied-twice":     "有事件被应用两次",
	"explore.outcome.duplicate-refused": "重复事件被重试或进入死信",
	"explore.outcome.dlq":               "死信队列 %d 条",
	"explore.outcome.zombie-moved":      "僵尸把检查点从 %d 移到 %d",
	"explore.outcome.replay-mismatch":   "重放了 %d 项，而不是 %d−%d",
	"explore.outcome.checkpoint-back":   "检查点回退",
	"explore.outcome.not-exactly-once":  "%[2]d 个键中生效了 %[1]d 个",
	"explore.outcome.ok":                "正常",
	"explore.flag.emit":                 "只把最短反例打印成演练文件（txtar），供 archlab drill --file 使用",
	"explore.help.strategy": `STRATEGY 参数为 --show 或 --emit 选出一个策略的最短反例。--emit 不打印表格，
而是把反例打印成演练文件：测试台的动词、这次运行得到的计数器，以及每个不变式
一条要点；用 archlab drill --file 重放该文件，会得到同样的违反。不给
STRATEGY 时，--emit 依次打印每个不安全策略的文件；要保存恰好一个文件，请指
定策略。`,
	"explore.err.emit-json":         "只能选一种输出：--json 或 --emit",
	"explore.err.strategy":          "explore %s 没有策略 %q：可选 %s",
	"explore.err.strategy-alone":    "STRATEGY 参数用于为 --show 或 --emit 选出反例：请给出其中之一",
	"explore.err.no-counterexample": "%s 在这个范围内没有反例：没有可输出的文件",
	"explore.err.hint.unsafe":       "这里不安全的策略是 %s",
	"explore.emit.comment": `“archlab explore %[1]s”（%[2]s）中让 %[3]s 出错的最短故障序列：
第 %[4]d 个故障序列，%[5]s。
用“archlab drill --file %[6]s.txtar”重放：
重放打破同样的不变式（即“shows”要点，标为 ◆）并保持其余要点时，演练通过。`,
	"explore.emit.comment.fails": `“archlab explore %[1]s”（%[2]s）中让 %[3]s 出错的最短故障序列：
第 %[4]d 个故障序列，%[5]s。
用“archlab drill --file %[6]s.txtar”重放：
被违反的不变式对应的要点不成立，其余要点全部成立。`,
	"explore.emit.broken":                      "被打破，与 explore 找到的反例和书中所讲一致：%s",
	"explore.emit.title":                       "让 %s 出错的最短故障序列",
	"explore.emit.check.not-lost":              "没有消息丢失",
	"explore.emit.check.not-doubled":           "没有消息生效两次",
	"explore.emit.check.not-moved-back":        "订单版本从不回退",
	"explore.emit.check.not-applied-twice":     "没有事件被应用两次",
	"explore.emit.check.not-diverged":          "投影最终等于事实来源",
	"explore.emit.check.duplicate-not-refused": "已应用的事件从不被重试或进入死信",
	"explore.emit.check.exactly-once":          "每个键恰好生效一次",
	"explore.emit.check.replay-matches":        "重跑恰好重放恢复处与崩溃点之间的项",
	"explore.emit.check.never-back":            "检查点从不回退",
	"explore.emit.check.zombie-never-moves":    "僵尸的提交从不移动检查点",
	"explore.flag.engine":                      "如何遍历该范围：states（按故障序列共享的状态计数）或 enumerate（逐个运行每个故障序列）；报告相同",
	"explore.err.engine":                       "--engine 只能是 states 或 enumerate，得到 %q",
	"explore.err.engine-random":                "--random 逐个抽取故障序列：它用 --engine enumerate 运行，而不是 states",
	"explore.err.too-many-states":              "explore %s：该范围的状态超过 %s 个，超过状态引擎的上限",
	"explore.err.overflow":                     "explore %s：该范围的故障序列超过 2^64 个：计数放不下",
	"explore.rate.states":                      "%s：%s 个故障序列 × %d 个策略，%s 个状态，%s，并行 %d 路",
	"explore.err.no-states":                    "explore %s 没有状态图：每个故障序列都是书中 Runner.Run 的一次完整运行，没有两个故障序列共享可以只算一次的状态；它用 --engine enumerate 运行",
	// Issue 11: decimal numbers, exit status 3, the database checks and lock.
	"err.flag.decimal":         "%s 需要一个十进制整数，例如 10（不能以 0 开头，不能用 0x），收到 %q",
	"err.flag.decimal-range":   "%s 需要 %d 到 %d 之间的整数，收到 %q",
	"err.flag.decimal-range-u": "%s 需要 0 到 18446744073709551615 之间的整数，收到 %q",
	"err.flag.bool":            "%s 只能是 true 或 false，收到 %q",
	"explore.note.replacement": "注意：抽样是有放回的，同一个故障序列可能被计数多次；不加 --random 则 %s 个故障序列各走一遍",
	"err.output":               "无法写出结果：%v",
	"err.version.args":         "--version 不接受参数，收到 %q",
	"err.help.unknown":         "没有 %q 的帮助：请给出一个命令，例如 drill 或 explore",
	"explore.err.interrupted":  "已中断：探索在完成前停止，没有打印结果",
	"err.db.empty":             "--db 需要一个文件名，收到 %q；不加 --db 时每个演练使用临时数据库",
	"err.db.dash":              "--db 需要一个文件名，收到 %q，它会被当作选项；如确有此名的文件，请写 %q",
	"err.db.slash":             "--db 需要一个文件名，收到 %q，以“/”结尾表示目录",
	"err.db.nul":               "--db 需要一个文件名，收到 %q，其中含有 NUL 字节",
	"err.db.wrong-schema":      "--db %s 带有 archlab 的标记，但表结构不是 archlab 的（%s）；文件未被修改",
	"err.db.in-use":            "--db %s 正被另一个 archlab 运行占用（pid %d）；请等它结束，或换一个文件",
	"err.db.read-only":         "--db %s 无法写入（%v）；archlab 需要写这个文件，并在旁边创建 -wal、-shm 和 .lock 文件",
	"err.db.env":               "--db %s 无法使用：%v",
	"err.env.run":              "演练 %s 无法运行：%s",
}
