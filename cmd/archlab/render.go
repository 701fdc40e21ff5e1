package main

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
	"archlab/ui/view"
)

// renderer prints drill results for people: header, trace, table, verdict.
type renderer struct {
	g    *globalOptions
	p    palette
	step bool // pause between phases (a terminal on both ends and --step)
	// stopped: the reader typed q at a pause; the rest is shown without
	// its timeline.
	stopped bool
	keys    *bufio.Reader // stdin, read a key at a time at the pauses
	// broker: the line naming the real broker the run used, "" on the
	// model.
	broker string
}

func (r *renderer) out() io.Writer { return r.g.io.Out }

// header names the drill's place in the book and its title.
func (r *renderer) header(d *drills.Drill) {
	s, _ := drills.SectionByID(d.Section)
	w := r.g.width()
	for _, l := range wrapText(r.g.t(s.TitleKey()), w) {
		fmt.Fprintln(r.out(), r.p.dim.Sprint(l))
	}
	name := d.Name + " — "
	lines := wrapText(d.Title(r.g.lang), w-displayWidth(name))
	fmt.Fprintf(r.out(), "%s — %s\n", r.p.bold.Sprint(d.Name), lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintln(r.out(), strings.Repeat(" ", displayWidth(name))+l)
	}
	r.onBroker()
}

// onBroker says which real broker the run used; on the model, nothing.
func (r *renderer) onBroker() {
	if r.broker != "" {
		fmt.Fprintln(r.out(), r.p.dim.Sprint(r.broker))
	}
}

// drill prints one drill: header, optional trace, counter table, lesson
// checks and a verdict line.
func (r *renderer) drill(res *drills.Result, trace bool) error {
	r.header(res.Drill)
	if w := view.WhatIf(r.g.lang, res); w != "" {
		head := r.g.t("cli.what-if.head")
		if !strings.HasSuffix(head, "：") { // a Chinese colon has its own space
			head += " "
		}
		writeHanging(r.out(), head, "  ", w, r.g.width())
	}
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
	for _, c := range view.Checks(r.g.lang, res) {
		mark := r.p.good.Sprint(c.Mark)
		if c.Mark != "✓" { // ✗ a broken lesson, ◆ a demonstrated failure
			mark = r.p.bad.Sprint(c.Mark)
		}
		writeHanging(r.out(), "  "+mark+" ", "    ", c.Text, r.g.width())
	}
	v := view.VerdictOf(r.g.lang, res)
	word := r.p.good.Sprint(v.Word)
	if !v.Pass {
		word = r.p.bad.Sprint(v.Word)
	}
	writeHanging(r.out(), word+"  ", "      ", v.Text, r.g.width())
	return nil
}

func (r *renderer) mark(ok bool) string {
	if ok {
		return r.p.good.Sprint("✓")
	}
	return r.p.bad.Sprint("✗")
}

// counters prints counter | value | book | ✓/✗; for a "what if" run,
// counter | value and the book's run as a greyed reference, not compared.
func (r *renderer) counters(res *drills.Result) error {
	tab := view.Counters(r.g.lang, res)
	header := make([]any, 0, 4)
	for _, h := range tab.Header {
		header = append(header, h)
	}
	switch {
	case tab.Compared:
		header = append(header, "")
	case tab.Reference:
		header[2] = r.p.dim.Sprint(header[2])
	}
	var rows [][]string
	for _, c := range tab.Rows {
		row := []string{c.Name, c.Value}
		switch {
		case tab.Compared:
			row = append(row, c.Expected, r.mark(*c.Match))
		case tab.Reference:
			row = append(row, r.p.dim.Sprint(c.Expected))
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
					lines = append(lines, wrapText(l, last)...)
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
	if !wrapLast && r.plainTable(header, rows) {
		return nil
	}
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = strings.ReplaceAll(c, "\n", " ")
		}
		// The row's first cells on a line of their own, the last one
		// (the widest: counters, a verdict) wrapped below them.
		if head := strings.Join(cells[:len(cells)-1], "  "); displayWidth(stripANSI(head)) <= width {
			fmt.Fprintln(r.out(), head)
		} else {
			writeHanging(r.out(), "", "  ", head, width)
		}
		writeHanging(r.out(), "    ", "    ", cells[len(cells)-1], width)
	}
	return nil
}

// plainTable writes a table too wide for its borders as aligned columns
// without them, header first, when that fits the width; false when it does
// not either.
func (r *renderer) plainTable(header []any, rows [][]string) bool {
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
		if displayWidth(stripANSI(l)) > r.g.width() {
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
	for _, l := range strings.Split(stripANSI(s), "\n") {
		w = max(w, displayWidth(l))
	}
	return w
}

// summary prints section | drill | result | counters for many drills and
// the final count line. paths, for the drills of --file DIR, are the
// files they came from: each row names its file under the drill.
func (r *renderer) summary(results []*drills.Result, paths []string) error {
	var rows [][]string
	pass := 0
	for i, res := range results {
		result := r.p.bad.Sprint("FAIL")
		if res.Pass {
			result = r.p.good.Sprint("PASS")
			pass++
		}
		name := res.Drill.Name
		if i < len(paths) {
			file := filepath.Base(paths[i])
			if file == name+".txtar" {
				name = file
			} else {
				name += "\n" + r.p.dim.Sprint(file)
			}
		}
		rows = append(rows, []string{"§" + res.Drill.Section, name, result, counterLine(res)})
	}
	drill := r.g.t("cli.col.drill")
	if len(paths) > 0 {
		drill = r.g.t("cli.col.drill-file")
	}
	header := []any{r.g.t("cli.col.section"), drill, r.g.t("cli.col.result"), r.g.t("cli.col.counters")}
	r.onBroker()
	// The counters column wraps so the summary fits a projector.
	if err := r.table(header, rows, true); err != nil {
		return err
	}
	_, err := fmt.Fprintln(r.out(), r.g.t(harness.Plural("cli.summary", len(results)), len(results), pass, len(results)-pass))
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
	rows := view.Rows(r.g.lang, steps)
	who := make([]string, len(rows))
	whoW, whatW := 0, 0
	for i, row := range rows {
		who[i] = row.From + " -> " + row.To
		whoW = max(whoW, displayWidth(who[i]))
	}
	numW := len(fmt.Sprint(len(steps)))
	// The action column is as wide as the widest action that still leaves
	// room for its result beside it; a longer action (a SQL statement, a
	// long write) wraps with its result below, rather than pushing every
	// other step's result onto a line of its own.
	room := r.g.width() - (numW + 2 + whoW + 2) - 2
	for _, row := range rows {
		w := displayWidth(row.Action)
		if w <= wideAction && w+displayWidth(row.Named) <= room {
			whatW = max(whatW, w)
		}
	}
	for i, s := range steps {
		if i == 0 || s.Phase != steps[i-1].Phase {
			if i > 0 && r.step && !r.stopped {
				if err := r.pause(r.g.t("cli.step.press-enter", r.g.t(s.Phase.Key()))); err != nil {
					return err
				}
			}
			if r.stopped {
				return nil
			}
			fmt.Fprintln(r.out(), r.p.bold.Sprint("["+r.g.t(s.Phase.Key())+"]"))
		}
		result, what := rows[i].Named, rows[i].Action // "harm: …" for the damage
		tone := func(l string) string {
			switch s.Tone {
			case drills.Good:
				return r.p.good.Sprint(l)
			case drills.Bad, drills.Harm:
				return r.p.bad.Sprint(l)
			}
			return l
		}
		width := r.g.width()
		num := fmt.Sprintf("%*d  %s  ", numW, i+1, columns.FillRight(who[i], whoW))
		indent := strings.Repeat(" ", numW+2+whoW+2)
		if displayWidth(num)+whatW+2+displayWidth(result) <= width && displayWidth(what) <= whatW {
			fmt.Fprintf(r.out(), "%s%s  %s\n", num, columns.FillRight(what, whatW), tone(result))
			continue
		}
		// Too wide for a projector: the action wraps under itself (a SQL
		// statement does not widen the column for the other steps), and
		// the result goes on its own line, under the action it belongs to.
		room := max(width-len(indent), 20)
		for j, l := range wrapText(what, room) {
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
