package view

import (
	"fmt"
	"strconv"
	"strings"

	"archlab/explore"
	"archlab/i18n"
)

// StrategyRow is one strategy of an exploration in the reader's language.
type StrategyRow struct {
	Name       string
	Schedules  uint64
	Violations []string // "lost=1,314", in the invariants' order
	Mark       string   // ✓ a safe design, ✗ an unsafe one or a verdict against the book, ? not found
	Safe       bool
	Verdict    string
	Shortest   string // the shortest counterexample in one line; "" when none
}

// Strategies renders a report's strategy table.
func Strategies(lang i18n.Lang, rep *explore.Report) []StrategyRow {
	out := make([]StrategyRow, len(rep.Strategies))
	for i, s := range rep.Strategies {
		row := StrategyRow{Name: s.Name, Schedules: s.Schedules, Safe: s.Safe}
		for _, v := range s.Violations {
			// Grouped as the schedules beside them are: lost=1,314.
			row.Violations = append(row.Violations, v.Name+"="+GroupDigits(v.N))
		}
		book := i18n.T(lang, "explore.book.unsafe")
		if s.Safe {
			book = i18n.T(lang, "explore.book.safe")
		}
		switch s.Verdict {
		case explore.AsTheBook:
			key := "explore.verdict.as-the-book"
			if own := "explore.verdict." + s.Name; i18n.Has(lang, own) {
				key = own
			}
			row.Mark = "✓"
			if !s.Safe {
				row.Mark = "✗"
			}
			row.Verdict = i18n.T(lang, key, book)
		case explore.NotFound:
			row.Mark, row.Verdict = "?", i18n.T(lang, "explore.verdict.not-found", book)
		default:
			row.Mark, row.Verdict = "✗", i18n.T(lang, "explore.verdict.contradicts", book)
		}
		if s.Shortest != nil {
			row.Shortest = s.Shortest.Line(lang)
		}
		out[i] = row
	}
	return out
}

// ScopeFlags is a scope as the flags that ask for it, as a reader types
// them: "--duplicates 2 --max-attempts 3", with --poison a switch, there
// or not (the terminal's rerun line and the page say the same).
func ScopeFlags(scope []explore.Param) string {
	var parts []string
	for _, p := range scope {
		if p.Name == "poison" || p.Name == "notify" { // switches: "--notify 1" is exit 2 (issue 43)
			if p.Value == 1 {
				parts = append(parts, "--"+p.Name)
			}
			continue
		}
		parts = append(parts, fmt.Sprintf("--%s %d", p.Name, p.Value))
	}
	return strings.Join(parts, " ")
}

// GroupDigits writes n with thousands separators: 14,482,320.
func GroupDigits(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
