// Package report is check's report in each format: text for people
// (text.go), --json (json.go), Exercism's results.json (exercism.go), and
// the graduated hints with their count (hints.go). It lays out what check
// found, in the reader's language, with the terminal's rendering (ui/term);
// it runs nothing. A new format is a new file here with a method on Report,
// one case in ui/cmd/check (Options.Run) and the value in --format's list.
package report

import (
	"archlab/i18n"
	"archlab/ui/term"
)

// Report renders check's results on the terminal's renderer.
type Report struct {
	*term.Renderer
	Show bool     // --show: the timeline and drill file under an exercise not done
	Only string   // the EXERCISE argument, "" for all
	Args []string // the command line, for "ask again" in a hint
	// Cmd is how the reader runs archlab, for the commands the report
	// suggests: "archlab", or "go run ./cmd/archlab" under go run, where
	// an archlab on PATH may be an older one, or none.
	Cmd string
	// Info is which archlab judged which exercises, for the results a
	// grader reads (graders.go) and --json.
	Info GraderInfo
	// Submission is the submission Classroom 50's runner grades, for
	// --format classroom50 (classroom50.go).
	Submission Submission
}

// cmd is Cmd, "archlab" when unset.
func (r *Report) cmd() string {
	if r.Cmd == "" {
		return "archlab"
	}
	return r.Cmd
}

func (r *Report) t(key string, args ...any) string { return i18n.T(r.Lang, key, args...) }
