package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"archlab/adapters/ondemand"
	"archlab/check"
	"archlab/check/report"
	"archlab/check/watch"
	"archlab/drills"
	"archlab/exercises"
	"archlab/harness"
	"archlab/ui/status"
	"archlab/ui/term"
)

// checkOptions are the flags of `archlab check`.
type checkOptions struct {
	g    *globalOptions
	json bool
	show bool
	hint bool   // --hint: the next graduated hint (check/report/hints.go)
	only string // the EXERCISE argument, "" for all
	// format is text or exercism (check/report/exercism.go); outputDir is where
	// exercism's results.json files go.
	format, outputDir string
	// timeout is each exercise's time limit, as typed ("" for the
	// default); limit is it parsed.
	timeout string
	limit   time.Duration
	// watch is --watch: check again after every save (check/watch).
	watch bool
	// child is the hidden --child: check the one exercise named here, in
	// this process, and hand the result to the archlab that started it.
	child bool
}

// maxTimeout bounds --timeout: an hour is longer than any scope takes, and
// a typo such as 10000h should not leave a hung loop running for a year.
const maxTimeout = time.Hour

// defaultOutputDir is where --format exercism writes without --output-dir.
const defaultOutputDir = "archlab-results"

func newCheckCmd(g *globalOptions) *cobra.Command {
	o := &checkOptions{g: g}
	cmd := &cobra.Command{
		Use:       "check [EXERCISE]",
		Short:     g.t("help.check.short"),
		Long:      g.t("help.check.long"),
		Example:   g.t("help.check.example"),
		ValidArgs: check.Names(),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &usageError{Msg: g.t("check.err.args", len(args)), Hint: g.t("err.hint.help", cmd.CommandPath())}
			}
			if len(args) == 1 {
				if _, err := check.Lookup(args[0]); err != nil {
					return unknownExercise(g, args[0])
				}
				o.only = args[0]
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return o.run(ctx)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, g.t("help.flag.json"))
	cmd.Flags().BoolVar(&o.show, "show", false, g.t("check.flag.show"))
	cmd.Flags().BoolVar(&o.hint, "hint", false, g.t("check.flag.hint"))
	cmd.Flags().StringVar(&o.format, "format", "text", g.t("check.flag.format"))
	cmd.Flags().StringVar(&o.outputDir, "output-dir", "", g.t("check.flag.output-dir", defaultOutputDir))
	cmd.Flags().StringVar(&o.timeout, "timeout", "", g.t("check.flag.timeout", g.duration(check.DefaultTimeout)))
	cmd.Flags().BoolVar(&o.watch, "watch", false, g.t("check.flag.watch"))
	cmd.Flags().BoolVar(&o.child, "child", false, "")
	cmd.Flags().MarkHidden("child")
	return cmd
}

// unknownExercise names the bad exercise and the nearest real ones.
func unknownExercise(g *globalOptions, name string) error {
	e := &usageError{Msg: g.t("check.err.unknown", name, strings.Join(check.Names(), ", "))}
	if near := drills.Nearest(name, check.Names(), 1); len(near) > 0 {
		e.Hint = g.t("err.hint.did-you-mean", near[0])
	}
	return e
}

// students is the student's code the commands run: the exercises package
// compiled into this binary, unless the IO carries other code (tests).
func (g *globalOptions) students() *harness.Students {
	if g.io.Students != nil {
		return g.io.Students
	}
	return exercises.Students()
}

// checkFormat refuses --format and --output-dir where they mean nothing:
// exercism writes files and prints only their names, so a timeline, a
// hint or --json has nowhere to go.
func (o *checkOptions) checkFormat() error {
	g := o.g
	switch o.format {
	case "text":
		if o.outputDir != "" {
			return &usageError{Msg: g.t("check.err.output-dir")}
		}
		return nil
	case "exercism", "gradescope", "junit":
	default:
		return &usageError{Msg: g.t("check.err.format", o.format)}
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{o.json, "--json"}, {o.show, "--show"}, {o.hint, "--hint"}} {
		if f.set {
			return &usageError{Msg: g.t("check.err.format-with", f.name)}
		}
	}
	if o.outputDir == "" {
		o.outputDir = defaultOutputDir
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
func (o *checkOptions) fresh() error {
	g := o.g
	if g.io.Students != nil {
		return nil
	}
	find := g.io.SourceRoot
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
	for _, a := range g.args {
		again += " " + term.ShellWord(a)
	}
	if wd, err := os.Getwd(); err != nil || !sameDir(wd, root) {
		again = "cd " + term.ShellWord(root) + " && " + again
	}
	return &couldNotRunError{Msg: g.t("check.err.stale", again)}
}

// command is how the reader ran archlab, for the commands a report
// suggests: "go run ./cmd/archlab" when this binary is go run's (go run
// links it as go-build…/exe/archlab), else "archlab".
func (g *globalOptions) command() string {
	exe := os.Args[0]
	if g.io.Exe != nil {
		if p, err := g.io.Exe(); err == nil {
			exe = p
		}
	}
	if p := filepath.ToSlash(exe); strings.Contains(p, "/go-build") && strings.Contains(p, "/exe/") {
		return "go run ./cmd/archlab"
	}
	return "archlab"
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// parseTimeout reads --timeout: a Go duration between a tenth of a
// second and maxTimeout.
func (o *checkOptions) parseTimeout() error {
	o.limit = check.DefaultTimeout
	if o.timeout == "" {
		return nil
	}
	d, err := time.ParseDuration(o.timeout)
	if err != nil || d < 100*time.Millisecond || d > maxTimeout {
		return &usageError{Msg: o.g.t("check.err.timeout", o.timeout)}
	}
	o.limit = d
	return nil
}

// run checks the exercises and renders the results; some not done is exit 1.
func (o *checkOptions) run(ctx context.Context) error {
	g := o.g
	if o.child {
		return o.serveChild(ctx)
	}
	if o.json && o.show {
		return &usageError{Msg: g.t("check.err.show-json")}
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
	if o.watch {
		if o.json || o.format != "text" || o.hint {
			return &usageError{Msg: g.t("check.err.watch-with")}
		}
		return watch.Run(ctx, watch.Options{Report: o.report(), Only: o.only, Limit: o.limit, Tick: o.g.io.ErrTerminal})
	}
	if err := o.fresh(); err != nil {
		return err
	}
	results, err := o.results(ctx)
	if err != nil {
		return err
	}
	done := 0
	var notDone []string
	for _, r := range results {
		if r.Status == check.Done {
			done++
		} else {
			notDone = append(notDone, r.Exercise.Name)
		}
	}
	rep := o.report()
	var hint *report.Hint
	if o.hint {
		if res := report.HintFor(results); res != nil {
			path, err := g.hintsPath()
			var warn string
			if hint, warn = rep.NextHint(path, err, res); warn != "" {
				fmt.Fprintln(g.io.Err, "archlab: "+warn)
			}
		}
	}
	switch {
	case o.format == "exercism":
		if err := rep.Exercism(results, o.outputDir); err != nil {
			return err
		}
	case o.format == "gradescope", o.format == "junit":
		if err := rep.Grader(o.format, results, done, o.outputDir); err != nil {
			return err
		}
	case o.json:
		j := rep.JSON(results, done)
		j.Hint = hint
		if err := term.WriteJSON(g.io.Out, j); err != nil {
			return err
		}
	default:
		if err := rep.Text(results, done); err != nil {
			return err
		}
		if o.hint {
			rep.ShowHint(hint)
		}
	}
	if len(notDone) > 0 {
		return &mismatchError{Msg: g.t("check.err.not-done", strings.Join(notDone, ", "))}
	}
	return nil
}

// results checks the exercises asked for, each in a child process when
// this archlab can start one (each under its time limit; the others are
// still checked when one hangs), else in this process.
func (o *checkOptions) results(ctx context.Context) ([]*check.Result, error) {
	g := o.g
	if g.io.Exe == nil {
		return check.All(ctx, g.students(), o.only)
	}
	exe, err := g.io.Exe()
	if err != nil {
		return nil, &couldNotRunError{Msg: g.t("check.err.exe", err)}
	}
	var out []*check.Result
	for _, e := range check.Exercises {
		if o.only != "" && e.Name != o.only {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		argv := []string{exe, "--lang", string(g.lang), "check", "--child", e.Name}
		env := append(os.Environ(), check.ChildEnv+"=1")
		r := check.RunChild(ctx, argv, env, e, o.limit)
		var start *check.StartError
		if errors.As(r.Err, &start) {
			return nil, &couldNotRunError{Msg: g.t("check.err.exe", start.Err)}
		}
		out = append(out, r)
	}
	if ctx.Err() != nil {
		return nil, &interruptedError{Msg: g.t("check.err.interrupted"), Code: status.SignalStatus(ctx)}
	}
	return out, nil
}

// serveChild is `check --child NAME`: the one exercise, checked in this
// process for the archlab that started it (check.RunChild).
func (o *checkOptions) serveChild(ctx context.Context) error {
	g := o.g
	if o.only == "" {
		return &usageError{Msg: g.t("check.err.child")}
	}
	// The result goes on the pipe the parent gave (fd 3): stdout and
	// stderr are the student's code's, and this process says nothing on
	// them of its own, so nothing of archlab's reads as the code's output.
	err := check.ServeChild(ctx, o.only, g.lang, g.students(), g.io.In)
	switch {
	case errors.Is(err, check.ErrNoPipe):
		return &usageError{Msg: g.t("check.err.child")}
	case err != nil:
		return &mismatchError{} // said on the pipe (ErrHung: where it hung)
	}
	return nil
}

// report is check's report (check/report) on this run's streams.
func (o *checkOptions) report() *report.Report {
	sources, _ := check.Fingerprint(exercises.Sources())
	return &report.Report{Renderer: o.g.renderer(), Show: o.show, Only: o.only, Args: o.g.args, Cmd: o.g.command(),
		Info: report.GraderInfo{ArchlabVersion: version(), SourcesSHA256: sources}}
}

// hintsPath is the counts file of the clone this archlab checks; with no
// clone found, the counts of an archlab run outside any clone.
func (g *globalOptions) hintsPath() (string, error) {
	find := g.io.SourceRoot
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
