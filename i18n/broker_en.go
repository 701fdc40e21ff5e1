package i18n

// brokerEN holds the words of the drills on a real broker (--broker nats
// for §8.2, --broker kafka for §8.3): flags and errors. zh has exactly the
// same keys (broker_zh.go).
var brokerEN = map[string]string{
	"help.flag.broker":        "the broker the drills run on: memory (the book's model), nats (NATS JetStream: the §8.2 drills) or kafka (Kafka: the §8.3 drills); the server is embedded unless --nats-url or --kafka-brokers names your own",
	"help.flag.nats-url":      "with --broker nats: your NATS server with JetStream (nats://host:4222); the drill creates and deletes its own stream and consumers there",
	"help.flag.kafka-brokers": "with --broker kafka: your Kafka cluster (host:port,…); the drill creates and deletes its own topics there",

	"err.broker":                  "--broker must be memory, nats or kafka, got %q",
	"err.broker.url-needs":        "%s needs --broker %s",
	"err.broker.section.hint":     "its section's drills on it: archlab drill --chapter %s --broker %s",
	"err.broker.section":          "--broker %s does not run drill %s (§%s): --broker nats runs the §8.2 drills, --broker kafka the §8.3 drills, memory every drill",
	"err.broker.unreachable":      "cannot reach the %s broker at %s: %s",
	"err.interrupted.broker":      "interrupted: the drill's stream or topics deleted, the embedded server shut down",
	"err.broker.unreachable-hint": "leave out --nats-url / --kafka-brokers to run on the embedded server",
}
