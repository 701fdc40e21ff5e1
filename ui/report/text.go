package report

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"archlab/check"
	"archlab/explore"
	"archlab/harness"
	"archlab/ui/term"
	"archlab/ui/view"
)

// Text prints one line per exercise, with the shortest run, the hint and
// (with --show) the timeline and drill file under an exercise not done,
// then the progress.
func (r *Report) Text(results []*check.Result, done int) error {
	for _, res := range results {
		if err := r.renderOne(res); err != nil {
			return err
		}
		r.printedBy(res)
	}
	r.Para(r.t("check.progress", done, len(results)), fmt.Sprint)
	return nil
}

// renderOne is one exercise's lines: its status, then for a pass the
// faults, for a hang where it was, for a failure the shortest run, where
// it parts from the book, the hint and (with --show) the whole run.
func (r *Report) renderOne(res *check.Result) error {
	out, para := r.Out, r.Para
	e := res.Exercise
	tone := fmt.Sprint
	switch res.Status {
	case check.Done:
		tone = r.P.Good.Sprint
	case check.NotDone, check.Failed:
		tone = r.P.Bad.Sprint
		if check.Unjudged(res) {
			tone = fmt.Sprint // the machine's, not the code's
		}
	}
	para(r.line(res), tone)
	switch res.Status {
	case check.Done:
		if len(res.Clauses) > 0 {
			para(r.t("check.detail.clauses", term.GroupDigits(res.ModelCalls), r.clauses(res.Clauses)), r.P.Dim.Sprint)
		}
		if len(res.Faults) > 0 {
			para(r.t("check.detail.faults", term.GroupDigits(res.Walked), r.faults(res.Faults)), r.P.Dim.Sprint)
		}
		if res.WideSkipped {
			para(r.t("check.detail.wide-skipped"), r.P.Dim.Sprint)
		}
		r.differences(res)
		return nil
	case check.Hung:
		para(r.hang(res.Hang), fmt.Sprint)
		return nil
	case check.NotDone:
	default:
		return nil
	}
	switch {
	case res.Calls != nil:
		r.calls(res.Calls)
	case res.Race != nil:
		r.race(res.Race)
	case res.Shortest != nil:
		para(r.t("check.detail.shortest", res.Shortest.Line(r.Lang, res.Lessons[0])), fmt.Sprint)
		if len(res.Shortest.Legend) > 0 {
			para("      "+r.t("explore.legend.messages", strings.Join(res.Shortest.Legend, " ")), r.P.Dim.Sprint)
		}
	}
	for _, l := range r.diagnosis(res.Diagnosis) {
		para(l, fmt.Sprint)
	}
	if res.Mistake != "" {
		para(r.t("check.diag.mistake", check.MistakeText(r.Lang, res.Mistake)), fmt.Sprint)
	}
	r.differences(res)
	para(r.t("check.detail.hint", res.Hint(r.Lang)), fmt.Sprint)
	if res.Calls != nil {
		if !r.Show {
			para(r.t("check.detail.show-test", r.cmd(), e.Name), r.P.Dim.Sprint)
			return nil
		}
		r.heading(r.t("check.detail.test", res.Calls.TestFile(), res.Calls.TestName()))
		fmt.Fprint(out, res.Calls.GoTest)
		return nil
	}
	if res.Race != nil || res.Shortest == nil {
		return nil // no run to show (a lesson with no run: state kept, the book's type)
	}
	if !r.Show {
		para(r.t("check.detail.show", r.cmd(), e.Name), r.P.Dim.Sprint)
		return nil
	}

	steps, err := res.Shortest.Trace()
	if err != nil {
		return err
	}
	r.heading(r.t("check.detail.trace", e.Name))
	if err := r.Trace(steps); err != nil {
		return err
	}
	file, err := res.Shortest.File(r.Lang)
	if err != nil {
		return err
	}
	r.heading(r.t("check.detail.file", r.cmd(), FileName(file)))
	fmt.Fprint(out, file)
	fmt.Fprintln(out)
	return nil
}

// differences says where the code is safer than the book's design, and
// how it differs from it with no harm seen: what informs, never the
// verdict.
func (r *Report) differences(res *check.Result) {
	for _, l := range res.Safer {
		r.Para(r.t("check.detail.safer", check.DifferenceText(r.Lang, l)), r.P.Good.Sprint)
	}
	for _, l := range res.Differences {
		r.Para(r.t("check.detail.difference", check.DifferenceText(r.Lang, l)), r.P.Dim.Sprint)
	}
}

// heading is what --show prints above a run, a test or a file, after an
// empty line: its first line wrapped to the screen, and a command on the
// line after it whole, to be copied as it is.
func (r *Report) heading(text string) {
	fmt.Fprintln(r.Out)
	first, command, _ := strings.Cut(text, "\n")
	r.Para(first, fmt.Sprint)
	if command != "" {
		fmt.Fprintln(r.Out, command)
	}
}

// printedBy shows what the student's code printed while it was checked
// (its debugging output): how many lines, and the first few.
func (r *Report) printedBy(res *check.Result) {
	if res.PrintedLines == 0 {
		return
	}
	r.Para(r.t("check.detail.printed", term.GroupDigits(uint64(res.PrintedLines)), len(res.Printed)), r.P.Dim.Sprint)
	for _, l := range res.Printed {
		fmt.Fprintln(r.Out, "      │ "+term.Cut(l, r.Width-8))
	}
}

// diagnosis is where a failing run parts from the book's, in lines: the
// step, the book's answer, the student's, and the known mistake.
func (r *Report) diagnosis(d *check.Diagnosis) []string {
	if d == nil {
		return nil
	}
	at, book, yours := r.diagnosisTexts(d)
	return []string{r.t("check.diag.at", d.Step, at), r.t("check.diag.book", book), r.t("check.diag.yours", yours)}
}

// diagnosisTexts is the parting step and each run's answer in words: each
// step as its action and result ("marks the key: marked"), "; " between.
func (r *Report) diagnosisTexts(d *check.Diagnosis) (at, book, yours string) {
	answer := func(steps []harness.Step) string {
		if len(steps) == 0 {
			return r.t("check.diag.nothing")
		}
		var parts []string
		for _, row := range view.Rows(r.Lang, steps) {
			parts = append(parts, r.t("check.diag.step", row.Action, row.Result))
		}
		return strings.Join(parts, r.t("check.diag.sep"))
	}
	return view.Rows(r.Lang, []harness.Step{d.At})[0].Action, answer(d.Book), answer(d.Yours)
}

// faults is a pass's fault counts in one line: "crash-before 1,434 ·
// lost-ack 1,434 · …", in the section's order.
func (r *Report) faults(fs []explore.Count) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.Name+" "+term.GroupDigits(f.N))
	}
	return strings.Join(parts, " · ")
}

// hang says where a hung exercise's code was: the drill or schedule, and
// its last call.
func (r *Report) hang(h *check.Hang) string {
	where, verb := h.Where, h.Verb
	if where == "" {
		where = r.t("check.hung.unknown")
	}
	if verb == "" {
		verb = r.t("check.hung.no-call")
	}
	return r.t("check.detail.hung", where, verb)
}

// Para prints text wrapped to the width, its continuation lines indented
// under the text, coloured line by line.
func (r *Report) Para(text string, tone func(...any) string) {
	indent := text[:len(text)-len(strings.TrimLeft(text, " "))]
	for i, l := range term.WrapText(strings.TrimLeft(text, " "), r.Width-len(indent)-2) {
		if i > 0 {
			l = "  " + l
		}
		fmt.Fprintln(r.Out, tone(indent+l))
	}
}

// line is an exercise's one line: its status and what it comes to.
func (r *Report) line(res *check.Result) string {
	e := res.Exercise
	switch res.Status {
	case check.Done:
		return r.t("check.line.done", e.Name, e.Section.ID, res.Drills, term.GroupDigits(res.Schedules))
	case check.NotStarted:
		return r.t("check.line.not-started", e.Name, e.Section.ID, e.Func, e.File)
	case check.Failed:
		var none *check.NoResultError
		var limit *check.LimitError
		switch {
		case errors.Is(res.Err, check.ErrTooBusy):
			return r.t("check.line.unjudged", e.Name, e.Section.ID, r.t("check.why.busy"))
		case errors.As(res.Err, &limit):
			return r.t("check.line.unjudged", e.Name, e.Section.ID, limit.Why)
		}
		if errors.As(res.Err, &none) {
			return r.t("check.line.error", e.Name, e.Section.ID, r.t("check.err.no-result", none.Why))
		}
		return r.t("check.line.error", e.Name, e.Section.ID, res.Err)
	case check.Hung:
		return r.t("check.line.hung", e.Name, e.Section.ID, term.Duration(r.Lang, res.Hang.Limit))
	}
	return r.t("check.line.not-done", e.Name, e.Section.ID, check.LessonText(r.Lang, res.Lessons[0]))
}

// calls is the model's counterexample: each call, numbered, with its
// answer where both sides agree; at the last, each answer where they part,
// the book's and the student's.
func (r *Report) calls(c *check.CallRun) {
	head := "check.calls.head"
	if len(c.Calls) == 1 {
		head += ".one"
	}
	r.Para(r.t(head, len(c.Calls), c.Type), fmt.Sprint)
	for i, call := range c.Calls {
		n := i + 1
		if i < len(c.Calls)-1 {
			r.Para(r.t("check.calls.same", n, call.Text, call.Yours[0].Value), fmt.Sprint)
			continue
		}
		if call.Book[0] != call.Yours[0] {
			r.Para(r.t("check.calls.call", n, call.Text), fmt.Sprint)
			r.Para(r.t("check.calls.book", call.Book[0].Value), r.P.Good.Sprint)
			r.Para(r.t("check.calls.yours", call.Yours[0].Value), r.P.Bad.Sprint)
		} else {
			r.Para(r.t("check.calls.same", n, call.Text, call.Yours[0].Value), fmt.Sprint)
		}
		for j := 1; j < len(call.Book); j++ {
			if j < len(call.Yours) && call.Book[j] != call.Yours[j] {
				r.Para(r.t("check.calls.read", call.Book[j].What, call.Book[j].Value, call.Yours[j].Value), fmt.Sprint)
			}
		}
	}
}

// race is calls made at once that no order explains, or that crashed the
// student's code.
func (r *Report) race(rc *check.RaceRun) {
	if rc.Fatal != "" {
		r.Para(r.t("check.race.fatal", rc.Fatal), fmt.Sprint)
		r.Para(r.t("check.race.calls", rc.Race), fmt.Sprint)
		return
	}
	r.Para(r.t("check.race.head", len(rc.Calls)), fmt.Sprint)
	for _, c := range rc.Calls {
		r.Para(r.t("check.race.call", c), r.P.Bad.Sprint)
	}
	r.Para(r.t("check.race.book", strings.Join(rc.Book, r.t("check.diag.sep"))), r.P.Good.Sprint)
}

// clauses is a pass's clause counts in one line: "new-key 2,969 ·
// duplicate 1,403 · …", in the doc comment's order.
func (r *Report) clauses(cs []check.ClauseCount) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Name+" "+term.GroupDigits(c.N))
	}
	return strings.Join(parts, " · ")
}

// FileName is the name a drill file is saved as: its drill's name, as the
// comment opening the file says ("Replay it with archlab drill --file
// explore-inbox-student.txtar"), so the heading and the file name one
// file; FILE when it names none a shell would take as it is.
func FileName(file string) string {
	for _, l := range strings.Split(file, "\n") {
		if name, ok := strings.CutPrefix(l, "drill "); ok {
			if plainName.MatchString(name) {
				return name + ".txtar"
			}
			break
		}
	}
	return "FILE"
}

// plainName is a drill's name as a shell takes it unquoted.
var plainName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
