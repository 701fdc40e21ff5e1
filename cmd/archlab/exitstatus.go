package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"syscall"

	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/cmd/drill"
	"archlab/ui/status"
)

// exitCouldNotRun is the status of a run the environment stopped: a
// read-only, locked or busy database, a full disk, a write error on stdout.
// CI reads exit 1 as "a mechanism drifted from the book", so none of these
// may exit 1; and they are not the reader's typing either (exit 2).
const exitCouldNotRun = 3

// exitTerminated is the shell's 128+SIGTERM.
const exitTerminated = 143

// outWriter is stdout as the commands see it. It remembers the first write
// error, and refuses every later write, so that a full disk or a closed
// pipe is found once, at the end of every command, however the output was
// written (fmt.Fprint, a table, cobra's help).
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

// outputStatus is the exit status once the output's fate is known. A write
// error on stdout means the reader did not get the result: "could not run"
// (exit 3), said on stderr. A broken pipe is the reader's choice (`| head`)
// and stays quiet, as it does for every Unix tool. A usage error or an
// interrupt keeps its own status: its cause came first.
func outputStatus(stderr io.Writer, lang i18n.Lang, out *outWriter, code int) int {
	if out.err == nil || code == exitUsage || code == exitInterrupted || code == exitTerminated {
		return code
	}
	if errors.Is(out.err, syscall.EPIPE) {
		return code
	}
	fmt.Fprintln(stderr, "archlab: "+i18n.T(lang, "err.output", out.err))
	return exitCouldNotRun
}

// jsonError is the object a --json run prints on stdout when it fails
// before it has a result, so that a program reading stdout always gets
// JSON: {"error": "...", "exit": 2}.
type jsonError struct {
	Error string `json:"error"`
	Exit  int    `json:"exit"`
}

func writeJSONError(w io.Writer, msg string, code int) {
	b, _ := json.MarshalIndent(jsonError{Error: msg, Exit: code}, "", "  ")
	w.Write(append(b, '\n'))
}

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

// describe is an error's exit status, its line and its hint line.
func describe(err error) (code int, msg, hint string) {
	if err == nil {
		return exitOK, "", ""
	}
	var se *drill.StatusError
	if errors.As(err, &se) {
		return se.Code, "", "" // a drill's child said what it had to (ui/cmd/drill/child.go)
	}
	var mm *status.Mismatch
	if errors.As(err, &mm) {
		return exitMismatch, mm.Msg, ""
	}
	var ie *status.Interrupted
	if errors.As(err, &ie) {
		if ie.Code != 0 {
			return ie.Code, ie.Msg, ""
		}
		return exitInterrupted, ie.Msg, ""
	}
	var ce *status.CouldNotRun
	if errors.As(err, &ce) {
		return exitCouldNotRun, ce.Msg, ce.Hint
	}
	var ue *status.Usage
	if !errors.As(err, &ue) {
		// Errors from cobra's own parsing (unknown flag, bad number) are
		// usage errors too.
		ue = &status.Usage{Msg: cli.FirstLine(err.Error())}
	}
	return exitUsage, ue.Msg, ue.Hint
}
