package i18n

// hostileEN holds the words of issue 37's defences: a state page's start
// too large, a request from another site, drill-file arguments that lie.
var hostileEN = map[string]string{
	"web.state.err.too-large": "a state page walks a world of at most %d keys, each of its steps replayed from the start; this one asks for more: its drill page runs it",
	"web.err.cross-site":      "this page runs a drill: it is served to this server's own pages and to links followed, not to another site's %s",
	"drill.student.no-result": "the student's code ended archlab's process before the drill was done: %s",
	"drill.student.printed":   "your code printed %s lines while the drill ran (shown apart from the run); the first %d:",
}
