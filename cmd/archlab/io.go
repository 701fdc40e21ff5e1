package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

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
	// ErrWidth is stderr's width when it is a terminal, else 0: lines
	// on stderr are wrapped to it there, and left whole in a log or a
	// pipe, where one error is best one line to grep.
	ErrWidth int
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
	// sourceRoot (ondemand.go). Tests point check at a copy, or at none.
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
	var se *statusError
	if errors.As(err, &se) {
		return se.code, "", "" // a drill's child said what it had to (drillchild.go)
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

// noArgs is cobra.NoArgs in the reader's language, with a hint.
func noArgs(g *globalOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return &usageError{msg: g.t("err.args.none", cmd.CommandPath(), strings.Join(args, " ")), hint: g.t("err.hint.help", cmd.CommandPath())}
	}
}

// osReason is why the system refused a file, in the reader's language
// for the common reasons, else as the system said it.
func osReason(g *globalOptions, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return g.t("err.os.not-exist")
	case errors.Is(err, fs.ErrPermission):
		return g.t("err.os.permission")
	case errors.Is(err, syscall.EISDIR):
		return g.t("err.os.is-dir")
	case errors.Is(err, syscall.ENOTDIR):
		return g.t("err.os.not-dir")
	}
	return unwrapPathErr(err).Error()
}

// duration says how long something took, to three significant digits,
// in the reader's units: 7.84s, 用时 7.84 秒.
func (g *globalOptions) duration(d time.Duration) string {
	key, v := "time.seconds", d.Seconds()
	switch {
	case d < time.Millisecond:
		key, v = "time.microseconds", float64(d)/float64(time.Microsecond)
	case d < time.Second:
		key, v = "time.milliseconds", float64(d)/float64(time.Millisecond)
	}
	digits := 2
	switch {
	case v >= 100:
		digits = 0
	case v >= 10:
		digits = 1
	}
	return g.t(key, strconv.FormatFloat(v, 'f', digits, 64))
}
