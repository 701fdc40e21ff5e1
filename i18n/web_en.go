package i18n

// webEN holds the words of archlab serve: the command and its page.
var webEN = map[string]string{
	"help.serve.short": "Serve the drills as a web page for the projector",
	"help.serve.long": `serve starts a local web server with every drill by section. A drill's
page runs it and grows its sequence diagram one step at a time: the
buttons, or Space (play/pause) and the arrow keys, which a presenter's
clicker sends. Beside it: the counters with the book's column, the lesson
checks, the explanation and the "what if" parameters. It also shows the
explorer's verdicts, each counterexample as a step-through, and runs a
drill file pasted into the page.

Everything is embedded: it works offline. Runs from the page use the
in-memory mechanisms only (no --db, no --store sqlite). It listens on
127.0.0.1 unless --addr says otherwise; Ctrl-C stops it.`,
	"help.serve.example": `  # serve on http://127.0.0.1:8017/
  $ archlab serve
  # another port, and open the browser
  $ archlab serve --addr 127.0.0.1:9000 --open`,
	"help.flag.addr":   "host:port to listen on; other machines can reach it only if the host is not loopback",
	"help.flag.open":   "open the page in the default browser",
	"serve.listening":  "archlab serve: %s (Ctrl-C stops it)",
	"serve.public":     "warning: %s is not a loopback address: anyone who can reach this machine can use the page",
	"serve.stopped":    "serve stopped",
	"serve.no-open":    "archlab serve: cannot open a browser (%v); open %s yourself",
	"err.serve.addr":   "--addr must be host:port, like 127.0.0.1:8017, got %q",
	"err.serve.listen": "cannot listen on %s: %v",

	"web.title":                 "archlab: the book's failures, step by step",
	"web.nav.drills":            "drills",
	"web.nav.paste":             "paste a drill file",
	"web.lang.other":            "中文",
	"web.index.head":            "The drills, by section of the book",
	"web.index.intro":           "Open a drill to run it: its sequence diagram grows one step at a time (Space plays, ← → step), beside the counters the book prints.",
	"web.lab":                   "lab",
	"web.explore.head":          "Every fault schedule: explore",
	"web.explore.intro":         "Each design under every schedule of a small scope; click a counterexample to step through it.",
	"web.paste.head":            "Run a drill file",
	"web.paste.intro":           "Paste a drill file (archlab drill NAME --source prints one to start from), at most %d KiB. It runs with its own defaults, in memory.",
	"web.paste.run":             "Run the file",
	"web.play":                  "play",
	"web.pause":                 "pause",
	"web.step.of":               "of",
	"web.step.start":            "Press → or Space to start.",
	"web.keys":                  "Space play/pause · ← → step · Home End",
	"web.whatif.head":           "What if",
	"web.whatif.run":            "Run",
	"web.whatif.reset":          "the book's values",
	"web.explain":               "The lesson, the code to read, what to try",
	"web.explore.broken":        "%s breaks: %s",
	"web.what-if":               "what if: %s",
	"web.key.space":             "Space",
	"web.err.number":            "--%s must be a whole number, got %q",
	"web.err.too-large":         "the request is too large: a drill file holds at most %d bytes",
	"web.err.form":              "cannot read the form: %v",
	"web.err.empty":             "paste a drill file first: the field is empty",
	"web.err.no-counterexample": "explore %s: strategy %q has no counterexample",
	"web.err.host":              "archlab serve does not answer for the host %q: open it as http://127.0.0.1:PORT/ or by the address it listens on",
	"web.err.origin":            "archlab serve refuses a form sent from another web page; use the page itself",
	"web.err.busy":              "the server is busy, or the run took too long; try again",
}
