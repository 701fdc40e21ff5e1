package class

import (
	"regexp"
	"strings"

	"archlab/i18n"
)

// savedAs is row's shortest run as --save writes it and /class/run serves
// it, its opening comment naming the file it is saved as (issue 43: the
// comment named check's own file, exercises/ledger_replay_test.go, or the
// drill's, beside a file saved as row3_ledger_test.go or 3-ledger.txtar).
// A Go test is archlab's own (written again from the calls); a drill file
// is the student's result's, and archlab's lines above it say so.
func savedAs(lang i18n.Lang, row int, e *Example) string {
	if e.GoTest {
		head, rest, ok := strings.Cut(e.Body, "\nimport (")
		if !ok {
			return e.Body
		}
		return replayFile.ReplaceAllLiteralString(head, "exercises/"+e.File) + "\nimport (" + rest
	}
	var b strings.Builder
	for _, l := range strings.Split(i18n.T(lang, "class.saved-drill", row, e.File), "\n") {
		b.WriteString("# " + l + "\n")
	}
	return b.String() + e.Body
}

// replayFile is the file a check's Go test says to save it as.
var replayFile = regexp.MustCompile(`exercises/[a-z]+_replay_test\.go`)
