// Package check is `archlab check`: it checks the flags,
// runs each exercise in a child process under its time limit, refuses a
// build older than the exercises on disk, and lays out the results in the
// format asked (ui/report), or checks again on every save
// (ui/watch). NewCmd fills Options from the flags; cmd/archlab adds it
// to the root command.
package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"archlab/adapters/ondemand"
	"archlab/check"
	"archlab/drills"
	"archlab/exercises"
	"archlab/ui/cli"
	"archlab/ui/report"
	"archlab/ui/status"
	"archlab/ui/term"
	"archlab/ui/watch"
)

// Options are the flags of `archlab check`.
type Options struct {
	G    *cli.Env
	JSON bool
	Show bool
	Hint bool   // --hint: the next graduated hint (ui/report/hints.go)
	Only string // the EXERCISE argument, "" for all
	// Format is text, exercism, gradescope, junit or classroom50 (ui/report);
	// OutputDir is where the graders' files go.
	Format, OutputDir string
	// Timeout is each exercise's time limit, as typed ("" for the
	// default); limit is it parsed.
	Timeout string
	limit   time.Duration
	// Watch is --watch: check again after every save (ui/watch).
	Watch bool
	// Child is the hidden --child: check the one exercise named here, in
	// this process, and hand the result to the archlab that started it.
	Child bool
}

// MaxTimeout bounds --timeout: an hour is longer than any scope takes, and
// a typo such as 10000h should not leave a hung loop running for a year.
const MaxTimeout = time.Hour

// DefaultOutputDir is where --format exercism writes without --output-dir.
const DefaultOutputDir = "archlab-results"

// UnknownExercise names the bad exercise and the nearest real ones.
func UnknownExercise(g *cli.Env, name string) error {
	e := &status.Usage{Msg: g.T("check.err.unknown", name, strings.Join(check.Names(), ", "))}
	if near := drills.Nearest(name, check.Names(), 1); len(near) > 0 {
		e.Hint = g.T("err.hint.did-you-mean", near[0])
	}
	return e
}

// checkFormat refuses --format and --output-dir where they mean nothing:
// exercism writes files and prints only their names, so a timeline, a
// hint or --json has nowhere to go.
func (o *Options) checkFormat() error {
	g := o.G
	switch o.Format {
	case "text":
		if o.OutputDir != "" {
			return &status.Usage{Msg: g.T("check.err.output-dir")}
		}
		return nil
	case "exercism", "gradescope", "junit", "classroom50":
	default:
		return &status.Usage{Msg: g.T("check.err.format", o.Format)}
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{o.JSON, "--json"}, {o.Show, "--show"}, {o.Hint, "--hint"}} {
		if f.set {
			return &status.Usage{Msg: g.T("check.err.format-with", f.name)}
		}
	}
	if o.OutputDir == "" {
		o.OutputDir = DefaultOutputDir
	}
	return nil
}

// fresh refuses to check when this binary was built before the exercises
// on disk changed (go install, then an edit): its verdict would be on the
// old code, a pass the student has not earned or a failure already fixed.
// It is exit 3, "could not run", not 1: nothing was checked, and CI must
// not read it as a verdict. With no clone found (an installed archlab run
// elsewhere) there is nothing to compare with, and it says nothing; nor
// when the code checked is not the compiled-in package (the tests').
func (o *Options) fresh() error {
	g := o.G
	if g.IO.Students != nil {
		return nil
	}
	find := g.IO.SourceRoot
	if find == nil {
		find = ondemand.SourceRoot
	}
	root, err := find()
	if err != nil {
		return nil
	}
	stale, err := check.Stale(root)
	if err != nil || !stale {
		return nil
	}
	again := "go run ./cmd/archlab"
	for _, a := range g.Args {
		again += " " + term.ShellWord(a)
	}
	if wd, err := os.Getwd(); err != nil || !sameDir(wd, root) {
		again = "cd " + term.ShellWord(root) + " && " + again
	}
	return &status.CouldNotRun{Msg: g.T("check.err.stale", again)}
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// parseTimeout reads --timeout: a Go duration between a tenth of a
// second and MaxTimeout.
func (o *Options) parseTimeout() error {
	o.limit = check.DefaultTimeout
	if o.Timeout == "" {
		return nil
	}
	d, err := time.ParseDuration(o.Timeout)
	if err != nil || d < 100*time.Millisecond || d > MaxTimeout {
		return &status.Usage{Msg: o.G.T("check.err.timeout", o.Timeout)}
	}
	o.limit = d
	return nil
}

// Run checks the exercises and renders the results; some not done is exit 1.
func (o *Options) Run(ctx context.Context) error {
	g := o.G
	if o.Child {
		return o.serveChild(ctx)
	}
	if o.JSON && o.Show {
		return &status.Usage{Msg: g.T("check.err.show-json")}
	}
	if err := o.checkFormat(); err != nil {
		return err
	}
	if err := o.parseTimeout(); err != nil {
		return err
	}
	// Ctrl-C stops the children and the watch cleanly, then exits 130.
	ctx, stop := status.SignalContext(ctx)
	defer stop()
	if o.Watch {
		if o.JSON || o.Format != "text" || o.Hint {
			return &status.Usage{Msg: g.T("check.err.watch-with")}
		}
		return watch.Run(ctx, watch.Options{Report: o.report(), Only: o.Only, Limit: o.limit, Tick: o.G.IO.ErrTerminal})
	}
	if err := o.fresh(); err != nil {
		return err
	}
	var sub report.Submission
	if o.Format == "classroom50" { // before the check: a result with no identity is no result
		var err error
		if sub, err = o.submission(ctx); err != nil {
			return err
		}
	}
	results, err := o.results(ctx)
	if err != nil {
		return err
	}
	done := 0
	var notDone []string
	var unjudged error // the first exercise the machine kept from a verdict
	for _, r := range results {
		switch {
		case r.Status == check.Done:
			done++
		case check.Unjudged(r):
			if unjudged == nil {
				unjudged = o.unjudged(r)
			}
		default:
			notDone = append(notDone, r.Exercise.Name)
		}
	}
	rep := o.report()
	rep.Submission = sub
	var hint *report.Hint
	if o.Hint {
		if res := report.HintFor(results); res != nil {
			path, err := hintsPath(g)
			var warn string
			if hint, warn = rep.NextHint(path, err, res); warn != "" {
				fmt.Fprintln(g.IO.Err, "archlab: "+warn)
			}
		}
	}
	switch {
	case o.Format == "exercism":
		if err := rep.Exercism(results, o.OutputDir); err != nil {
			return err
		}
	case o.Format == "gradescope", o.Format == "junit", o.Format == "classroom50":
		if err := rep.Grader(o.Format, results, done, o.OutputDir); err != nil {
			return err
		}
	case o.JSON:
		j := rep.JSON(results, done)
		j.Hint = hint
		if err := term.WriteJSON(g.IO.Out, j); err != nil {
			return err
		}
	default:
		if err := rep.Text(results, done); err != nil {
			return err
		}
		if o.Hint {
			rep.ShowHint(hint)
		}
	}
	mismatch := g.T("check.err.not-done", strings.Join(notDone, ", "))
	if unjudged != nil {
		// No whole verdict: exit 3, whatever the others came to; the
		// exercises not done are still said.
		if len(notDone) > 0 {
			fmt.Fprintln(g.IO.Err, "archlab: "+mismatch)
		}
		return unjudged
	}
	if len(notDone) > 0 {
		return &status.Mismatch{Msg: mismatch}
	}
	return nil
}

// results checks the exercises asked for, each in a child process when
// this archlab can start one (each under its time limit; the others are
// still checked when one hangs), else in this process.
func (o *Options) results(ctx context.Context) ([]*check.Result, error) {
	g := o.G
	if g.IO.Exe == nil {
		all := check.All
		if g.IO.Check != nil {
			all = g.IO.Check
		}
		return all(ctx, g.Students(), o.Only)
	}
	exe, err := g.IO.Exe()
	if err != nil {
		return nil, &status.CouldNotRun{Msg: g.T("check.err.exe", err)}
	}
	var out []*check.Result
	for _, e := range check.Exercises {
		if o.Only != "" && e.Name != o.Only {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		argv := []string{exe, "--lang", string(g.Lang), "check", "--child", e.Name}
		env := append(os.Environ(), check.ChildEnv+"=1")
		r := check.RunChild(ctx, argv, env, e, o.limit)
		var start *check.StartError
		if errors.As(r.Err, &start) {
			return nil, &status.CouldNotRun{Msg: g.T("check.err.exe", start.Err)}
		}
		out = append(out, r)
	}
	if ctx.Err() != nil {
		return nil, &status.Interrupted{Msg: g.T("check.err.interrupted"), Code: status.SignalStatus(ctx)}
	}
	return out, nil
}

// unjudged is exit 3 for a result the machine kept from a verdict
// (check.Unjudged): its limits stopped the child, or it was too busy to
// run two calls at once. The report shows every exercise first.
func (o *Options) unjudged(r *check.Result) error {
	var limit *check.LimitError
	switch {
	case errors.As(r.Err, &limit):
		return &status.CouldNotRun{Msg: o.G.T("check.err.limit", r.Exercise.Name, limit.Why)}
	case errors.Is(r.Err, check.ErrTooBusy):
		return &status.CouldNotRun{Msg: o.G.T("check.err.busy", r.Exercise.Name)}
	}
	return nil
}

// serveChild is `check --child NAME`: the one exercise, checked in this
// process for the archlab that started it (check.RunChild).
func (o *Options) serveChild(ctx context.Context) error {
	g := o.G
	if o.Only == "" {
		return &status.Usage{Msg: g.T("check.err.child")}
	}
	// The result goes on the pipe the parent gave (fd 3): stdout and
	// stderr are the student's code's, and this process says nothing on
	// them of its own, so nothing of archlab's reads as the code's output.
	err := check.ServeChild(ctx, o.Only, g.Lang, g.Students(), g.IO.In)
	switch {
	case errors.Is(err, check.ErrNoPipe):
		return &status.Usage{Msg: g.T("check.err.child")}
	case err != nil:
		return &status.Mismatch{} // said on the pipe (ErrHung: where it hung)
	}
	return nil
}

// report is check's report (ui/report) on this run's streams.
func (o *Options) report() *report.Report {
	sources, _ := check.Fingerprint(exercises.Sources())
	return &report.Report{Renderer: o.G.Renderer(), Show: o.Show, Only: o.Only, Args: o.G.Args, Cmd: o.G.Command(),
		Info: report.GraderInfo{ArchlabVersion: cli.Version(), SourcesSHA256: sources}}
}

// hintsPath is the counts file of the clone this archlab checks; with no
// clone found, the counts of an archlab run outside any clone.
func hintsPath(g *cli.Env) (string, error) {
	find := g.IO.SourceRoot
	if find == nil {
		find = ondemand.SourceRoot
	}
	root, err := find()
	if err != nil {
		root = ""
	}
	dir, err := ondemand.CloneCache(root)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, report.HintsFile), nil
}
