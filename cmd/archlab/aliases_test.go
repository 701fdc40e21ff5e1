package main

import (
	"archlab/i18n"
	"archlab/ui/cli"
	"fmt"
	"io"
)

// IO is the process's streams as the tests build them (ui/cli).
type IO = cli.IO

// exitCode maps an error from a command to the process's exit status and
// prints it on stderr.
func exitCode(stderr io.Writer, lang i18n.Lang, err error) int {
	code, msg, hint := describe(err)
	if msg != "" {
		fmt.Fprintln(stderr, "archlab: "+msg)
	}
	if hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	return code
}
