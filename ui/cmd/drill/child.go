package drill

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"os"
	"slices"
	"time"

	"archlab/adapters/ondemand"
	"archlab/check"
	"archlab/drills"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/status"
	"archlab/ui/term"
)

// A drill file of strategy student (the file `check --show` prints) runs
// the student's code: in a child process, as check does (check.Spawn), so
// that an endless loop obeys --max-time and Ctrl-C, the code's os.Exit is
// never archlab's exit status, a panic in one of its goroutines is one
// line, and what it prints is shown apart from the run. The child is this
// archlab, on the same command line, with ChildEnv set: it runs the
// drills as ever, with its stdout and stderr captured, and hands them and
// its exit status back on its result pipe.

// ChildEnv, set to "1", makes an archlab the child of a drill of
// strategy student.
const ChildEnv = "ARCHLAB_DRILL_CHILD"

// drillResult is what a drill's child hands back: what archlab wrote, and
// the exit status it chose.
type drillResult struct {
	Out, Err []byte
	Code     int
}

// StatusError is an exit status a child chose, passed on as it is: what it
// had to say it said.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// runsStudent reports whether any drill of list runs the student's code.
func runsStudent(list []*drills.Drill) bool {
	return slices.ContainsFunc(list, func(d *drills.Drill) bool { return d.Strategy == harness.Student })
}

// InChild runs the drill command line in a child and passes on what it
// wrote and its exit status. ok is false when the drills run here: none
// runs the student's code, this is the child, no child can be started
// (a test's in-process IO), or --step asks questions on the terminal.
func (o *Options) InChild(list []*drills.Drill) (ok bool, err error) {
	g := o.G
	if !runsStudent(list) || g.IO.Exe == nil || g.IO.Getenv(ChildEnv) == "1" || o.Step {
		return false, nil
	}
	// A run that needs an archlab with more parts hands over to it first;
	// that one starts the child.
	if err := cli.NeedParts(o.Stores.asker(), o.Stores.parts()...); err != nil {
		return true, err
	}
	exe, err := g.IO.Exe()
	if err != nil {
		return true, &status.CouldNotRun{Msg: g.T("check.err.exe", err)}
	}
	env := os.Environ()
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR", "TERM"} {
		env = append(env, k+"="+g.IO.Getenv(k))
	}
	env = append(env, ChildEnv+"=1", fmt.Sprintf("%s=%d,%t,%t", ondemand.HandedIO, g.IO.Width, g.IO.OutIsTerminal, g.IO.InIsTerminal))
	limit := o.Budget.Time
	if limit <= 0 {
		limit = drills.DefaultBudget.Time
	}
	ctx, stop := status.SignalContext(context.Background())
	defer stop()
	// The child's own budget says "took longer than" when the code gives
	// it back control; a loop that never does is stopped a moment later.
	run, err := check.Spawn(ctx, append([]string{exe}, g.Args...), env, limit+time.Second, 0)
	if err != nil {
		return true, &status.CouldNotRun{Msg: g.T("check.err.exe", err)}
	}
	var res drillResult
	switch {
	case run.Ending == check.Canceled:
		return true, &status.Interrupted{Msg: g.T("err.interrupted.memory"), Code: status.SignalStatus(ctx)}
	case run.Ending == check.TimedOut:
		return true, &status.Usage{Msg: o.where() + g.T("file.err.budget.time", limit)}
	case gob.NewDecoder(bytes.NewReader(run.Result)).Decode(&res) != nil:
		why := run.Printed.Why()
		if why == "" {
			why = fmt.Sprint(run.State)
		}
		return true, &status.Mismatch{Msg: g.T("drill.student.no-result", why)}
	}
	// Shown with a result only: without one, the line that says why is
	// what matters, and the rest is Go's dump of every goroutine.
	o.printedBy(run.Printed)
	g.IO.Out.Write(res.Out)
	g.IO.Err.Write(res.Err)
	if res.Code == 0 {
		return true, nil
	}
	return true, &StatusError{Code: res.Code}
}

// where is "FILE: " for a run of one file, "" for many.
func (o *Options) where() string {
	if len(o.paths) == 1 {
		return o.paths[0] + ": "
	}
	return ""
}

// printedBy shows on stderr what the student's code printed, apart from
// the run: how many lines, and the first.
func (o *Options) printedBy(p *check.Printed) {
	first, n := p.Lines()
	if n == 0 {
		return
	}
	g := o.G
	fmt.Fprintln(g.IO.Err, g.T("drill.student.printed", term.GroupDigits(uint64(n)), len(first)))
	for _, l := range first {
		fmt.Fprintln(g.IO.Err, "  │ "+term.Cut(l, g.Width()-4))
	}
}

// ServeChild is the child's side: the command line, run by run with its
// output captured, handed back with its exit status on the result pipe.
func ServeChild(io *cli.IO, args []string, run func(*cli.IO, []string) int) int {
	out, err := check.ResultPipe()
	if err != nil {
		fmt.Fprintln(io.Err, "archlab: "+err.Error())
		return 2 // the usage status: no pipe is a misuse of the child
	}
	defer out.Close()
	check.LimitChild()
	defer check.EndDescendants()
	var stdout, stderr bytes.Buffer
	cio := *io
	cio.Out, cio.Err, cio.ErrWidth = &stdout, &stderr, 0
	// The drills run here: no child of its own, no exec of another
	// archlab (which would lose the result pipe).
	cio.Exe, cio.Replace = nil, nil
	cio.Getenv = func(k string) string {
		if k == ChildEnv {
			return ""
		}
		return io.Getenv(k)
	}
	code := run(&cio, args)
	gob.NewEncoder(out).Encode(&drillResult{Out: stdout.Bytes(), Err: stderr.Bytes(), Code: code})
	return code
}
