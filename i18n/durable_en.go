package i18n

// durableEN holds the words of the §8.2 durable inbox (harness/inbox_durable.go):
// the consumer's own table, its restart and its recovery.
var durableEN = map[string]string{
	"durable.step.store":           "stores %v in its inbox table",
	"durable.step.process":         "processes %v from its inbox table: the effect and the row done, one transaction",
	"durable.step.restart":         "the consumer restarts, its local store intact, and runs its recovery",
	"durable.step.crash-after-ack": "the consumer dies right after its ack",
	"res.stored":                   "stored",
	"durable.step.settle":          "before the books are read, the consumer's recovery runs once more",
	"res.recovering":               "recovering",
	"outbox.step.row":              "writes %v's outbox row for its call, in the same transaction",
	"lease.step.claim":             "claims %v's key with a lease",
	"lease.res.claimed":            "claimed: in progress",
	"lease.res.taken-over":         "its old lease had ended: taken over",
	"lease.res.completed":          "already completed: skip",
	"lease.step.complete":          "marks %v's key completed",
	"lease.res.completed-now":      "completed: the lease ends",
	"lease.step.expires":           "the lease on %v's key runs out while its holder is slow",
	"lease.res.expired":            "expired: another consumer may claim it",
	"outbox.res.row":               "committed with the effect",
	"state.reach.not-local":        "no distance to a broken end here: this handler keeps a table of its own (an inbox or an outbox), which the explorer's states have no bit for",
}
