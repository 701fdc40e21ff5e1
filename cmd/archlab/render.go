package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"archlab/drills"
)

// renderer prints drill results for people: header, trace, table, verdict.
type renderer struct {
	g    *globalOptions
	p    palette
	step bool // pause between phases (a terminal on both ends and --step)
}

func (r *renderer) out() io.Writer { return r.g.io.Out }

// msg renders a recorded message in the reader's language.
func (r *renderer) msg(m drills.Msg) string { return r.g.t(m.Key, m.Args...) }

// actor is the display name of a role: the catalogue's, or "shard N" for
// the shard-N roles of 11.2.
func (r *renderer) actor(role string) string {
	if n, ok := strings.CutPrefix(role, "shard-"); ok {
		return r.g.t("actor.shard", n)
	}
	return r.g.t("actor." + role)
}

// header names the drill's place in the book and its title.
func (r *renderer) header(d *drills.Drill) {
	s, _ := drills.SectionByID(d.Section)
	fmt.Fprintln(r.out(), r.p.dim.Sprint(r.g.t(s.TitleKey())))
	fmt.Fprintf(r.out(), "%s — %s\n", r.p.bold.Sprint(d.Name), r.g.t(d.TitleKey()))
}

// drill prints one drill: header, optional trace, counter table, lesson
// checks and a verdict line.
func (r *renderer) drill(res *drills.Result, trace bool) error {
	r.header(res.Drill)
	if trace {
		fmt.Fprintln(r.out())
		if err := r.trace(res.Steps); err != nil {
			return err
		}
	}
	fmt.Fprintln(r.out())
	if err := r.counters(res); err != nil {
		return err
	}
	for _, c := range res.Checks {
		fmt.Fprintf(r.out(), "  %s %s\n", r.mark(c.OK), r.g.t(c.Key))
	}
	fmt.Fprintln(r.out(), r.verdict(res))
	return nil
}

func (r *renderer) mark(ok bool) string {
	if ok {
		return r.p.good.Sprint("✓")
	}
	return r.p.bad.Sprint("✗")
}

// counters prints counter | value | book | ✓/✗, or counter | value when the
// run is not compared with the book.
func (r *renderer) counters(res *drills.Result) error {
	expected := r.g.t("cli.col.book")
	switch {
	case !res.Drill.Builtin:
		expected = r.g.t("cli.col.expect")
	case res.Drill.LabOnly:
		expected = r.g.t("cli.col.lab")
	}
	header := []any{r.g.t("cli.col.counter"), r.g.t("cli.col.value")}
	if res.Compared {
		header = append(header, expected, "")
	}
	var rows [][]string
	for _, c := range res.Counters {
		row := []string{c.Name, c.Value}
		if res.Compared {
			row = append(row, *c.Book, r.mark(*c.Match))
		}
		rows = append(rows, row)
	}
	return r.table(header, rows, 0)
}

// table renders rows with tablewriter's v1 API: box borders, headers as
// written (no upper-casing: counter names are the book's).
// With wrapLast > 0 the last column wraps at spaces past that width.
func (r *renderer) table(header []any, rows [][]string, wrapLast int) error {
	opts := []tablewriter.Option{
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	}
	t := tablewriter.NewTable(r.out(), opts...)
	if wrapLast > 0 {
		t.Configure(func(cfg *tablewriter.Config) {
			cfg.Row.Formatting.AutoWrap = tw.WrapNormal
			cfg.Row.ColMaxWidths.PerColumn = tw.Mapper[int, int]{len(header) - 1: wrapLast}
		})
	}
	t.Header(header...)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// verdict is the drill's one-line verdict.
func (r *renderer) verdict(res *drills.Result) string {
	held := 0
	for _, c := range res.Checks {
		if c.OK {
			held++
		}
	}
	name := res.Drill.Name
	if !res.Pass {
		return r.p.bad.Sprint("FAIL") + "  " + failureReason(r.g, res)
	}
	key := "cli.verdict.book"
	switch {
	case len(res.Drill.Book) == 0:
		key = "cli.verdict.no-expect"
	case !res.Compared:
		key = "cli.verdict.not-compared"
	case !res.Drill.Builtin:
		key = "cli.verdict.file"
	case res.Drill.LabOnly:
		key = "cli.verdict.lab"
	}
	return r.p.good.Sprint("PASS") + "  " + r.g.t(key, name, len(res.Counters), held, len(res.Checks))
}

// summary prints section | drill | result | counters for many drills and
// the final count line.
func (r *renderer) summary(results []*drills.Result) error {
	var rows [][]string
	pass := 0
	for _, res := range results {
		result := r.p.bad.Sprint("FAIL")
		if res.Pass {
			result = r.p.good.Sprint("PASS")
			pass++
		}
		rows = append(rows, []string{"§" + res.Drill.Section, res.Drill.Name, result, counterLine(res)})
	}
	header := []any{r.g.t("cli.col.section"), r.g.t("cli.col.drill"), r.g.t("cli.col.result"), r.g.t("cli.col.counters")}
	// The counters column wraps so the summary fits a projector.
	if err := r.table(header, rows, 48); err != nil {
		return err
	}
	_, err := fmt.Fprintln(r.out(), r.g.t("cli.summary", len(results), pass, len(results)-pass))
	return err
}

// counterLine prints counters the way the book's test log does:
// name=value separated by spaces.
func counterLine(res *drills.Result) string {
	parts := make([]string, len(res.Counters))
	for i, c := range res.Counters {
		parts[i] = c.Name + "=" + c.Value
	}
	return strings.Join(parts, " ")
}

// trace prints the numbered timeline, grouped by phase, in aligned columns:
// n, actor -> target, action, result. With --step on a terminal it waits for
// Enter between phases.
func (r *renderer) trace(steps []drills.Step) error {
	who := make([]string, len(steps))
	what := make([]string, len(steps))
	whoW, whatW := 0, 0
	for i, s := range steps {
		who[i] = r.actor(s.Actor) + " -> " + r.actor(s.Target)
		what[i] = r.msg(s.Action)
		whoW = max(whoW, runewidth.StringWidth(who[i]))
		if w := runewidth.StringWidth(what[i]); w <= wideAction {
			whatW = max(whatW, w)
		}
	}
	numW := len(fmt.Sprint(len(steps)))
	in := bufio.NewReader(r.g.io.In)
	for i, s := range steps {
		if i == 0 || s.Phase != steps[i-1].Phase {
			if i > 0 && r.step && !r.waitEnter(in, s.Phase) {
				return nil
			}
			fmt.Fprintln(r.out(), r.p.bold.Sprint("["+r.g.t(s.Phase.Key())+"]"))
		}
		result := r.msg(s.Result)
		switch s.Tone {
		case drills.Good:
			result = r.p.good.Sprint(result)
		case drills.Bad:
			result = r.p.bad.Sprint(result)
		}
		if runewidth.StringWidth(what[i]) > wideAction {
			// A SQL statement: it does not widen the column for the other
			// steps; it wraps at spaces under itself, its result below it.
			indent := strings.Repeat(" ", numW+2+whoW+2)
			lines := wrapWords(what[i], traceWidth-len(indent))
			fmt.Fprintf(r.out(), "%*d  %s  %s\n", numW, i+1, runewidth.FillRight(who[i], whoW), strings.Join(lines, "\n"+indent))
			fmt.Fprintf(r.out(), "%s%s\n", indent, result)
			continue
		}
		line := fmt.Sprintf("%*d  %s  %s", numW, i+1, runewidth.FillRight(who[i], whoW), runewidth.FillRight(what[i], whatW))
		if width := runewidth.StringWidth(line) + 2 + runewidth.StringWidth(r.msg(s.Result)); width > traceWidth {
			// Too wide for a projector: the result goes on its own line,
			// under the action it belongs to.
			line = strings.TrimRight(line, " ") + "\n" + strings.Repeat(" ", numW+2+whoW)
		}
		fmt.Fprintf(r.out(), "%s  %s\n", line, result)
	}
	return nil
}

// traceWidth is the width a timeline line may take before its result wraps:
// a classroom terminal or projector.
const traceWidth = 80

// wideAction is the widest action that sets the width of the action column;
// a wider one (a SQL statement, with --store sqlite) wraps instead.
const wideAction = 48

// wrapWords breaks s at spaces into lines of at most width columns (a word
// longer than width gets a line of its own).
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && runewidth.StringWidth(line)+1+runewidth.StringWidth(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// displayWidth is the terminal width of s: CJK characters take two columns.
func displayWidth(s string) int { return runewidth.StringWidth(s) }

// waitEnter asks for Enter before the next phase; false means stdin closed.
func (r *renderer) waitEnter(in *bufio.Reader, next drills.Phase) bool {
	fmt.Fprint(r.g.io.Err, r.p.dim.Sprint(r.g.t("cli.step.press-enter", r.g.t(next.Key()))))
	_, err := in.ReadString('\n')
	return err == nil
}
