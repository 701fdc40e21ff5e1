// Command archlab is the lab that accompanies the book
// 《后端架构设计·分布式与数据一致性》: each drill builds one of the book's
// mechanisms, injects the failure the book describes and prints the counters
// the book prints.
//
// Exit status: 0 when every drill agrees with the book, 1 when one does
// not, 2 for a usage error, 3 when the run could not run (a read-only,
// locked or busy database, a full disk, a write error on stdout), 128+N
// when signal N stopped it (130 Ctrl-C, 143 SIGTERM).
package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"

	xterm "golang.org/x/term"

	"archlab/adapters/ondemand"
	"archlab/ui/cli"
	"archlab/ui/cmd/drill"
	"archlab/ui/term"
)

func main() {
	// A consumer process of --crash real serves its one delivery before
	// any command tree is built, in the archlab built with SQLite
	// (ui/cmd/drill/with_sqlite.go): it starts in milliseconds, not in the time the
	// CLI takes to build.
	if code, ok := drill.ConsumerChild(); ok {
		os.Exit(code)
	}
	os.Exit(run(newIO(), os.Args[1:]))
}

// newIO wires the real process: its streams, its environment and whether
// stdout and stdin are terminals.
func newIO() *cli.IO {
	io := &cli.IO{
		In:            os.Stdin,
		Out:           os.Stdout,
		Err:           os.Stderr,
		Getenv:        os.Getenv,
		OutIsTerminal: xterm.IsTerminal(int(os.Stdout.Fd())),
		InIsTerminal:  xterm.IsTerminal(int(os.Stdin.Fd())),
		Width:         term.TerminalWidth(os.Getenv),
		ErrWidth:      term.StderrWidth(os.Getenv),
		Replace:       syscall.Exec,
		Exe:           os.Executable,
	}
	if xterm.IsTerminal(int(os.Stderr.Fd())) {
		io.ErrTerminal = os.Stderr
	}
	// A run handed over by a test's archlab (ui/cli/parts.go) sees the
	// terminal that test's IO said it had.
	if v := os.Getenv(ondemand.HandedIO); v != "" {
		fmt.Sscanf(strings.ReplaceAll(v, ",", " "), "%d %t %t", &io.Width, &io.OutIsTerminal, &io.InIsTerminal)
	}
	return io
}
