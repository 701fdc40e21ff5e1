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
	w := r.g.width()
	for _, l := range wrapText(r.g.t(s.TitleKey()), w) {
		fmt.Fprintln(r.out(), r.p.dim.Sprint(l))
	}
	name := d.Name + " — "
	lines := wrapText(r.g.t(d.TitleKey()), w-displayWidth(name))
	fmt.Fprintf(r.out(), "%s — %s\n", r.p.bold.Sprint(d.Name), lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintln(r.out(), strings.Repeat(" ", displayWidth(name))+l)
	}
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
		writeHanging(r.out(), "  "+r.mark(c.OK)+" ", "    ", r.g.t(c.Key), r.g.width())
	}
	word, rest, _ := strings.Cut(r.verdict(res), "  ")
	writeHanging(r.out(), word+"  ", "      ", rest, r.g.width())
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
	return r.table(header, rows, false)
}

// table renders rows with tablewriter's v1 API: box borders, headers as
// written (no upper-casing: counter names are the book's). With wrapLast
// the last column wraps at spaces to what the width leaves it. A table
// that cannot fit the width even so is printed as a list instead: one row
// a line, its last cell wrapped under it.
func (r *renderer) table(header []any, rows [][]string, wrapLast bool) error {
	width := r.g.width()
	last := 0
	if wrapLast {
		// Borders and padding: "│ " before each column, " │" after the last.
		used := 1 + 3*len(header)
		for c := 0; c < len(header)-1; c++ {
			col := cellWidth(fmt.Sprint(header[c]))
			for _, row := range rows {
				col = max(col, cellWidth(row[c]))
			}
			used += col
		}
		last = width - used
	}
	var buf strings.Builder
	opts := []tablewriter.Option{
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	}
	if !wrapLast || last >= 16 {
		t := tablewriter.NewTable(&buf, opts...)
		if wrapLast {
			t.Configure(func(cfg *tablewriter.Config) {
				cfg.Row.Formatting.AutoWrap = tw.WrapNormal
				cfg.Row.ColMaxWidths.PerColumn = tw.Mapper[int, int]{len(header) - 1: last}
			})
		}
		t.Header(header...)
		if err := t.Bulk(rows); err != nil {
			return err
		}
		if err := t.Render(); err != nil {
			return err
		}
		if fits(buf.String(), width) {
			_, err := io.WriteString(r.out(), buf.String())
			return err
		}
		if !wrapLast {
			// Long column titles over short numbers: wrap the titles to
			// their column's widest cell, then try again.
			narrow := make([]any, len(header))
			changed := false
			for c, h := range header {
				col := 8
				for _, row := range rows {
					col = max(col, cellWidth(row[c]))
				}
				narrow[c] = strings.Join(wrapText(fmt.Sprint(h), col), "\n")
				changed = changed || narrow[c] != h
			}
			if changed {
				var again strings.Builder
				t := tablewriter.NewTable(&again, opts...)
				t.Header(narrow...)
				if err := t.Bulk(rows); err != nil {
					return err
				}
				if err := t.Render(); err == nil && fits(again.String(), width) {
					_, err := io.WriteString(r.out(), again.String())
					return err
				}
			}
		}
	}
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = strings.ReplaceAll(c, "\n", " ")
		}
		writeHanging(r.out(), "", "    ", strings.Join(cells, "  "), width)
	}
	return nil
}

// cellWidth is the width of a table cell: its widest line.
func cellWidth(s string) int {
	w := 0
	for _, l := range strings.Split(stripANSI(s), "\n") {
		w = max(w, displayWidth(l))
	}
	return w
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
	if err := r.table(header, rows, true); err != nil {
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
		tone := func(l string) string {
			switch s.Tone {
			case drills.Good:
				return r.p.good.Sprint(l)
			case drills.Bad:
				return r.p.bad.Sprint(l)
			}
			return l
		}
		width := r.g.width()
		num := fmt.Sprintf("%*d  %s  ", numW, i+1, runewidth.FillRight(who[i], whoW))
		indent := strings.Repeat(" ", numW+2+whoW+2)
		if displayWidth(num)+whatW+2+displayWidth(result) <= width && displayWidth(what[i]) <= whatW {
			fmt.Fprintf(r.out(), "%s%s  %s\n", num, runewidth.FillRight(what[i], whatW), tone(result))
			continue
		}
		// Too wide for a projector: the action wraps under itself (a SQL
		// statement does not widen the column for the other steps), and
		// the result goes on its own line, under the action it belongs to.
		room := max(width-len(indent), 20)
		for j, l := range wrapText(what[i], room) {
			if j == 0 {
				fmt.Fprintln(r.out(), strings.TrimRight(num+l, " "))
			} else {
				fmt.Fprintln(r.out(), indent+l)
			}
		}
		for _, l := range wrapText(result, room) {
			fmt.Fprintln(r.out(), indent+tone(l))
		}
	}
	return nil
}

// wideAction is the widest action that sets the width of the action column;
// a wider one (a SQL statement, with --store sqlite) wraps instead.
const wideAction = 48

// waitEnter asks for Enter before the next phase; false means stop: stdin
// closed (Ctrl-D) or the reader typed q. On a terminal the prompt erases
// itself once answered, so the screen holds only the drill.
func (r *renderer) waitEnter(in *bufio.Reader, next drills.Phase) bool {
	fmt.Fprint(r.g.io.Err, r.p.dim.Sprint(r.g.t("cli.step.press-enter", r.g.t(next.Key()))))
	line, err := in.ReadString('\n')
	fmt.Fprint(r.g.io.Err, "\r\x1b[1A\x1b[2K")
	return err == nil && strings.TrimSpace(strings.ToLower(line)) != "q"
}
