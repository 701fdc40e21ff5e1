package i18n

// durableZH is durableEN in Chinese.
var durableZH = map[string]string{
	"durable.step.store":           "把 %v 存入它的收件箱表",
	"durable.step.process":         "处理收件箱表中的 %v：效果与“已处理”标记在同一个事务里",
	"durable.step.restart":         "消费端重启，本地存储完好，运行它的恢复步骤",
	"durable.step.crash-after-ack": "消费端在确认之后立刻崩溃",
	"res.stored":                   "已存入",
	"durable.step.settle":          "核对账目之前，消费端的恢复步骤再运行一次",
	"res.recovering":               "恢复中",
	"outbox.step.row":              "在同一事务中写入 %v 的发件箱行，用于它的外部调用",
	"lease.step.claim":             "以租约认领 %v 的去重键",
	"lease.res.claimed":            "已认领：处理中",
	"lease.res.taken-over":         "旧租约已结束：接管",
	"lease.res.completed":          "已完成：跳过",
	"lease.step.complete":          "把 %v 的去重键标为已完成",
	"lease.res.completed-now":      "已完成：租约结束",
	"lease.step.expires":           "持有者还在慢慢处理，%v 的去重键上的租约到期",
	"lease.res.expired":            "已到期：别的消费端可以认领",
	"outbox.res.row":               "与效果一起提交",
	"state.reach.not-local":        "这里无法给出到出错结局的距离：这个处理函数维护着自己的表（收件箱或发件箱），探索器的状态里没有表示它的位",
}
