package term

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"archlab/ui/status"

	xterm "golang.org/x/term"
)

// Pause shows prompt on stderr and waits for one key: Enter (or space) goes
// on, q stops the run (with no verdict: Stopped), Ctrl-C stops the run
// as a signal would. On a terminal the key counts without Enter: stdin is
// put in raw mode for the one key, and the prompt erases itself, so the
// screen holds only the drill. Elsewhere (a test, a pipe) a line is read.
func (r *Renderer) Pause(prompt string) error {
	fmt.Fprint(r.Err, r.P.Dim.Sprint(prompt))
	key, err := r.readKey()
	fmt.Fprint(r.Err, "\r\x1b[2K")
	switch {
	case key == 0x03: // Ctrl-C, which raw mode delivers as a key
		return &status.Interrupted{Msg: r.t("cli.step.interrupted")}
	case err != nil || key == 'q' || key == 'Q' || key == 0x04: // Ctrl-D
		r.Stopped = true
	}
	return nil
}

// readKey reads the reader's answer: one key in raw mode on a terminal,
// else the first character of a line ('\n' for an empty one).
func (r *Renderer) readKey() (byte, error) {
	if f, ok := r.In.(*os.File); ok && xterm.IsTerminal(int(f.Fd())) {
		if old, err := xterm.MakeRaw(int(f.Fd())); err == nil {
			defer xterm.Restore(int(f.Fd()), old)
			var b [1]byte
			_, err := f.Read(b[:])
			return b[0], err
		}
	}
	if r.Keys == nil {
		r.Keys = bufio.NewReader(r.In)
	}
	line, err := r.Keys.ReadString('\n')
	if line = strings.TrimSpace(line); line != "" {
		return line[0], nil
	}
	if err != nil {
		return 0, err
	}
	return '\n', nil
}
