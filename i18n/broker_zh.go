package i18n

// brokerZH is brokerEN in Chinese.
var brokerZH = map[string]string{
	"help.flag.broker":        "演练运行在哪个消息代理上：memory（书中的模型）、nats（NATS JetStream：§8.2 的演练）或 kafka（Kafka：§8.3 的演练）；除非用 --nats-url 或 --kafka-brokers 指定你自己的服务，否则使用内嵌服务",
	"help.flag.nats-url":      "配合 --broker nats：你自己的开启 JetStream 的 NATS 服务（nats://host:4222）；演练在其中创建并删除自己的 stream 和 consumer",
	"help.flag.kafka-brokers": "配合 --broker kafka：你自己的 Kafka 集群（host:port,…）；演练在其中创建并删除自己的 topic",

	"err.broker":                  "--broker 只能是 memory、nats 或 kafka，收到 %q",
	"err.broker.url-needs":        "%s 需要 --broker %s",
	"err.broker.section.hint":     "在它上面运行它那一节的演练：archlab drill --chapter %s --broker %s",
	"err.broker.section":          "--broker %s 不运行演练 %s（§%s）：--broker nats 运行 §8.2 的演练，--broker kafka 运行 §8.3 的演练，memory 运行全部演练",
	"err.broker.unreachable":      "无法连接 %s 消息代理 %s：%s",
	"err.interrupted.broker":      "已中断：演练的 stream 或 topic 已删除，内嵌服务已关闭",
	"err.broker.unreachable-hint": "去掉 --nats-url / --kafka-brokers 即可在内嵌服务上运行",
}
