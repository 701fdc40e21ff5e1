package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"
)

// pause shows prompt on stderr and waits for one key: Enter (or space) goes
// on, q stops the timeline (the results still print), Ctrl-C stops the run
// as a signal would. On a terminal the key counts without Enter: stdin is
// put in raw mode for the one key, and the prompt erases itself, so the
// screen holds only the drill. Elsewhere (a test, a pipe) a line is read.
func (r *renderer) pause(prompt string) error {
	fmt.Fprint(r.g.io.Err, r.p.dim.Sprint(prompt))
	key, err := r.readKey()
	fmt.Fprint(r.g.io.Err, "\r\x1b[2K")
	switch {
	case key == 0x03: // Ctrl-C, which raw mode delivers as a key
		return &interruptedError{Msg: r.g.t("cli.step.interrupted")}
	case err != nil || key == 'q' || key == 'Q' || key == 0x04: // Ctrl-D
		r.stopped = true
	}
	return nil
}

// readKey reads the reader's answer: one key in raw mode on a terminal,
// else the first character of a line ('\n' for an empty one).
func (r *renderer) readKey() (byte, error) {
	if f, ok := r.g.io.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if old, err := term.MakeRaw(int(f.Fd())); err == nil {
			defer term.Restore(int(f.Fd()), old)
			var b [1]byte
			_, err := f.Read(b[:])
			return b[0], err
		}
	}
	if r.keys == nil {
		r.keys = bufio.NewReader(r.g.io.In)
	}
	line, err := r.keys.ReadString('\n')
	if line = strings.TrimSpace(line); line != "" {
		return line[0], nil
	}
	if err != nil {
		return 0, err
	}
	return '\n', nil
}
