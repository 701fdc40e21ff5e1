// Package status names the ways a run can end other than well, so that
// every front end (the commands, check's report and --watch) says which
// one it was in the same words, and cmd/archlab alone turns them into the
// process's exit status (exitstatus.go there).
package status

import "errors"

// Interrupted130 is the shell's 128+SIGINT: Ctrl-C stopped a run after
// archlab cleaned up.
const Interrupted130 = 130

// Usage is bad input: one line saying what was wrong and what is
// allowed, an optional hint line, exit 2.
type Usage struct {
	Msg  string
	Hint string
}

func (e *Usage) Error() string { return e.Msg }

// Mismatch means a drill ran but disagreed with the book (exit 1). Its
// details were already printed with the drill's output.
type Mismatch struct{ Msg string }

func (e *Mismatch) Error() string { return e.Msg }

// Interrupted is a run stopped by a signal once its consumer process was
// killed and its temporary files removed: exit 128+signal, 130 (Ctrl-C)
// when Code is 0.
type Interrupted struct {
	Msg  string
	Code int
}

func (e *Interrupted) Error() string { return e.Msg }

// CouldNotRun is a run the environment stopped (exit 3): one line saying
// what failed, an optional hint line. CI reads exit 1 as "a mechanism
// drifted from the book", so none of these may exit 1; and they are not
// the reader's typing either (exit 2).
type CouldNotRun struct {
	Msg  string
	Hint string
}

func (e *CouldNotRun) Error() string { return e.Msg }

// Own reports whether err is one of archlab's own typed errors, not an
// error passed on from a write, a library or cobra.
func Own(err error) bool {
	var (
		ue *Usage
		mm *Mismatch
		ie *Interrupted
		ce *CouldNotRun
	)
	return errors.As(err, &ue) || errors.As(err, &mm) || errors.As(err, &ie) || errors.As(err, &ce)
}
