package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fatih/color"

	"archlab/harness"
	"archlab/i18n"
)

// IO is everything a command may touch outside itself: results go to Out,
// errors and progress to Err. Tests inject buffers.
type IO struct {
	In            io.Reader
	Out, Err      io.Writer
	Getenv        func(string) string
	OutIsTerminal bool
	InIsTerminal  bool
	// Width is the columns output may take: the terminal's when stdout is
	// one, else 0, which means 80 (see width.go).
	Width int
	// Students is the student's code that check and "strategy student"
	// run; nil is package exercises, compiled in. Tests plug in others.
	Students *harness.Students
	// Replace replaces the process with the program at path (exec), for
	// a run handed to an archlab built with more parts (ondemand.go). nil
	// when IO is not the process's own (the tests): that archlab runs as
	// a child on these streams instead.
	Replace func(path string, argv, env []string) error
}

// Exit codes.
const (
	exitOK       = 0
	exitMismatch = 1 // a drill disagrees with the book
	exitUsage    = 2 // bad input
	// exitCouldNotRun (3, exitstatus.go): the environment stopped the run.
	// exitInterrupted is the shell's 128+SIGINT: Ctrl-C stopped a run
	// after archlab cleaned up (--crash real).
	exitInterrupted = 130
)

// usageError is bad input: one line saying what was wrong and what is
// allowed, an optional hint line, exit 2.
type usageError struct {
	msg  string
	hint string
}

func (e *usageError) Error() string { return e.msg }

// mismatchError means a drill ran but disagreed with the book (exit 1). Its
// details were already printed with the drill's output.
type mismatchError struct{ msg string }

func (e *mismatchError) Error() string { return e.msg }

// interruptedError is a run stopped by a signal once its consumer process
// was killed and its temporary files removed: exit 128+signal, 130 (Ctrl-C)
// when code is 0.
type interruptedError struct {
	msg  string
	code int
}

func (e *interruptedError) Error() string { return e.msg }

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
	var mm *mismatchError
	if errors.As(err, &mm) {
		return exitMismatch, mm.msg, ""
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		if ie.code != 0 {
			return ie.code, ie.msg, ""
		}
		return exitInterrupted, ie.msg, ""
	}
	var ce *couldNotRunError
	if errors.As(err, &ce) {
		return exitCouldNotRun, ce.msg, ce.hint
	}
	var ue *usageError
	if !errors.As(err, &ue) {
		// Errors from cobra's own parsing (unknown flag, bad number) are
		// usage errors too.
		ue = &usageError{msg: firstLine(err.Error())}
	}
	return exitUsage, ue.msg, ue.hint
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// palette colours results when colour is on and leaves them plain otherwise.
type palette struct {
	good, bad, dim, bold *color.Color
}

// newPalette enables colour only on a terminal, without NO_COLOR, without
// --no-color. fatih/color's global switch is left alone: the decision is
// made per run, from the injected IO.
func newPalette(on bool) palette {
	p := palette{
		good: color.New(color.FgGreen),
		bad:  color.New(color.FgRed),
		dim:  color.New(color.Faint),
		bold: color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.good, p.bad, p.dim, p.bold} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}
