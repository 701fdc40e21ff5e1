package i18n

// lessonsZH is lessonsEN in Chinese.
var lessonsZH = map[string]string{
	"actor.notifier":        "通知服务",
	"step.notify":           "为 %v 调用通知服务",
	"res.notified":          "已通知（第 %d 次调用）",
	"res.unknown-to-source": "事实来源中没有它：跳过",

	"explore.verdict.fence-at-takeover":     "%s，靠本实验的接管围栏",
	"explore.verdict.fence-at-first-commit": "%s：书中的 Runner.Run 留下了这个窗口",
	"explore.summary.pass.shardjob":         "%d 个策略，结论全部符合预期：书中的循环有这个窗口，本实验的围栏把它关上",
}
