package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/exercises"
	"archlab/explore"
	"archlab/harness"
	"archlab/ui/status"
	"archlab/ui/term"
	"archlab/ui/view"
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
	// timeout is each exercise's time limit, as typed ("" for the
	// default); limit is it parsed.
	timeout string
	limit   time.Duration
	// watch is --watch: check again after every save (watch.go).
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
	case "exercism":
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
	return &couldNotRunError{Msg: g.t("check.err.stale", again)}
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
		return o.runWatch(ctx)
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
		if err := term.WriteJSON(g.io.Out, j); err != nil {
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

// render prints one line per exercise, with the shortest run, the hint and
// (with --show) the timeline and drill file under an exercise not done,
// then the progress.
func (o *checkOptions) render(results []*check.Result, done int) error {
	g := o.g
	r := g.renderer()
	para := o.para
	for _, res := range results {
		if err := o.renderOne(r, res); err != nil {
			return err
		}
		o.printedBy(r, res)
	}
	para(g.t("check.progress", done, len(results)), fmt.Sprint)
	return nil
}

// renderOne is one exercise's lines: its status, then for a pass the
// faults, for a hang where it was, for a failure the shortest run, where
// it parts from the book, the hint and (with --show) the whole run.
func (o *checkOptions) renderOne(r *term.Renderer, res *check.Result) error {
	g, out, para := o.g, o.g.io.Out, o.para
	e := res.Exercise
	tone := fmt.Sprint
	switch res.Status {
	case check.Done:
		tone = r.P.Good.Sprint
	case check.NotDone, check.Failed:
		tone = r.P.Bad.Sprint
	}
	para(o.line(res), tone)
	switch res.Status {
	case check.Done:
		if len(res.Faults) > 0 {
			para(g.t("check.detail.faults", term.GroupDigits(res.Walked), o.faults(res.Faults)), r.P.Dim.Sprint)
		}
		return nil
	case check.Hung:
		para(o.hang(res.Hang), fmt.Sprint)
		return nil
	case check.NotDone:
	default:
		return nil
	}
	if res.Shortest != nil {
		para(g.t("check.detail.shortest", res.Shortest.Line(g.lang, res.Lessons[0])), fmt.Sprint)
	}
	for _, l := range o.diagnosis(res.Diagnosis) {
		para(l, fmt.Sprint)
	}
	para(g.t("check.detail.hint", res.Hint(g.lang)), fmt.Sprint)
	if !o.show {
		para(g.t("check.detail.show", e.Name), r.P.Dim.Sprint)
		return nil
	}
	if res.Shortest == nil {
		return nil
	}
	steps, err := res.Shortest.Trace()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "\n"+g.t("check.detail.trace", e.Name))
	if err := r.Trace(steps); err != nil {
		return err
	}
	file, err := res.Shortest.File(g.lang)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "\n"+g.t("check.detail.file"))
	fmt.Fprint(out, file)
	fmt.Fprintln(out)
	return nil
}

// printedBy shows what the student's code printed while it was checked
// (its debugging output): how many lines, and the first few.
func (o *checkOptions) printedBy(r *term.Renderer, res *check.Result) {
	if res.PrintedLines == 0 {
		return
	}
	g := o.g
	o.para(g.t("check.detail.printed", term.GroupDigits(uint64(res.PrintedLines)), len(res.Printed)), r.P.Dim.Sprint)
	for _, l := range res.Printed {
		fmt.Fprintln(g.io.Out, "      │ "+term.Cut(l, g.width()-8))
	}
}

// diagnosis is where a failing run parts from the book's, in lines: the
// step, the book's answer, the student's, and the known mistake.
func (o *checkOptions) diagnosis(d *check.Diagnosis) []string {
	if d == nil {
		return nil
	}
	g := o.g
	at, book, yours := o.diagnosisTexts(d)
	out := []string{g.t("check.diag.at", d.Step, at), g.t("check.diag.book", book), g.t("check.diag.yours", yours)}
	if d.Mistake != "" {
		out = append(out, g.t("check.diag.mistake", check.MistakeText(g.lang, d.Mistake)))
	}
	return out
}

// diagnosisTexts is the parting step and each run's answer in words: each
// step as its action and result ("marks the key: marked"), "; " between.
func (o *checkOptions) diagnosisTexts(d *check.Diagnosis) (at, book, yours string) {
	g := o.g
	answer := func(steps []harness.Step) string {
		if len(steps) == 0 {
			return g.t("check.diag.nothing")
		}
		var parts []string
		for _, r := range view.Rows(g.lang, steps) {
			parts = append(parts, g.t("check.diag.step", r.Action, r.Result))
		}
		return strings.Join(parts, g.t("check.diag.sep"))
	}
	return view.Rows(g.lang, []harness.Step{d.At})[0].Action, answer(d.Book), answer(d.Yours)
}

// faults is a pass's fault counts in one line: "crash-before 1,434 ·
// lost-ack 1,434 · …", in the section's order.
func (o *checkOptions) faults(fs []explore.Count) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.Name+" "+term.GroupDigits(f.N))
	}
	return strings.Join(parts, " · ")
}

// hang says where a hung exercise's code was: the drill or schedule, and
// its last call.
func (o *checkOptions) hang(h *check.Hang) string {
	g := o.g
	where, verb := h.Where, h.Verb
	if where == "" {
		where = g.t("check.hung.unknown")
	}
	if verb == "" {
		verb = g.t("check.hung.no-call")
	}
	return g.t("check.detail.hung", where, verb)
}

// para prints text wrapped to the width, its continuation lines indented
// under the text, coloured line by line.
func (o *checkOptions) para(text string, tone func(...any) string) {
	g := o.g
	indent := text[:len(text)-len(strings.TrimLeft(text, " "))]
	for i, l := range term.WrapText(strings.TrimLeft(text, " "), g.width()-len(indent)-2) {
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
		return g.t("check.line.done", e.Name, e.Section, res.Drills, term.GroupDigits(res.Schedules))
	case check.NotStarted:
		return g.t("check.line.not-started", e.Name, e.Section, e.Func, e.File)
	case check.Failed:
		var none *check.NoResultError
		if errors.As(res.Err, &none) {
			return g.t("check.line.error", e.Name, e.Section, g.t("check.err.no-result", none.Why))
		}
		return g.t("check.line.error", e.Name, e.Section, res.Err)
	case check.Hung:
		return g.t("check.line.hung", e.Name, e.Section, g.duration(res.Hang.Limit))
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
	// Faults is how many schedules each fault class struck, in the
	// section's order (a pass requires every one above 0).
	Faults jsonFaults `json:"faults,omitempty"`
	// Timeout is where the code was when its time ran out.
	Timeout *jsonHang `json:"timeout,omitempty"`
	// Diagnosis is where the shortest run parts from the book's.
	Diagnosis *jsonDiagnosis `json:"diagnosis,omitempty"`
	// Printed is what the code printed while checked: the first lines and
	// the count.
	Printed *jsonPrinted `json:"printed,omitempty"`
}

// jsonPrinted is the student's code's own output in --json.
type jsonPrinted struct {
	Lines int      `json:"lines"`
	First []string `json:"first"`
}

// jsonDiagnosis is check.Diagnosis in --json, in words.
type jsonDiagnosis struct {
	Step        int    `json:"step"`
	At          string `json:"at"`
	Book        string `json:"the_book"`
	Yours       string `json:"yours"`
	Mistake     string `json:"mistake,omitempty"`
	MistakeText string `json:"mistake_text,omitempty"`
}

// jsonHang is a hung exercise in --json.
type jsonHang struct {
	Seconds  float64 `json:"limit_seconds"`
	Where    string  `json:"where"`
	LastCall string  `json:"last_call"`
}

// jsonFaults is an object whose keys keep the section's order, which a Go
// map would sort.
type jsonFaults []explore.Count

func (f jsonFaults) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(c.Name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s:%d", k, c.N)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object back in its order (a tool reading
// --json in Go, and the tests).
func (f *jsonFaults) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	*f = nil
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var n uint64
		if err := dec.Decode(&n); err != nil {
			return err
		}
		*f = append(*f, explore.Count{Name: k.(string), N: n})
	}
	return nil
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
		j.Faults = jsonFaults(r.Faults)
		if r.PrintedLines > 0 {
			j.Printed = &jsonPrinted{Lines: r.PrintedLines, First: r.Printed}
		}
		if d := r.Diagnosis; d != nil {
			at, book, yours := o.diagnosisTexts(d)
			j.Diagnosis = &jsonDiagnosis{Step: d.Step, At: at, Book: book, Yours: yours, Mistake: d.Mistake}
			if d.Mistake != "" {
				j.Diagnosis.MistakeText = check.MistakeText(g.lang, d.Mistake)
			}
		}
		if h := r.Hang; h != nil {
			j.Timeout = &jsonHang{Seconds: h.Limit.Seconds(), Where: h.Where, LastCall: h.Verb}
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
