package i18n

// ondemandEN holds the words of the parts archlab builds on first use
// (adapters/ondemand): the one line a first build prints, and what
// goes wrong when it cannot build. zh has exactly the same keys
// (ondemand_zh.go).
var ondemandEN = map[string]string{
	"ondemand.part.brokers": "the embedded NATS and Kafka servers",
	"ondemand.part.sqlite":  "SQLite",
	"ondemand.part.web":     "the web server",
	"ondemand.and":          " and ",
	"ondemand.building":     "archlab: %s needs %s, which everyday runs do without; building %s for it, once (a minute or two on a fresh clone)",
	"ondemand.rebuilding":   "archlab: the source changed: rebuilding %s",

	"err.ondemand.no-source":       "%s needs %s, which this archlab was built without, and the source to build them is not found: %v",
	"err.ondemand.no-go":           "%s needs %s, which this archlab was built without, and building them needs the go command, which is not on PATH",
	"err.ondemand.hint":            "run it from a clone (go run ./cmd/archlab …), or install archlab with everything: go install -tags %s ./cmd/archlab",
	"err.ondemand.no-cache":        "cannot keep an archlab with %s in the user's cache directory: %v",
	"err.ondemand.build":           "building %s failed: %v",
	"err.ondemand.not-own":         "archlab will not run a program kept in %s: %s",
	"err.ondemand.not-own.owner":   "the folder belongs to another user (uid %d; you are uid %d)",
	"err.ondemand.not-own.mode":    "others may write in it (mode %s)",
	"err.ondemand.not-own.not-dir": "it is not a folder (a file or a link)",
	"err.ondemand.not-own.hint":    "remove it, or set XDG_CACHE_HOME to a folder of your own that no one else may write",
	"ondemand.damaged":             "archlab: %s is not the archlab built there (changed, cut short or not executable): building it again",
	"err.ondemand.exec":            "cannot run %s: %v",
	"err.interrupted.build":        "interrupted: the build of %s stopped; nothing was left behind",

	"err.interrupted.dial":     "interrupted while reaching the %s broker: no drill ran",
	"err.broker.nats-url":      "--nats-url must be nats://host:port (or tls://, ws://, wss://, or host:port; several separated by commas; user:password@ before the host if the server wants it), got %q",
	"err.broker.kafka-brokers": "--kafka-brokers must list host:port addresses separated by commas, like localhost:9092, got %q",
	"cli.on-broker.embedded":   "on the broker: %s (embedded)",
	"cli.on-broker.at":         "on the broker: %s at %s",
	"ondemand.tick":            "building %s:",
	"ondemand.built":           "archlab: built in %.1f s",
	"check.watch.tick":         "building the checker from exercises/:",
}
