package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/exercises"
	"archlab/harness"
)

// checkOptions are the flags of `archlab check`.
type checkOptions struct {
	g    *globalOptions
	json bool
	show bool
	hint bool   // --hint: the next graduated hint (hints.go)
	only string // the EXERCISE argument, "" for all
	// format is text or exercism (exercism.go); outputDir is where
	// exercism's results.json files go.
	format, outputDir string
}

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
				return &usageError{msg: g.t("check.err.args", len(args)), hint: g.t("err.hint.help", cmd.CommandPath())}
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
	return cmd
}

// unknownExercise names the bad exercise and the nearest real ones.
func unknownExercise(g *globalOptions, name string) error {
	e := &usageError{msg: g.t("check.err.unknown", name, strings.Join(check.Names(), ", "))}
	if near := drills.Nearest(name, check.Names(), 1); len(near) > 0 {
		e.hint = g.t("err.hint.did-you-mean", near[0])
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
			return &usageError{msg: g.t("check.err.output-dir")}
		}
		return nil
	case "exercism":
	default:
		return &usageError{msg: g.t("check.err.format", o.format)}
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{o.json, "--json"}, {o.show, "--show"}, {o.hint, "--hint"}} {
		if f.set {
			return &usageError{msg: g.t("check.err.format-with", f.name)}
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
		find = sourceRoot
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
		again += " " + shellWord(a)
	}
	if wd, err := os.Getwd(); err != nil || !sameDir(wd, root) {
		again = "cd " + shellWord(root) + " && " + again
	}
	return &couldNotRunError{msg: g.t("check.err.stale", again)}
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// shellWord is a in a form a POSIX shell reads back as one word.
func shellWord(a string) string {
	if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%") == "" {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// run checks the exercises and renders the results; some not done is exit 1.
func (o *checkOptions) run(ctx context.Context) error {
	g := o.g
	if o.json && o.show {
		return &usageError{msg: g.t("check.err.show-json")}
	}
	if err := o.checkFormat(); err != nil {
		return err
	}
	if err := o.fresh(); err != nil {
		return err
	}
	results, err := check.All(ctx, g.students(), o.only)
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
	var hint *graduatedHint
	if o.hint {
		if res := hintFor(results); res != nil {
			var warn string
			if hint, warn = o.nextHint(res); warn != "" {
				fmt.Fprintln(g.io.Err, "archlab: "+warn)
			}
		}
	}
	if o.format == "exercism" {
		if err := o.writeExercism(results); err != nil {
			return err
		}
	} else if o.json {
		j := o.jsonResults(results, done)
		j.Hint = hint
		if err := writeJSON(g.io.Out, j); err != nil {
			return err
		}
	} else {
		if err := o.render(results, done); err != nil {
			return err
		}
		if o.hint {
			o.renderHint(hint)
		}
	}
	if len(notDone) > 0 {
		return &mismatchError{msg: g.t("check.err.not-done", strings.Join(notDone, ", "))}
	}
	return nil
}

// render prints one line per exercise, with the shortest run, the hint and
// (with --show) the timeline and drill file under an exercise not done,
// then the progress.
func (o *checkOptions) render(results []*check.Result, done int) error {
	g := o.g
	r := &renderer{g: g, p: newPalette(g.colour())}
	out := g.io.Out
	para := o.para
	for _, res := range results {
		e := res.Exercise
		tone := fmt.Sprint
		switch res.Status {
		case check.Done:
			tone = r.p.good.Sprint
		case check.NotDone, check.Failed:
			tone = r.p.bad.Sprint
		}
		para(o.line(res), tone)
		if res.Status != check.NotDone {
			continue
		}
		if res.Shortest != nil {
			para(g.t("check.detail.shortest", res.Shortest.Line(g.lang, res.Lessons[0])), fmt.Sprint)
		}
		para(g.t("check.detail.hint", res.Hint(g.lang)), fmt.Sprint)
		if !o.show {
			para(g.t("check.detail.show", e.Name), r.p.dim.Sprint)
			continue
		}
		if res.Shortest == nil {
			continue
		}
		steps, err := res.Shortest.Trace()
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "\n"+g.t("check.detail.trace", e.Name))
		if err := r.trace(steps); err != nil {
			return err
		}
		file, err := res.Shortest.File(g.lang)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "\n"+g.t("check.detail.file"))
		fmt.Fprint(out, file)
		fmt.Fprintln(out)
	}
	para(g.t("check.progress", done, len(results)), fmt.Sprint)
	return nil
}

// para prints text wrapped to the width, its continuation lines indented
// under the text, coloured line by line.
func (o *checkOptions) para(text string, tone func(...any) string) {
	g := o.g
	indent := text[:len(text)-len(strings.TrimLeft(text, " "))]
	for i, l := range wrapText(strings.TrimLeft(text, " "), g.width()-len(indent)-2) {
		if i > 0 {
			l = "  " + l
		}
		fmt.Fprintln(g.io.Out, tone(indent+l))
	}
}

// line is an exercise's one line: its status and what it comes to.
func (o *checkOptions) line(res *check.Result) string {
	g, e := o.g, res.Exercise
	switch res.Status {
	case check.Done:
		return g.t("check.line.done", e.Name, e.Section, res.Drills, groupDigits(res.Schedules))
	case check.NotStarted:
		return g.t("check.line.not-started", e.Name, e.Section, e.Func, e.File)
	case check.Failed:
		return g.t("check.line.error", e.Name, e.Section, res.Err)
	}
	return g.t("check.line.not-done", e.Name, e.Section, check.LessonText(g.lang, res.Lessons[0]))
}

// jsonCheckAll is `archlab check --json`.
type jsonCheckAll struct {
	Exercises []jsonExercise `json:"exercises"`
	Done      int            `json:"done"`
	Total     int            `json:"total"`
	// Hint is the hint --hint gave, absent without --hint or when no
	// exercise needs one.
	Hint *graduatedHint `json:"graduated_hint,omitempty"`
}

type jsonExercise struct {
	Name           string   `json:"name"`
	Section        string   `json:"section"`
	File           string   `json:"file"`
	Status         string   `json:"status"`
	Lessons        []string `json:"lessons"`
	Drills         int      `json:"drills"`
	DrillsPassed   int      `json:"drills_passed"`
	Schedules      uint64   `json:"schedules"`
	Counterexample string   `json:"counterexample,omitempty"`
	DrillFile      string   `json:"drill_file,omitempty"`
	Hint           string   `json:"hint,omitempty"`
	Error          string   `json:"error,omitempty"`
}

func (o *checkOptions) jsonResults(results []*check.Result, done int) jsonCheckAll {
	g := o.g
	out := jsonCheckAll{Done: done, Total: len(results), Exercises: []jsonExercise{}}
	for _, r := range results {
		j := jsonExercise{Name: r.Exercise.Name, Section: r.Exercise.Section, File: r.Exercise.File, Status: string(r.Status),
			Lessons: []string{}, Drills: r.Drills, DrillsPassed: r.Passed, Schedules: r.Schedules, Hint: r.Hint(g.lang)}
		for _, l := range r.Lessons {
			j.Lessons = append(j.Lessons, check.LessonText(g.lang, l))
		}
		if r.Err != nil {
			j.Error = r.Err.Error()
		}
		if r.Shortest != nil {
			j.Counterexample = r.Shortest.Line(g.lang, r.Lessons[0])
			if file, err := r.Shortest.File(g.lang); err == nil {
				j.DrillFile = file
			}
		}
		out.Exercises = append(out.Exercises, j)
	}
	return out
}
