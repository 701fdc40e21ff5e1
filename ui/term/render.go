package term

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/view"
)

// Renderer prints results for people: header, trace, table, verdict. It
// lays out what ui/view decided, as ui/web does for the page.
type Renderer struct {
	Out   io.Writer // results
	Err   io.Writer // the prompts at --step's pauses
	In    io.Reader // the keys Typed at the pauses
	Lang  i18n.Lang
	Width int // the columns output may take (ScreenWidth)
	P     Palette
	Step  bool // pause between phases (a terminal on both ends and --step)
	// Stopped: the reader typed q at a pause; the rest of the run is not
	// shown.
	Stopped bool
	Keys    *bufio.Reader // stdin, read a key at a time at the pauses
	// Broker: the line naming the real broker the run used, "" on the
	// model.
	Broker string
}

func (r *Renderer) out() io.Writer { return r.Out }

func (r *Renderer) t(key string, args ...any) string { return i18n.T(r.Lang, key, args...) }

// Header names the drill's place in the book and its title.
func (r *Renderer) Header(d *drills.Drill) {
	s := d.Sec()
	w := r.Width
	for _, l := range WrapText(r.t(s.TitleKey()), w) {
		fmt.Fprintln(r.out(), r.P.Dim.Sprint(l))
	}
	name := d.Name + " — "
	lines := WrapText(d.Title(r.Lang), w-DisplayWidth(name))
	fmt.Fprintf(r.out(), "%s — %s\n", r.P.Bold.Sprint(d.Name), lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintln(r.out(), strings.Repeat(" ", DisplayWidth(name))+l)
	}
	r.OnBroker()
}

// OnBroker says which real broker the run used; on the model, nothing.
func (r *Renderer) OnBroker() {
	if r.Broker != "" {
		fmt.Fprintln(r.out(), r.P.Dim.Sprint(r.Broker))
	}
}

// Drill prints one drill: header, optional trace, counter table, lesson
// checks and a verdict line.
func (r *Renderer) Drill(res *drills.Result, trace bool) error {
	r.Header(res.Drill)
	if w := view.WhatIf(r.Lang, res); w != "" {
		head := r.t("cli.what-if.head")
		if !strings.HasSuffix(head, "：") { // a Chinese colon has its own space
			head += " "
		}
		WriteHanging(r.out(), head, "  ", w, r.Width)
	}
	if trace {
		fmt.Fprintln(r.out())
		if err := r.Trace(res.Steps); err != nil {
			return err
		}
		if r.Stopped {
			// q at a pause: the ending is the lesson, so the counters,
			// the checks and the verdict are not given away (the page
			// keeps them for its last step too).
			WriteHanging(r.out(), "", "", r.P.Dim.Sprint(r.t("cli.step.stopped")), r.Width)
			return nil
		}
	}
	fmt.Fprintln(r.out())
	if err := r.Counters(res); err != nil {
		return err
	}
	for _, c := range view.Checks(r.Lang, res) {
		mark := r.P.Good.Sprint(c.Mark)
		if c.Mark != "✓" { // ✗ a broken lesson, ◆ a demonstrated failure
			mark = r.P.Bad.Sprint(c.Mark)
		}
		WriteHanging(r.out(), "  "+mark+" ", "    ", c.Text, r.Width)
	}
	v := view.VerdictOf(r.Lang, res)
	word := r.P.Good.Sprint(v.Word)
	if !v.Pass {
		word = r.P.Bad.Sprint(v.Word)
	}
	WriteHanging(r.out(), word+"  ", "      ", v.Text, r.Width)
	return nil
}

func (r *Renderer) mark(ok bool) string {
	if ok {
		return r.P.Good.Sprint("✓")
	}
	return r.P.Bad.Sprint("✗")
}

// Counters prints counter | value | book | ✓/✗; for a "what if" run,
// counter | value and the book's run as a greyed reference, not compared.
func (r *Renderer) Counters(res *drills.Result) error {
	tab := view.Counters(r.Lang, res)
	header := make([]any, 0, 4)
	for _, h := range tab.Header {
		header = append(header, h)
	}
	switch {
	case tab.Compared:
		header = append(header, "")
	case tab.Reference:
		header[2] = r.P.Dim.Sprint(header[2])
	}
	var rows [][]string
	for _, c := range tab.Rows {
		row := []string{c.Name, c.Value}
		switch {
		case tab.Compared:
			row = append(row, c.Expected, r.mark(*c.Match))
		case tab.Reference:
			row = append(row, r.P.Dim.Sprint(c.Expected))
		}
		rows = append(rows, row)
	}
	return r.Table(header, rows, false)
}

// Table renders rows with tablewriter's v1 API: box borders, headers as
// written (no upper-casing: counter names are the book's). With wrapLast
// the last column wraps at spaces to what the width leaves it. A table
// that cannot fit the width even so is printed as a list instead: one row
// a line, its last cell wrapped under it.
func (r *Renderer) Table(header []any, rows [][]string, wrapLast bool) error {
	width := r.Width
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
	if !wrapLast || last >= 12 {
		t := tablewriter.NewTable(&buf, opts...)
		cells := rows
		if wrapLast {
			// Wrapped here, not by tablewriter, whose wrapping breaks only
			// at spaces: a Chinese verdict has none, and would push the
			// table past the width.
			cells = make([][]string, len(rows))
			for i, row := range rows {
				cells[i] = slices.Clone(row)
				var lines []string
				for _, l := range strings.Split(row[len(row)-1], "\n") {
					lines = append(lines, WrapText(l, last)...)
				}
				cells[i][len(row)-1] = strings.Join(lines, "\n")
			}
		}
		t.Header(header...)
		if err := t.Bulk(cells); err != nil {
			return err
		}
		if err := t.Render(); err != nil {
			return err
		}
		if Fits(buf.String(), width) {
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
				narrow[c] = strings.Join(WrapText(fmt.Sprint(h), col), "\n")
				changed = changed || narrow[c] != h
			}
			if changed {
				var again strings.Builder
				t := tablewriter.NewTable(&again, opts...)
				t.Header(narrow...)
				if err := t.Bulk(rows); err != nil {
					return err
				}
				if err := t.Render(); err == nil && Fits(again.String(), width) {
					_, err := io.WriteString(r.out(), again.String())
					return err
				}
			}
		}
	}
	if !wrapLast && r.plainTable(header, rows) {
		return nil
	}
	// Too narrow for a table: each row's cells in one line, the last cell
	// below them; the column names first, in the same layout.
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = fmt.Sprint(h)
	}
	for _, row := range append([][]string{names}, rows...) {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = strings.ReplaceAll(c, "\n", " ")
		}
		// The row's first cells on a line of their own, the last one
		// (the widest: counters, a verdict) wrapped below them.
		if head := strings.Join(cells[:len(cells)-1], "  "); DisplayWidth(StripANSI(head)) <= width {
			fmt.Fprintln(r.out(), head)
		} else {
			WriteHanging(r.out(), "", "  ", head, width)
		}
		// The last cell's own lines stay lines.
		for _, l := range strings.Split(row[len(row)-1], "\n") {
			WriteHanging(r.out(), "    ", "    ", l, width)
		}
	}
	return nil
}

// plainTable writes a table too wide for its borders as aligned columns
// without them, header first, when that Fits the width; false when it does
// not either.
func (r *Renderer) plainTable(header []any, rows [][]string) bool {
	all := [][]string{make([]string, len(header))}
	for c, h := range header {
		all[0][c] = fmt.Sprint(h)
	}
	all = append(all, rows...)
	widths := make([]int, len(header))
	for _, row := range all {
		for c, cell := range row {
			if strings.Contains(cell, "\n") {
				return false
			}
			widths[c] = max(widths[c], cellWidth(cell))
		}
	}
	var b strings.Builder
	for _, row := range all {
		var line strings.Builder
		for c, cell := range row {
			line.WriteString(cell)
			if c < len(row)-1 {
				line.WriteString(strings.Repeat(" ", widths[c]-cellWidth(cell)+2))
			}
		}
		l := strings.TrimRight(line.String(), " ")
		if DisplayWidth(StripANSI(l)) > r.Width {
			return false
		}
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(r.out(), b.String())
	return err == nil
}

// cellWidth is the width of a table cell: its widest line.
func cellWidth(s string) int {
	w := 0
	for _, l := range strings.Split(StripANSI(s), "\n") {
		w = max(w, DisplayWidth(l))
	}
	return w
}

// Summary prints section | drill | result | counters for many drills and
// the final count line. paths, for the drills of --file DIR, are the
// files they came from: each row names its file under the drill.
func (r *Renderer) Summary(results []*drills.Result, paths []string) error {
	var rows [][]string
	pass := 0
	for i, res := range results {
		result := r.P.Bad.Sprint("FAIL")
		if res.Pass {
			result = r.P.Good.Sprint("PASS")
			pass++
		}
		name := res.Drill.Name
		if i < len(paths) {
			file := filepath.Base(paths[i])
			if file == name+".txtar" {
				name = file
			} else {
				name += "\n" + r.P.Dim.Sprint(file)
			}
		}
		rows = append(rows, []string{"§" + res.Drill.Section, name, result, counterLine(res)})
	}
	drill := r.t("cli.col.drill")
	if len(paths) > 0 {
		drill = r.t("cli.col.drill-file")
	}
	header := []any{r.t("cli.col.section"), drill, r.t("cli.col.result"), r.t("cli.col.counters")}
	r.OnBroker()
	// The counters column wraps so the summary Fits a projector.
	if err := r.Table(header, rows, true); err != nil {
		return err
	}
	_, err := fmt.Fprintln(r.out(), r.t(harness.Plural("cli.summary", len(results)), len(results), pass, len(results)-pass))
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

// Trace prints the numbered timeline, grouped by phase, in aligned columns:
// n, actor -> target, action, result. With --step on a terminal it waits for
// Enter between phases.
func (r *Renderer) Trace(steps []drills.Step) error {
	rows := view.Rows(r.Lang, steps)
	who := make([]string, len(rows))
	whoW, whatW := 0, 0
	for i, row := range rows {
		who[i] = row.From + " -> " + row.To
		whoW = max(whoW, DisplayWidth(who[i]))
	}
	numW := len(fmt.Sprint(len(steps)))
	// The action column is as wide as the widest action that still leaves
	// room for its result beside it; a longer action (a SQL statement, a
	// long write) wraps with its result below, rather than pushing every
	// other step's result onto a line of its own.
	room := r.Width - (numW + 2 + whoW + 2) - 2
	for _, row := range rows {
		w := DisplayWidth(row.Action)
		if w <= wideAction && w+DisplayWidth(row.Named) <= room {
			whatW = max(whatW, w)
		}
	}
	for i, s := range steps {
		if i == 0 || s.Phase != steps[i-1].Phase {
			if i > 0 && r.Step && !r.Stopped {
				if err := r.Pause(r.t("cli.step.press-enter", r.t(s.Phase.Key()))); err != nil {
					return err
				}
			}
			if r.Stopped {
				return nil
			}
			fmt.Fprintln(r.out(), r.P.Bold.Sprint("["+r.t(s.Phase.Key())+"]"))
		}
		result, what := rows[i].Named, rows[i].Action // "harm: …" for the damage
		tone := func(l string) string {
			switch s.Tone {
			case drills.Good:
				return r.P.Good.Sprint(l)
			case drills.Bad, drills.Harm:
				return r.P.Bad.Sprint(l)
			}
			return l
		}
		width := r.Width
		num := fmt.Sprintf("%*d  %s  ", numW, i+1, columns.FillRight(who[i], whoW))
		indent := strings.Repeat(" ", numW+2+whoW+2)
		if DisplayWidth(num)+whatW+2+DisplayWidth(result) <= width && DisplayWidth(what) <= whatW {
			fmt.Fprintf(r.out(), "%s%s  %s\n", num, columns.FillRight(what, whatW), tone(result))
			continue
		}
		// Too wide for a projector: the action wraps under itself (a SQL
		// statement does not widen the column for the other steps), and
		// the result goes on its own line, under the action it belongs to.
		room := max(width-len(indent), 20)
		for j, l := range WrapText(what, room) {
			if j == 0 {
				fmt.Fprintln(r.out(), strings.TrimRight(num+l, " "))
			} else {
				fmt.Fprintln(r.out(), indent+l)
			}
		}
		for _, l := range WrapText(result, room) {
			fmt.Fprintln(r.out(), indent+tone(l))
		}
	}
	return nil
}

// wideAction is the widest action that sets the width of the action column;
// a wider one (a SQL statement, with --store sqlite) wraps instead.
const wideAction = 48
