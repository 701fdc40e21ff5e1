package i18n

// en is the English catalogue. Keys are grouped by where they appear; the
// zh catalogue has exactly the same keys (TestCatalogueComplete).
var en = map[string]string{
	// Sections of the book.
	"section.8.2":  "Chapter 8 §8.2 Consumer idempotency, the dedup table and the real boundary of exactly-once",
	"section.8.3":  "Chapter 8 §8.3 Message order, replay and dead letters: the reconciliation loop",
	"section.11.2": "Chapter 11 §11.2 Job sharding, idempotent reruns and progress checkpoints",

	// Drill titles (one line each).

	// Flag help for drill parameters.

	// Phases of a drill, as --step shows them.
	"phase.setup":    "setup",
	"phase.fault":    "the fault",
	"phase.recovery": "recovery",
	"phase.verdict":  "verdict",
	"phase.damage":   "the harm",

	// Actors of the timeline.
	"actor.broker":       "broker",
	"actor.consumer":     "consumer",
	"actor.ledger":       "ledger",
	"actor.reader":       "reader",
	"actor.janitor":      "janitor",
	"actor.router":       "router",
	"actor.partitions":   "partitions",
	"actor.group":        "consumer group",
	"actor.projection":   "projection",
	"actor.dlq":          "DLQ",
	"actor.reconciler":   "reconciler",
	"actor.producer":     "producer",
	"actor.log":          "log",
	"actor.rebuilder":    "rebuilder",
	"actor.splitter":     "splitter",
	"actor.worker":       "worker",
	"actor.worker-e1":    "worker e1",
	"actor.worker-e2":    "worker e2",
	"actor.checkpoint":   "checkpoint",
	"actor.sink":         "sink",
	"actor.worker-epoch": "worker e%s",
	"actor.shard":        "shard %s",
	"actor.shards":       "shards",

	// Timeline actions.
	"step.deliver":             "delivers %v (attempt %d)",
	"step.deliver-again":       "delivers %v again, a duplicate (attempt %d)",
	"step.ack":                 "acks %v",
	"step.apply-once":          "ApplyOnce %v: key + effect, one local transaction",
	"step.naive-apply":         "NaiveApply %v",
	"step.mark":                "Mark %v: write 1 of 2, the key",
	"step.crash-before-effect": "crashes before the effect",
	"step.read-balance":        "reads the balance of %s",
	"step.prune":               "prunes dedup keys with seq <= %d",
	"step.route":               "routes %s",
	"step.restart":             "restarts and rebalances",
	"step.reroute-all":         "routes all %d orders again",
	"step.count-partitions":    "counts the partitions in use",
	"step.project":             "applies %v",
	"step.dead-letter":         "dead-letters %v",
	"step.read-state":          "reads the row of %s",
	"step.repair":              "checks %s against the source",
	"step.append":              "appends %v",
	"step.replay-from":         "replays from %d (batch %d)",
	"step.resume-from":         "resumes from stale offset %d",
	"step.read":                "NextBatch(offset %d, size %d)",
	"step.assign":              "assigns keys by FNV-1a",
	"step.split":               "splits %d keys into %d shards",
	"res.split-refused":        "refused: shards must be positive, got %d",
	"step.crash":               "crashes after %d items",
	"step.crash.one":           "crashes after %d item",
	"step.resume":              "reruns from checkpoint %d",
	"step.run":                 "runs the shard",
	"step.commit":              "commits %s at %d",
	"step.commits":             "commits %s at %d … %d",
	"step.count-effects":       "counts the effects",
	"step.run-epoch":           "runs under lease epoch %d",
	"step.fence":               "fences: epoch %d from %d",
	"step.stall":               "stalls after %d items",
	"step.take-over":           "epoch %d takes over at %d",

	// Timeline results.
	"res.received":                  "received",
	"res.acked":                     "acked",
	"res.ack-lost":                  "lost (ErrAckLost)",
	"res.applied":                   "applied, balance %d",
	"res.duplicate":                 "duplicate key, suppressed",
	"res.applied-again":             "applied again (+%d), balance %d",
	"res.balance":                   "balance %d, effects %d",
	"res.marked":                    "key recorded",
	"res.crashed":                   "crashed (%s)",
	"res.taken-for-duplicate":       "key found: dropped as duplicate, nothing applied",
	"res.partition":                 "partition %d",
	"res.partition-moved":           "moved from partition %d to %d",
	"res.restarted":                 "every order is routed again",
	"res.moved":                     "%d moved",
	"res.used":                      "%d of %d partitions used",
	"res.outcome.applied":           "applied, now %v",
	"res.outcome.duplicate":         "duplicate, still %v",
	"res.outcome.duplicate-retried": "retried, though it is a duplicate: the order is already at %v",
	"res.outcome.duplicate-dead":    "dead-lettered, though it is a duplicate: the order is already at %v",
	"res.outcome.dead":              "dead at attempt %d",
	"res.state":                     "%v (%d events applied to the projection, all orders)",
	"res.repaired":                  "repaired %v -> %v",
	"res.log-length":                "log length %d",
	"res.replayed":                  "applied %d, duplicates %d, offset %d",
	"res.err":                       "rejected (%v)",
	"res.drained":                   "no events: drained at %d",
	"res.keys":                      "%d keys",
	"res.checkpoint-at":             "checkpoint still at %d",
	"res.rerun":                     "applied %d, suppressed %d",
	"res.committed":                 "committed",
	"res.commits":                   "%d commits",
	"res.effects":                   "applied %d, suppressed %d",
	"res.lease-expired":             "lease expired (checkpoint %d)",

	// Lesson checks: each holds for any parameters.

	// The command: table columns, verdicts, summaries.
	"cli.col.counter":          "counter",
	"cli.col.value":            "value",
	"cli.col.book":             "book",
	"cli.col.lab":              "lab",
	"cli.col.section":          "section",
	"cli.col.drill":            "drill",
	"cli.col.drill-file":       "drill, file",
	"cli.col.result":           "result",
	"cli.col.counters":         "counters",
	"cli.verdict.book":         "%s: %d counters match the book, %d/%d lessons hold",
	"cli.verdict.lab":          "%s: %d counters match the lab's expectation (the book prints none), %d/%d lessons hold",
	"cli.verdict.not-compared": "%s: parameters differ from the book's, so its %d counters are not compared; %d/%d lessons hold",
	"cli.fail.counter":         "%s: %s is %s, the book prints %s",
	"cli.fail.check":           "%s: lesson does not hold: %s",
	"cli.fail.error":           "%s: the mechanism failed: %v",
	"cli.fail.missing":         "%s: a counter the book prints was not produced",
	"cli.summary":              "%d drills, %d pass, %d fail",
	"cli.step.press-enter":     "press Enter for %s, q to stop ",
	"cli.step.next-drill":      "press Enter for the next drill, %s; q for the summary ",
	"cli.step.stopped":         "stopped: the counters, the checks and the verdict come at the end; run it again to see them",
	"cli.step.no-terminal":     "--step pauses only with a terminal on stdin and stdout: the timeline follows without pauses",
	"cli.step.interrupted":     "interrupted (Ctrl-C)",

	// Errors: what was wrong and what is allowed.
	"err.flag.unknown":          "unknown flag: %s",
	"err.flag.needs-value":      "flag %s needs a value",
	"err.flag.not-a-number":     "%s takes a whole number, got %q",
	"err.flag.invalid":          "%s cannot be %q",
	"err.lang":                  "--lang must be zh or en, got %q",
	"err.unknown-command":       "unknown command %q for %q",
	"err.unknown-drill":         "unknown drill %q",
	"err.hint.did-you-mean":     "did you mean: %s?",
	"err.hint.help":             "run '%s --help' for usage",
	"err.hint.list":             "run 'archlab list' to see every drill",
	"err.drill.nothing":         "drill needs a drill name, --all or --chapter",
	"err.drill.args":            "drill %s takes no arguments, got %q",
	"err.drill.name-and-all":    "give a drill name or %[2]s, not both (got %[1]s and %[2]s)",
	"err.drill.all-and-chapter": "give --all or --chapter, not both",
	"err.drill.formats":         "choose one output: --json, --mermaid, or the table (with --trace or --step)",
	"err.chapter":               "unknown section %q: valid sections are %s",
	"err.param.min":             "--%s must be at least %d, got %d",
	"err.param.range":           "--%s must be between %d and %d, got %d",
	"err.param.why":             "%s (%s)",
	"err.mismatch":              "%d drill(s) disagree with the book (%s): %s",
	"err.mismatch.one":          "%[1]d drill disagrees with the book (%[2]s): %[3]s",
	"err.explain.args":          "explain takes exactly one drill name, got %d arguments",

	// Help text.
	"help.root.short": "A lab for the book's distributed data consistency mechanisms",
	"help.root.long": `archlab accompanies the book 《后端架构设计·分布式与数据一致性》. Each drill
builds one of the book's in-memory mechanisms, injects the failure the book
describes (a crash, a lost ack, a pruned dedup key, a poison or out-of-order
event, a zombie worker) and prints the counters the book prints.

Exit status:
  0    every drill (or explored strategy) agrees with the book
  1    a drill disagrees with the book
  2    a usage error: bad input, said in one line with what is allowed
  3    could not run: a read-only, locked or busy database, a full disk, a write error on stdout (a closed pipe stays quiet)
  130  interrupted (Ctrl-C); 143 terminated (SIGTERM)`,
	"help.root.example": `  # every drill, as CI runs it
  $ archlab drill --all
  # one drill with its timeline
  $ archlab drill ack-lost --trace
  # the drills of one section, in Chinese
  $ archlab drill --chapter 8.3 --lang zh
  # the lesson behind a drill
  $ archlab explain crash-resume`,
	"help.drill.short": "Run one drill, every drill (--all) or one section's (--chapter)",
	"help.drill.long": `Run a drill of the book and compare its counters with the book's.

With a name, runs that drill and prints a table: counter, value, what the
book prints, and a mark. With --all (or --chapter 8.2|8.3|11.2) runs every
drill (of that section) with the book's parameters and prints a summary.
Drill flags change the scenario ("what if"); such a run is not compared with
the book, but its lessons are still checked.`,
	"help.drill.example": `  # every drill, the regression check
  $ archlab drill --all
  # one section
  $ archlab drill --chapter 11.2
  # one drill with its timeline
  $ archlab drill ack-lost --trace
  # the timeline as a Mermaid diagram for slides
  $ archlab drill ack-lost --mermaid > ack-lost.mmd
  # machine-readable
  $ archlab drill --all --json`,
	"help.drill.book-counters": "The book prints: %s",
	"help.drill.lab-counters":  "The book's code implies this drill but its log prints nothing; these counters are the lab's, not the book's: %s",
	"help.drill.params":        "Changing a flag from its default runs a \"what if\": the counters are not compared with the book, the lessons are still checked.",
	"help.example.book":        "the book's scenario",
	"help.example.trace":       "with the timeline of every step",
	"help.example.what-if":     "what if: change the scenario",
	"help.flag.all":            "run every drill in book order",
	"help.flag.chapter":        "run the drills of one section (%s)",
	"help.flag.json":           "print JSON instead of tables",
	"help.flag.list-json":      "print the sections and their drills as JSON: names, titles, the book's counters, the parameters",
	"help.flag.trace":          "print the timeline of every step before the table",
	"help.flag.mermaid":        "print the steps as a Mermaid sequence diagram",
	"help.flag.step":           "like --trace, pausing for Enter between phases (on a terminal)",
	"help.flag.lang":           "language: zh or en (default from LC_ALL, LC_MESSAGES, LANG)",
	"help.flag.no-color":       "never colour the output (NO_COLOR works too)",
	"help.flag.version":        "print the version",
	"help.flag.help":           "help for this command",
	"help.list.short":          "List the drills by section of the book",
	"help.list.example":        "  # every drill with its one-line title\n  $ archlab list",
	"help.explain.short":       "Explain the lesson behind a drill",
	"help.explain.example":     "  # what crash-resume teaches and what to try next\n  $ archlab explain crash-resume",
	"help.head.usage":          "Usage:",
	"help.head.aliases":        "Aliases:",
	"help.head.examples":       "Examples:",
	"help.head.commands":       "Available Commands:",
	"help.head.flags":          "Flags:",
	"help.head.global-flags":   "Global Flags:",
	"help.more":                "Use \"%s [command] --help\" for more information about a command.",
	"help.flags-word":          "[flags]",
	"help.command-word":        "[command]",
	"help.flag.default":        " (default %s)",
	"help.type.string":         "string",
	"help.type.int":            "int",
	"help.type.uint":           "uint",
	"help.type.duration":       "duration",
	"err.args.none":            "%s takes no arguments, got %q",
	"err.os.not-exist":         "no such file or directory",
	"err.os.permission":        "permission denied",
	"err.os.is-dir":            "is a directory",
	"err.os.not-dir":           "a part of the path is not a directory",
	"time.seconds":             "%ss",
	"time.milliseconds":        "%sms",
	"time.microseconds":        "%sµs",
	"help.completion.short":    "Print a shell completion script (bash, zsh, fish, powershell)",
	"help.completion.long": `Print the script that lets your shell complete archlab's commands, drill
names and flag values with Tab. See each shell's help for how to load it:

  archlab completion bash --help`,
	"help.completion.shell.short": "Print the completion script for %s",
	"help.completion.bash.long": `Print the completion script for bash. It needs the bash-completion package.

To load it in the current shell:

  source <(archlab completion bash)

To load it in every new shell (Linux):

  archlab completion bash > /etc/bash_completion.d/archlab

On macOS with Homebrew:

  archlab completion bash > $(brew --prefix)/etc/bash_completion.d/archlab`,
	"help.completion.zsh.long": `Print the completion script for zsh. If completion is not enabled yet, add
this line to ~/.zshrc once:

  autoload -U compinit; compinit

To load it in the current shell:

  source <(archlab completion zsh)

To load it in every new shell, write it to a folder of your $fpath:

  archlab completion zsh > "${fpath[1]}/_archlab"`,
	"help.completion.fish.long": `Print the completion script for fish.

To load it in the current shell:

  archlab completion fish | source

To load it in every new shell:

  archlab completion fish > ~/.config/fish/completions/archlab.fish`,
	"help.completion.powershell.long": `Print the completion script for PowerShell.

To load it in the current shell:

  archlab completion powershell | Out-String | Invoke-Expression

To load it in every new shell, add that line to your PowerShell profile.`,
	"help.flag.no-descriptions": "complete without a description beside each value",
	"err.completion.shell":      "completion needs a shell: bash, zsh, fish or powershell",
	"help.help.short":           "Help about any command",
	"help.version.short":        "Print the version",

	// explore: every fault schedule of a small scope (archlab explore).
	// Strategy, invariant and fault names stay in English: they are the
	// lab's identifiers, also in --json.
	"explore.help.short": "Run every fault schedule of a small scope on the real mechanism",
	"explore.help.long": `A drill shows the one schedule the book picked. explore runs every schedule
of a small scope (every delivery order, crash point, lost ack and replay up to
a bound) on the real mechanism, checks the section's invariants after each one
and prints, per strategy, how many schedules break them and the shortest one
that does. The safe design must show no violation, each unsafe design at least
one, found by the enumeration, not scripted.

Counts are exact and the same on every machine and for any --workers. --random
samples a scope too large to enumerate, reproducibly by --seed. The rate goes
to stderr, with a progress bar when a run takes more than a second.

Exit status: 0 when every verdict is as the book teaches, 1 otherwise, 2 for a
usage error.`,
	"explore.help.example": `  # is effect-then-ack safe under every crash, lost ack and replay?
  $ archlab explore inbox
  # the same, with each shortest counterexample step by step
  $ archlab explore inbox --show
  # naive's shortest counterexample as a drill file, replayed by drill --file
  $ archlab explore inbox naive --emit > naive.txtar
  # every delivery order of one order's events, with a poison event
  $ archlab explore ordering --poison
  # replay cost against commit interval, and the zombie worker
  $ archlab explore shardjob
  # a scope too large to enumerate: sample it
  $ archlab explore inbox --messages 6 --faults 4 --random 100000 --seed 1`,
	"explore.help.inbox.short": "§8.2: naive, mark-before-effect, effect-then-ack and early-prune under every schedule",
	"explore.help.inbox.long": `Messages from two producers (the first two share the event ID evt-1) go
through an at-least-once broker that redelivers anything unacked, in any order.
Each delivery succeeds or meets one fault of §8.2's table:
%s
A schedule holds at most --faults faults. Every strategy runs every schedule
through the §8.2 harness: the book's own handler, with the fault injected
around the store and the ack store it is handed; afterwards each message must
have been applied exactly once: not lost, not doubled.`,
	"explore.help.inbox.example": `  # the default scope: 3 messages, up to 2 faults
  $ archlab explore inbox
  # why mark-before-effect loses a message, step by step
  $ archlab explore inbox mark-before-effect --show
  # the same schedule as a drill file, and its replay
  $ archlab explore inbox mark-before-effect --emit > mbe.txtar
  $ archlab drill --file mbe.txtar
  # every unsafe strategy's drill file, one after another
  $ archlab explore inbox --emit
  # a wider scope
  $ archlab explore inbox --messages 4 --faults 3`,
	"explore.help.ordering.short": "§8.3: every delivery order of an order's events, per retry budget",
	"explore.help.ordering.long": `One order's events (reserve v1, pay v2, fulfill v3) arrive in every order,
with up to --duplicates extra deliveries and, with --poison, one poison event.
A conflict is requeued at the back until --max-attempts; every budget from 1 up
faces every order. Invariants: the version never moves back, no event is
applied twice, and the projection ends equal to the source of truth. The
retry-budget table counts, per budget, the orders that converge by retry alone
and the ones that need the DLQ and Reconcile.`,
	"explore.help.ordering.example": `  # the default scope: up to 2 duplicates, budgets 1 to 3
  $ archlab explore ordering
  # with a poison event, budgets up to 5
  $ archlab explore ordering --poison --max-attempts 5
  # retry-only's shortest counterexample as a drill file
  $ archlab explore ordering retry-only --emit > retry-only.txtar`,
	"explore.help.shardjob.short": "§11.2: every crash point, commit interval and zombie commit of one shard",
	"explore.help.shardjob.long": `One shard of --keys items is worked under lease epoch 1, committing every C
items, and crashes right after K items, before their commit (or not at all).
A new owner takes the lease under epoch 2 and reruns from the checkpoint,
while the crashed worker, now a zombie, commits the offset it reached right
after the owner's first call to the checkpoint or after one of its commits.
Every C, K and zombie step is a schedule. A schedule counts as a violation
only where something is harmed: a key applied twice or never, the checkpoint
moved back, a zombie moving the checkpoint, or a rerun replaying other than
the items between where it resumed and the crash. The chart shows what a
commit interval costs: commits per run against items replayed after a crash.`,
	"explore.help.shardjob.example": `  # the default scope: 30 keys
  $ archlab explore shardjob
  # the zombie's window, step by step
  $ archlab explore shardjob --show
  # the zombie's window as a drill file
  $ archlab explore shardjob fence-at-first-commit --emit > zombie.txtar`,
	"explore.flag.show":         "print each shortest counterexample as a step-by-step trace",
	"explore.flag.random":       "sample this many schedules at random instead of enumerating (0: every schedule)",
	"explore.flag.seed":         "seed of --random: the same seed draws the same sample",
	"explore.flag.workers":      "workers running schedules (0: one per core); results do not depend on it",
	"explore.flag.messages":     "messages, from two producers that share event IDs",
	"explore.flag.faults":       "faults per schedule, at most (the faults: archlab drill --verbs 8.2)",
	"explore.flag.notify":       "m1's handler also calls a service outside the local store (a notification): the report counts where each strategy made that call twice or more, and never",
	"explore.outside.head":      "m1's call outside the local store, which no transaction covers:",
	"explore.outside.row":       "twice or more in %s schedules, never in %s",
	"explore.outside.lesson":    "Exactly-once ends at the store: the dedup key guards the payment, not the call, so every strategy calls again on a delivery that gets that far, the safe one too. The other side must deduplicate by the message's key.",
	"explore.flag.duplicates":   "extra deliveries of the three events, at most",
	"explore.flag.poison":       "add one poison event to every delivery order",
	"explore.flag.max-attempts": "retry budgets to explore: every budget from 1 to this",
	"explore.flag.keys":         "items in the shard",

	"explore.err.unknown":             "unknown mechanism %q: explore knows %s",
	"explore.err.nothing":             "explore needs a mechanism: %s",
	"explore.err.args":                "explore %s takes at most one STRATEGY, got %q",
	"explore.err.formats":             "choose one output: --json, or the tables (with --show)",
	"explore.err.seed-without-random": "--seed only applies to a sample: give --random too",
	"explore.err.hint.random":         "sample the scope instead, e.g. --random 100000 --seed 1",
	"explore.err.too-large":           "explore %s: the scope has %s schedules, more than the %s it enumerates",
	"explore.err.drift":               "explore %s: %s does not behave as the book's code (has internal/ changed?): %v",
	"explore.err.mismatch":            "%d verdict(s) of explore %s are not the book's: %s",
	"explore.err.mismatch.one":        "%[1]d verdict of explore %[2]s is not the book's: %[3]s",

	"explore.rate":                    "%s: %s schedules × %d strategies, %s, workers=%d, %s/s",
	"explore.progress":                "explore %s",
	"explore.progress.unit.schedules": "schedules",
	"explore.progress.unit.states":    "states",
	"explore.header.exhaustive":       "every schedule of the scope: %s schedules (%s)",
	"explore.header.sampled":          "a random sample of %s of %s schedules (%s), seed %d",
	"explore.rerun":                   "rerun: %s",
	"explore.legend.messages":         "messages: %s",
	"explore.legend.ordering":         "moved-back: a version went down · applied-twice: one version applied twice\ndiverged: the projection ended unlike the source of truth · duplicate-refused: an event already applied was retried or dead-lettered",
	"explore.legend.shardjob":         "not-exactly-once: some key applied 0 or 2+ times · moved-back: the checkpoint went down\nreplay-mismatch: replayed items ≠ crash point − resume offset · zombie-moved: a zombie's commit changed the checkpoint",

	"explore.col.strategy":     "strategy",
	"explore.col.schedules":    "schedules",
	"explore.col.violations":   "violations",
	"explore.col.verdict":      "verdict",
	"explore.col.shortest":     "shortest counterexample",
	"explore.col.max-attempts": "max-attempts",
	"explore.col.by-retry":     "converged by retry",
	"explore.col.reconciled":   "needed DLQ + Reconcile",
	"explore.col.deliveries":   "mean deliveries per order",

	"explore.book.safe":           "safe",
	"explore.book.unsafe":         "unsafe",
	"explore.verdict.as-the-book": "%s, as the book teaches",
	"explore.verdict.contradicts": "contradicts the book (%s)",
	"explore.verdict.not-found":   "%s, but this sample found no failing schedule",
	"explore.budget.title":        "retry budget: how each delivery order ends, for retry-then-reconcile",
	"explore.chart.title":         "replay cost against commit interval (fence-at-takeover, a crash after every K)",
	"explore.chart.col.interval":  "commit-every",
	"explore.chart.col.commits":   "commits per clean run",
	"explore.chart.col.replay":    "items replayed after a crash",
	"explore.chart.replay":        "%.1f (max %d)",
	"explore.summary.pass":        "%d strategies, every verdict as the book teaches",
	"explore.summary.fail":        "%d of %d verdicts are not the book's",
	"explore.show.title":          "shortest counterexample, schedule #%d, breaks %s",

	// explore's trace steps; the rest are the drills' own.
	"explore.step.crash-before":    "crashes before its first write",
	"explore.step.crash-in-write":  "crashes inside %s: nothing commits",
	"explore.step.crash-after":     "crashes after its writes, before the ack",
	"explore.step.effects-of":      "reads %s, paid by %v",
	"explore.step.compare-source":  "compares with the source of truth, %v",
	"explore.step.read-checkpoint": "reads the checkpoint of %s",
	"explore.res.once":             "balance %d: applied once",
	"explore.res.lost":             "balance %d: lost, never applied",
	"explore.res.doubled":          "balance %d: applied %d times",
	"explore.res.no-repair":        "nothing to repair",
	"explore.res.matches":          "equal",
	"explore.res.diverged":         "diverged: still %v",
	"explore.res.checkpoint":       "offset %d, epoch %d",

	// explore's counterexamples in one line, and as drill files (--emit).
	"explore.line":                      "%s ⇒ %s",
	"explore.line.sep":                  ", ",
	"explore.outcome.lost":              "m%d lost",
	"explore.outcome.doubled":           "m%d applied %d×",
	"explore.outcome.diverged":          "%v, source %v",
	"explore.outcome.moved-back":        "version moved back",
	"explore.outcome.applied-twice":     "an event applied twice",
	"explore.outcome.duplicate-refused": "a duplicate retried or dead-lettered",
	"explore.outcome.dlq":               "dlq %d",
	"explore.outcome.zombie-moved":      "a zombie moved the checkpoint %d → %d",
	"explore.outcome.replay-mismatch":   "replayed %d, not %d−%d",
	"explore.outcome.checkpoint-back":   "checkpoint moved back",
	"explore.outcome.not-exactly-once":  "applied %d of %d keys",
	"explore.outcome.ok":                "ok",
	"explore.flag.emit":                 "print the shortest counterexample(s) as drill files (txtar) for archlab drill --file, and nothing else",
	"explore.help.strategy": `A STRATEGY argument picks one strategy's shortest counterexample for
--show or --emit. --emit prints counterexamples as drill files instead of the
tables: the harness's verbs, the counters the run gave and one check per
invariant, so that archlab drill --file replays the file to the same
violation. Without a STRATEGY --emit prints every unsafe strategy's file, one
after another; name a strategy to save exactly one.`,
	"explore.err.emit-json":         "choose one output: --json or --emit",
	"explore.err.strategy":          "explore %s has no strategy %q: it has %s",
	"explore.err.strategy-alone":    "a STRATEGY argument picks a counterexample for --show or --emit: give one of them",
	"explore.err.no-counterexample": "%s has no counterexample in this scope: nothing to emit",
	"explore.err.hint.unsafe":       "the unsafe strategies here are %s",
	"explore.emit.comment": `The shortest schedule of "archlab explore %[1]s" (%[2]s) that breaks %[3]s:
schedule #%[4]d, %[5]s.
Replay it with "archlab drill --file %[6]s.txtar": it passes when the
replay breaks the same invariants (its "shows" checks, marked ◆) and keeps
every other one.`,
	"explore.emit.comment.fails": `The shortest schedule of "archlab explore %[1]s" (%[2]s) that breaks %[3]s:
schedule #%[4]d, %[5]s.
Replay it with "archlab drill --file %[6]s.txtar": the checks of the broken
invariants fail, every other check passes.`,
	"explore.emit.broken":                      "broken, as explore found and the book teaches: %s",
	"explore.emit.title":                       "the shortest schedule that breaks %s",
	"explore.emit.check.not-lost":              "no message is lost",
	"explore.emit.check.not-doubled":           "no message is applied twice",
	"explore.emit.check.not-moved-back":        "the order's version never moves back",
	"explore.emit.check.not-applied-twice":     "no event is applied twice",
	"explore.emit.check.not-diverged":          "the projection ends equal to the source of truth",
	"explore.emit.check.duplicate-not-refused": "an event already applied is never retried or dead-lettered",
	"explore.emit.check.exactly-once":          "every key is applied exactly once",
	"explore.emit.check.replay-matches":        "the rerun replays the items between where it resumed and the crash",
	"explore.emit.check.never-back":            "the checkpoint never moves back",
	"explore.emit.check.zombie-never-moves":    "no zombie commit moves the checkpoint",
	"explore.flag.engine":                      "how to walk the scope: states (count schedules through the states they share) or enumerate (run every schedule); the report is the same",
	"explore.err.engine":                       "--engine must be states or enumerate, got %q",
	"explore.err.engine-random":                "--random draws schedules one by one: it runs with --engine enumerate, not states",
	"explore.err.too-many-states":              "explore %s: the scope has more than %s states, the most the state engine keeps",
	"explore.err.overflow":                     "explore %s: the scope has more than 2^64 schedules: its counts do not fit",
	"explore.rate.states":                      "%s: %s schedules × %d strategies, %s states, %s, workers=%d",
	"explore.err.no-states":                    "explore %s has no state graph: each schedule is one pass of the book's Runner.Run, so no two share a state to count once; it runs with --engine enumerate",
	// Issue 11: decimal numbers, exit status 3, the database checks and lock.
	"err.flag.decimal":         "%s takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got %q",
	"err.flag.decimal-range":   "%s takes a whole number from %d to %d, got %q",
	"err.flag.decimal-range-u": "%s takes a whole number from 0 to 18446744073709551615, got %q",
	"err.flag.bool":            "%s takes true or false, got %q",
	"explore.note.replacement": "note: schedules are drawn with replacement, so a schedule may be counted more than once; without --random each of the %s is walked once",
	"err.output":               "cannot write the output: %v",
	"err.version.args":         "--version takes no arguments, got %q",
	"err.help.unknown":         "no help topic for %q: give a command, such as drill or explore",
	"explore.err.interrupted":  "interrupted: the exploration stopped before it finished; nothing was printed",
	"err.db.empty":             "--db needs a file name, got %q; without --db each drill gets a temporary database",
	"err.db.dash":              "--db takes a file name, got %q, which reads as a flag; for a file of that name write %q",
	"err.db.slash":             "--db takes a file name, got %q, which ends in '/' and so names a directory",
	"err.db.nul":               "--db takes a file name, got %q, which holds a NUL byte",
	"err.db.wrong-schema":      "--db %s is marked as archlab's, but its tables are not archlab's (%s); the file was not modified",
	"err.db.in-use":            "--db %s is in use by another archlab run (pid %d); wait for it to end, or give another file",
	"err.db.read-only":         "--db %s cannot be written (%v); archlab writes the file and creates its -wal, -shm and .lock files beside it",
	"err.db.env":               "--db %s could not be used: %v",
	"err.env.run":              "drill %s could not run: %s",
}
