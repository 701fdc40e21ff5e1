package i18n

// lessonsEN holds the words of the steps the lessons of issue 12 added to
// the harnesses: the outside call of §8.2's boundary and the order the
// source of truth does not know in §8.3's reconciliation.
var lessonsEN = map[string]string{
	"actor.notifier":        "notifier",
	"step.notify":           "calls the notifier for %v",
	"res.notified":          "notified (call %d)",
	"res.unknown-to-source": "not in the source of truth: skipped",

	// explore shardjob: the book has no takeover fence, and its own loop
	// is the one with the window.
	"explore.verdict.fence-at-takeover":     "%s with the lab's takeover fence",
	"explore.verdict.fence-at-first-commit": "%s: the book's Runner.Run leaves this window",
	"explore.summary.pass.shardjob":         "%d strategies, every verdict as expected: the book's loop has the window, the lab's fence closes it",
}
