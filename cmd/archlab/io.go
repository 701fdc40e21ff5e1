package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/status"
	"archlab/ui/term"
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
	// one, else 0, which means 80 (see ui/term/width.go).
	Width int
	// ErrWidth is stderr's width when it is a terminal (or $COLUMNS when
	// set), else 0: lines on stderr are wrapped to it there, and left
	// whole in a log or a pipe, where one error is best one line to grep.
	ErrWidth int
	// ErrTerminal is stderr itself when it is a terminal, else nil: where
	// a live line (an on-demand build's seconds) may redraw itself.
	ErrTerminal io.Writer
	// Students is the student's code that check and "strategy student"
	// run; nil is package exercises, compiled in. Tests plug in others.
	Students *harness.Students
	// Replace replaces the process with the program at path (exec), for
	// a run handed to an archlab built with more parts (ondemand.go). nil
	// when IO is not the process's own (the tests): that archlab runs as
	// a child on these streams instead.
	Replace func(path string, argv, env []string) error
	// Exe is the program check starts each exercise in, as a child it
	// can stop when the exercise's time runs out (os.Executable: this
	// archlab, with `check --child`). nil runs the exercises in this
	// process, with no time limit: the tests' IOs, whose Students are
	// values no child could see.
	Exe func() (string, error)
	// SourceRoot finds the clone this archlab was built from; nil is
	// ondemand.SourceRoot (adapters/ondemand). Tests point check at a copy, or at none.
	SourceRoot func() (string, error)
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
		ue = &usageError{Msg: firstLine(err.Error())}
	}
	return exitUsage, ue.Msg, ue.Hint
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// noArgs is cobra.NoArgs in the reader's language, with a hint.
func noArgs(g *globalOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return &usageError{Msg: g.t("err.args.none", cmd.CommandPath(), strings.Join(args, " ")), Hint: g.t("err.hint.help", cmd.CommandPath())}
	}
}

// osReason is why the system refused a file, in the reader's words (ui/term).
func osReason(g *globalOptions, err error) string { return term.OSReason(g.lang, err) }

// duration says how long something took, in the reader's units (ui/term).
func (g *globalOptions) duration(d time.Duration) string { return term.Duration(g.lang, d) }
