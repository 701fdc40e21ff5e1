// Package cli is what every archlab command shares, as the GitHub CLI's
// iostreams and cmdutil are to its commands: the process's streams (IO),
// the reader's language and screen (Env), the command line as it is read
// before cobra parses it (--lang, an input method's dashes, --json), flag
// errors in the reader's words, help wrapped to the screen, and the hand-over
// to an archlab built with the parts a run needs. It decides nothing about
// drills, the explorer or check: each command's package under ui/cmd/
// does, and cmd/archlab puts those commands under its root.
package cli

import (
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"archlab/check"
	"archlab/exercises"
	"archlab/harness"
	"archlab/i18n"
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
	// a run handed to an archlab built with more parts (parts.go). nil
	// when IO is not the process's own (the tests): that archlab runs as
	// a child on these streams instead.
	Replace func(path string, argv, env []string) error
	// Exe is the program check starts each exercise in, as a child it
	// can stop when the exercise's time runs out (os.Executable: this
	// archlab, with `check --child`). nil runs the exercises in this
	// process, with no time limit: the tests' IOs, whose Students are
	// values no child could see.
	Exe func() (string, error)
	// Check checks the exercises in this process, when Exe is nil: nil
	// is check.All. The tests plug in one that checks the book's code
	// once for all the tests that read its report (a whole check of the
	// book takes seconds, and a dozen tests read one).
	Check func(ctx context.Context, s *harness.Students, only string) ([]*check.Result, error)
	// SourceRoot finds the clone this archlab was built from; nil is
	// ondemand.SourceRoot (adapters/ondemand). Tests point check at a copy, or at none.
	SourceRoot func() (string, error)
}

// Env is one run of archlab as every command sees it: its streams, the
// reader's language, --no-color and the command line.
type Env struct {
	IO      *IO
	Lang    i18n.Lang
	NoColor bool
	Args    []string // the command line: what the command tree must hold
}

// T is the catalogue's text for key in the reader's language.
func (g *Env) T(key string, args ...any) string { return i18n.T(g.Lang, key, args...) }

// Colour reports whether output may be coloured.
func (g *Env) Colour() bool {
	return !g.NoColor && g.IO.Getenv("NO_COLOR") == "" && g.IO.Getenv("TERM") != "dumb" && g.IO.OutIsTerminal
}

// Width is the number of columns output may take.
func (g *Env) Width() int { return term.ScreenWidth(g.IO.Width) }

// Renderer is the terminal's rendering (ui/term) on this run's streams,
// in the reader's language, coloured when colour is on.
func (g *Env) Renderer() *term.Renderer {
	return &term.Renderer{Out: g.IO.Out, Err: g.IO.Err, In: g.IO.In, Lang: g.Lang, Width: g.Width(), P: term.NewPalette(g.Colour())}
}

// Duration says how long something took, in the reader's units.
func (g *Env) Duration(d time.Duration) string { return term.Duration(g.Lang, d) }

// OSReason is why the system refused a file, in the reader's words.
func (g *Env) OSReason(err error) string { return term.OSReason(g.Lang, err) }

// Students is the student's code the commands run: the exercises package
// compiled into this binary, unless the IO carries other code (tests).
func (g *Env) Students() *harness.Students {
	if g.IO.Students != nil {
		return g.IO.Students
	}
	return exercises.Students()
}

// Command is how the reader ran archlab, for the commands a report
// suggests: "go run ./cmd/archlab" when this binary is go run's, else
// "archlab" (an archlab on PATH may be older than the clone, or missing).
func (g *Env) Command() string {
	exe := os.Args[0]
	if g.IO.Exe != nil {
		if p, err := g.IO.Exe(); err == nil {
			exe = p
		}
	}
	if GoRun(exe) {
		return "go run ./cmd/archlab"
	}
	return "archlab"
}

// GoRun reports whether the program at exe is one go run built. go run
// links it as …/go-build…/b001/exe/NAME, or, since Go 1.24, reuses one
// kept in the build cache as …/XX/HASH-d/NAME, where XX is the first two
// hex digits of HASH.
func GoRun(exe string) bool {
	p := filepath.ToSlash(exe)
	dir := path.Base(path.Dir(p))
	if dir == "exe" && strings.Contains(p, "/go-build") {
		return true
	}
	hash, ok := strings.CutSuffix(dir, "-d")
	return ok && len(hash) >= 32 && isHex(hash) && path.Base(path.Dir(path.Dir(p))) == hash[:2]
}

// isHex reports whether s is lowercase hex digits.
func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// FirstLine is an error text's first line, trimmed.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
