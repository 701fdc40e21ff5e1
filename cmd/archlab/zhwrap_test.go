package main

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"archlab/i18n"
	"archlab/ui/wrap"
)

// brokenWords lists where a Chinese screen breaks a line inside a
// glossary term (确认丢 / 失) or starts a line with closing punctuation
// (，。）). TestEveryScreenFits calls it on every zh screen at 80 and 60
// columns. Table rows are read cell by cell: a cell wraps within its
// column.
func brokenWords(out string) []string {
	var bad []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		for _, c := range cells(l) {
			// Chinese punctuation: an ASCII "." or ")" at the start of a
			// line is a path or code (./cmd/archlab).
			if c = strings.TrimLeft(c, " "); c != "" && []rune(c)[0] > unicode.MaxASCII && wrap.IsClosing([]rune(c)[0]) {
				bad = append(bad, fmt.Sprintf("line %d starts with closing punctuation:\n%s", i+1, l))
			}
		}
		if i == 0 {
			continue
		}
		above, below := cells(lines[i-1]), cells(l)
		if len(above) != len(below) {
			continue
		}
		for k := range above {
			if term := splitTerm(strings.TrimRight(above[k], " "), strings.TrimLeft(below[k], " ")); term != "" {
				bad = append(bad, fmt.Sprintf("lines %d-%d break inside %s:\n%s\n%s", i, i+1, term, lines[i-1], l))
			}
		}
	}
	return bad
}

// cells splits a table row at its borders; any other line is one cell.
func cells(line string) []string {
	if !strings.Contains(line, "│") {
		return []string{line}
	}
	return strings.Split(line, "│")
}

// splitTerm is the glossary term that the end of one line and the start of
// the next make together, if any.
func splitTerm(end, start string) string {
	for _, g := range i18n.Glossary {
		if strings.IndexFunc(g.ZH, func(r rune) bool { return !unicode.Is(unicode.Han, r) }) >= 0 {
			continue
		}
		for k := len(g.ZH) - 1; k > 0; k-- {
			if !utf8Boundary(g.ZH, k) {
				continue
			}
			if strings.HasSuffix(end, g.ZH[:k]) && strings.HasPrefix(start, g.ZH[k:]) {
				return g.ZH
			}
		}
	}
	return ""
}

func utf8Boundary(s string, i int) bool { return i < len(s) && s[i]&0xC0 != 0x80 }

// TestBrokenWordsCatches: the check above finds a term broken across two
// lines, in prose and in a table cell, and a line that starts with "，";
// it passes a break between two words.
func TestBrokenWordsCatches(t *testing.T) {
	for _, bad := range []string{
		"随后发给消息代理的确认丢\n失（ErrAckLost）",
		"│ 去重 │ 1 │\n│ 键   │ 2 │",
		"付款只生效一次\n，再重投",
	} {
		if len(brokenWords(bad)) == 0 {
			t.Errorf("brokenWords passes %q", bad)
		}
	}
	if p := brokenWords("随后发给消息代理的确认丢失\n（ErrAckLost），于是重投"); len(p) > 0 {
		t.Errorf("a break between words: %v", p)
	}
}
