package main

import (
	"errors"
	"fmt"
	"io"

	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// Exit codes.
const (
	exitOK       = 0
	exitMismatch = 1 // a drill disagrees with the book
	exitUsage    = 2 // bad input
	// exitCouldNotRun (3, exitstatus.go): the environment stopped the run.
	// exitInterrupted is the shell's 128+SIGINT: Ctrl-C stopped a run
	// after archlab cleaned up (--crash real).
	exitInterrupted = status.Interrupted130
)

// The error kinds a command returns (ui/status): usage (2), mismatch (1),
// interrupted (128+signal) and could not run (3, exitstatus.go).
type (
	usageError       = status.Usage
	mismatchError    = status.Mismatch
	interruptedError = status.Interrupted
	couldNotRunError = status.CouldNotRun
)

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

// describe is an error's exit status, its line and its hint line.
func describe(err error) (code int, msg, hint string) {
	if err == nil {
		return exitOK, "", ""
	}
	var se *statusError
	if errors.As(err, &se) {
		return se.code, "", "" // a drill's child said what it had to (drillchild.go)
	}
	var mm *mismatchError
	if errors.As(err, &mm) {
		return exitMismatch, mm.Msg, ""
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		if ie.Code != 0 {
			return ie.Code, ie.Msg, ""
		}
		return exitInterrupted, ie.Msg, ""
	}
	var ce *couldNotRunError
	if errors.As(err, &ce) {
		return exitCouldNotRun, ce.Msg, ce.Hint
	}
	var ue *usageError
	if !errors.As(err, &ue) {
		// Errors from cobra's own parsing (unknown flag, bad number) are
		// usage errors too.
		ue = &usageError{Msg: cli.FirstLine(err.Error())}
	}
	return exitUsage, ue.Msg, ue.Hint
}
