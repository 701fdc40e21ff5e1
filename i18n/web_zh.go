package i18n

// webZH holds the words of archlab serve: the command and its page.
var webZH = map[string]string{
	"help.serve.short": "把演练作为网页提供，供投影使用",
	"help.serve.long": `serve 启动一个本地网页服务，按章节列出全部演练。演练页面运行演练，
并逐步画出时序图：用按钮，或用空格（播放/暂停）和方向键，翻页笔发送的正是这些键。
旁边是计数器与书中的值、要点、讲解和“假如”参数。页面还展示探索的结论，
每个反例都可以逐步查看，也可以粘贴演练文件直接运行。

所有资源都内嵌在程序里，离线可用。页面上的运行只用内存中的机制（没有 --db，
没有 --store sqlite）。除非 --addr 另行指定，只监听 127.0.0.1；按 Ctrl-C 停止。`,
	"help.serve.example": `  # 在 http://127.0.0.1:8017/ 提供页面
  $ archlab serve
  # 换一个端口，并打开浏览器
  $ archlab serve --addr 127.0.0.1:9000 --open`,
	"help.flag.addr":   "监听的 host:port；只有主机不是回环地址时，其他机器才能访问",
	"help.flag.open":   "用默认浏览器打开页面",
	"serve.listening":  "archlab serve: %s（按 Ctrl-C 停止）",
	"serve.public":     "警告：%s 不是回环地址，能访问这台机器的人都能使用这个页面",
	"serve.stopped":    "serve 已停止",
	"serve.no-open":    "archlab serve: 无法打开浏览器（%v），请自行打开 %s",
	"err.serve.addr":   "--addr 必须是 host:port，例如 127.0.0.1:8017，收到的是 %q",
	"err.serve.listen": "无法监听 %s：%v",

	"web.title":                 "archlab: 书中的故障，一步一步看",
	"web.nav.drills":            "演练",
	"web.nav.paste":             "粘贴演练文件",
	"web.lang.other":            "English",
	"web.index.head":            "按书的章节列出演练",
	"web.index.intro":           "打开一个演练即可运行：时序图逐步展开（空格播放，← → 单步），旁边是书中打印的计数器。",
	"web.lab":                   "实验",
	"web.explore.head":          "穷举每一种故障序列：explore",
	"web.explore.intro":         "在一个小范围内，让每种设计经历每一种故障序列；点击反例即可逐步查看。",
	"web.paste.head":            "运行演练文件",
	"web.paste.intro":           "粘贴一个演练文件（可用 archlab drill NAME --source 打印一个作为起点），最多 %d KiB。它按自己的默认参数在内存中运行。",
	"web.paste.run":             "运行文件",
	"web.play":                  "播放",
	"web.pause":                 "暂停",
	"web.step.of":               "共",
	"web.step.start":            "按 → 或空格开始。",
	"web.keys":                  "空格 播放/暂停 · ← → 单步 · Home End",
	"web.whatif.head":           "假如",
	"web.whatif.run":            "运行",
	"web.whatif.reset":          "恢复书中的值",
	"web.explain":               "要点、要读的代码、可以试试什么",
	"web.explore.broken":        "%s 出错：%s",
	"web.what-if":               "假如：%s",
	"web.key.space":             "空格",
	"web.err.number":            "--%s 必须是整数，收到的是 %q",
	"web.err.too-large":         "请求太大：演练文件最多 %d 字节",
	"web.err.form":              "无法读取表单：%v",
	"web.err.empty":             "请先粘贴演练文件：输入框是空的",
	"web.err.no-counterexample": "explore %s：策略 %q 没有反例",
	"web.err.host":              "archlab serve 不为主机 %q 提供页面：请用 http://127.0.0.1:PORT/ 或它监听的地址打开",
	"web.err.origin":            "archlab serve 拒绝来自其他网页的表单；请在本页面中提交",
	"web.err.busy":              "服务器正忙，或运行时间过长；请稍后再试",
}
