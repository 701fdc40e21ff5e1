package main

import (
	"strings"
)

// boxTable draws rows under header in box-drawing lines, each cell padded
// by a space, left-aligned, every line of the table as wide as the others:
//
//	┌─────────┬───────┐
//	│ counter │ value │
//	├─────────┼───────┤
//	│ effects │ 1     │
//	└─────────┴───────┘
//
// A cell may hold several lines ("\n"). With wrapLast > 0 the last
// column's lines are wrapped at spaces to that many columns, with the
// least ragged right edge (a word wider than that keeps its width).
//
// It draws what tablewriter v1 drew here, byte for byte, in a page of
// code: tablewriter's package init alone (its width cache, its logger)
// cost every archlab command a tenth of its start-up (issue 27).
func boxTable(header []string, rows [][]string, wrapLast int) string {
	cells := make([][][]string, 0, len(rows)+1) // row, column, line
	for i, row := range append([][]string{header}, rows...) {
		r := make([][]string, len(row))
		for c, cell := range row {
			r[c] = strings.Split(strings.TrimSpace(cell), "\n")
			if i > 0 && wrapLast > 0 && c == len(row)-1 {
				var wrapped []string
				for _, l := range r[c] {
					wrapped = append(wrapped, wrapRagged(l, wrapLast)...)
				}
				r[c] = wrapped
			}
		}
		cells = append(cells, r)
	}
	widths := make([]int, len(header))
	for _, r := range cells {
		for c, lines := range r {
			for _, l := range lines {
				widths[c] = max(widths[c], displayWidth(stripANSI(l)))
			}
		}
	}
	var b strings.Builder
	rule := func(left, mid, right string) {
		b.WriteString(left)
		for c, w := range widths {
			if c > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(right + "\n")
	}
	rule("┌", "┬", "┐")
	for i, r := range cells {
		if i == 1 {
			rule("├", "┼", "┤")
		}
		height := 0
		for _, lines := range r {
			height = max(height, len(lines))
		}
		for k := range height {
			for c, lines := range r {
				l := ""
				if k < len(lines) {
					l = lines[k]
				}
				b.WriteString("│ " + l + strings.Repeat(" ", widths[c]-displayWidth(stripANSI(l))) + " ")
			}
			b.WriteString("│\n")
		}
	}
	rule("└", "┴", "┘")
	return b.String()
}

// wrapRagged breaks s at spaces into lines of at most limit columns,
// choosing the breaks that make the right edge least ragged: the sum of
// the squares of each line's shortfall is the smallest, the last line's
// free. Unlike filling each line in turn, it may end a line early so that
// the next is not left short. It is kr/text's line breaking, which
// tablewriter used.
func wrapRagged(s string, limit int) []string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return []string{""}
	}
	n := len(words)
	width := make([]int, n)
	for i, w := range words {
		width[i] = displayWidth(stripANSI(w))
		limit = max(limit, width[i]) // a word wider than the limit sets it
	}
	const tooLong = 1e5 // the penalty of a line over the limit
	cost := make([]int, n)
	next := make([]int, n) // the word that starts the line after word i's
	rest := -1
	for i := n - 1; i >= 0; i-- {
		rest += 1 + width[i]
		if rest <= limit {
			cost[i], next[i] = 0, n // the rest fits on this line
			continue
		}
		cost[i] = 1 << 31
		line := -1
		for j := i + 1; j < n; j++ {
			line += 1 + width[j-1]
			c := (limit-line)*(limit-line) + cost[j]
			if line > limit {
				c += tooLong
			}
			if c < cost[i] {
				cost[i], next[i] = c, j
			}
		}
	}
	var lines []string
	for i := 0; i < n; i = next[i] {
		lines = append(lines, strings.Join(words[i:next[i]], " "))
	}
	return lines
}
