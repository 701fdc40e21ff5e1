package main

import (
	"bytes"
	"strings"
	"testing"

	"archlab/ui/term"
)

// TestStderrWidthWhenPiped: stderr piped (tee, less, a projector's pager)
// keeps to $COLUMNS when it is set, in both languages: the error line and
// explore's timing line, which ran 85–101 columns (issue 34, point 6).
// Without $COLUMNS a pipe keeps each error on one line, to grep.
func TestStderrWidthWhenPiped(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, args := range [][]string{{"drill", "ack-lost", "--crash", "real"}, {"explore", "inbox"}} {
			for _, columns := range []string{"60", ""} {
				cmd := archlabCmd(t, append([]string{"--lang", lang}, args...)...)
				cmd.Env = append(cmd.Env, "COLUMNS="+columns)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				cmd.Run()
				lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
				if stderr.Len() == 0 {
					t.Fatalf("%s %v: nothing on stderr", lang, args)
				}
				widest := 0
				for _, l := range lines {
					widest = max(widest, term.DisplayWidth(l))
				}
				switch {
				case columns != "" && widest > 60:
					t.Errorf("%s %v, COLUMNS=60: a stderr line %d columns wide:\n%s", lang, args, widest, stderr.String())
				case columns == "" && widest <= 60:
					t.Errorf("%s %v, no COLUMNS: stderr wrapped to %d columns in a pipe:\n%s", lang, args, widest, stderr.String())
				}
			}
		}
	}
}
