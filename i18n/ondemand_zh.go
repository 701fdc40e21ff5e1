package i18n

// ondemandZH is ondemandEN in Chinese.
var ondemandZH = map[string]string{
	"ondemand.part.brokers": "NATS 和 Kafka 内嵌服务",
	"ondemand.part.sqlite":  "SQLite",
	"ondemand.part.web":     "网页服务",
	"ondemand.and":          "、",
	"ondemand.building":     "archlab: %s 需要以下部分：%s，日常运行用不到；现在为它构建 %s，只此一次（新克隆需要一两分钟）",
	"ondemand.rebuilding":   "archlab: 源码有改动，正在重新构建 %s",

	"err.ondemand.no-source":       "%s 需要以下部分：%s，这个 archlab 构建时没有包含，也找不到构建所需的源码：%v",
	"err.ondemand.no-go":           "%s 需要以下部分：%s，这个 archlab 构建时没有包含，而构建需要 go 命令，PATH 中没有",
	"err.ondemand.hint":            "请在克隆的仓库中运行（go run ./cmd/archlab …），或安装包含全部功能的 archlab：go install -tags %s ./cmd/archlab",
	"err.ondemand.no-cache":        "无法在用户缓存目录中保存包含以下部分的 archlab：%s：%v",
	"err.ondemand.build":           "构建 %s 失败：%v",
	"err.ondemand.not-own":         "archlab 不会运行保存在 %s 中的程序：%s",
	"err.ondemand.not-own.owner":   "这个文件夹属于另一个用户（uid %d；你是 uid %d）",
	"err.ondemand.not-own.mode":    "其他用户可以写入它（权限 %s）",
	"err.ondemand.not-own.not-dir": "它不是文件夹（是文件或链接）",
	"err.ondemand.not-own.hint":    "删掉它，或把 XDG_CACHE_HOME 设为只有你能写入的文件夹",
	"ondemand.damaged":             "archlab: %s 不是在那里构建的 archlab（被改动、被截短或不可执行）：重新构建",
	"err.ondemand.exec":            "无法运行 %s：%v",
	"err.interrupted.build":        "已中断：%s 的构建已停止，没有留下任何文件",

	"err.interrupted.dial":     "在连接 %s 消息代理时被中断：没有运行任何演练",
	"err.broker.nats-url":      "--nats-url 必须是 nats://host:port（也可以是 tls://、ws://、wss:// 或 host:port；多个用逗号分隔；服务需要时在主机前加 user:password@），收到 %q",
	"err.broker.kafka-brokers": "--kafka-brokers 必须是用逗号分隔的 host:port 地址，例如 localhost:9092，收到 %q",
	"cli.on-broker.embedded":   "消息代理：%s（内嵌）",
	"cli.on-broker.at":         "消息代理：%s，地址 %s",
	"ondemand.tick":            "正在构建 %s：",
	"ondemand.built":           "archlab: 构建完成，用时 %.1f 秒",
	"check.watch.tick":         "正在用 exercises/ 构建检查程序：",
}
