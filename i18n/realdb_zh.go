package i18n

// realdbZH is the Chinese of realdbEN (realdb_en.go): the same keys, the
// same arguments. SQL, SIGKILL, pid and COMMIT stay as they are written.
var realdbZH = map[string]string{
	// Trace.
	"actor.database":                    "数据库",
	"step.deliver-process":              "投递 %v（第 %d 次）给进程 %d",
	"step.sql":                          "%s",
	"step.sql-pid":                      "[pid %d] %s",
	"step.kill.before-ack":              "SIGKILL 进程 %d：COMMIT 后、确认前",
	"step.kill.between-mark-and-effect": "SIGKILL 进程 %d：去重键已提交，效果未执行",
	"step.kill.before-writes":           "SIGKILL 进程 %d：第一次写入之前",
	"step.kill.between-writes":          "SIGKILL 进程 %d：事务之中、COMMIT 之前",
	"res.sql-ok":                        "成功",
	"res.sql-rows":                      "%d 行",
	"res.killed":                        "%s；已回收",
	"res.ack-never-sent":                "未发出：进程已死（ErrAckLost）",
	"check.crash-real.killed":           "每次注入的崩溃都是对消费端进程的一次真实 SIGKILL",

	// Flags and help.
	"help.flag.store": "§8.2 消费端把去重键和余额存在哪里：memory（书中的 Ledger）或 sqlite（真实的 SQLite 文件）",
	"help.flag.db":    "配合 --store sqlite，把数据库保留在 `PATH`，可用 sqlite3 命令行查看（每次运行开始时清空）；不加 --db 则使用临时文件，运行后删除",
	"help.flag.crash": "model：崩溃在同一进程内模拟，与书中一致；real：每次投递交给一个独立的消费端进程，在注入点用 SIGKILL 杀死（需要 --store sqlite）",
	"help.drill.example-store": `  # 在真实的 SQLite 文件上运行 §8.2 的演练，消费端被 SIGKILL 杀死
  $ archlab drill --chapter 8.2 --store sqlite --crash real`,
	"help.example.sqlite":     "同一个演练跑在真实的 SQLite 文件上，时间线中显示 SQL",
	"help.example.crash-real": "消费端是独立进程，被 SIGKILL 杀死后重投给新进程",
	"help.example.db":         "保留数据库以便查看",
	"cli.db-kept":             "archlab: 数据库保留在 %s；可用以下命令查看：sqlite3 %s 'SELECT * FROM processed_keys'",

	// Errors: what was wrong and what is allowed.
	"err.store":               "--store 只能是 memory 或 sqlite，收到 %q",
	"err.crash":               "--crash 只能是 model 或 real，收到 %q",
	"err.crash-needs-store":   "--crash real 需要 --store sqlite：被杀死的进程只留下它提交到文件里的内容",
	"err.db-needs-store":      "--db 需要 --store sqlite",
	"err.db-one-drill":        "--db 只保留一个演练的数据库：请给出演练名称，而不是 %s",
	"err.store-no-drill":      "--store 和 --crash 只作用于 §8.2 的演练；第 %s 节没有这类演练",
	"err.db.directory":        "--db %s 是一个目录：请给出数据库文件的路径（不存在时会创建）",
	"err.db.unreadable":       "--db %s 无法读取（%v）；文件未被修改",
	"err.db.not-sqlite":       "--db %s 不是 SQLite 数据库；文件未被修改",
	"err.db.foreign":          "--db %s 中是其他应用的表，不是 archlab 的；文件未被修改",
	"err.db.newer":            "--db %s 的 archlab 模式版本为 %d，本 archlab 只认识版本 %d；文件未被修改",
	"err.db.open":             "--db %s 无法打开或创建（%v）",
	"err.crash-no-executable": "--crash real 以 archlab 自身作为消费端进程运行，但找不到它的可执行文件（%v）",
	"err.interrupted":         "已中断：消费端进程已被杀死并回收，临时文件已删除",
}
