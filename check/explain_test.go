package check

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"archlab/i18n"
)

// TestExplainSaysWhatCheckRuns: what `archlab explain EXERCISE` and the
// exercise's own comment in exercises/ say is checked is what check runs:
// every drill of the exercise's list, by name, in both languages, and, for
// an exercise held to the book's type, the comparison with it call by
// call and the calls from two goroutines at once. `explain ledger` still
// described an older check: six drills where check ran seven, and neither
// the comparison nor the goroutines that gave most failing verdicts
// (issue 42).
func TestExplainSaysWhatCheckRuns(t *testing.T) {
	model := map[i18n.Lang][]string{
		i18n.EN: {"call by call", "two goroutines"},
		i18n.ZH: {"逐次调用", "两个 goroutine"},
	}
	for _, e := range Exercises {
		src, err := os.ReadFile(filepath.Join("..", e.File))
		if err != nil {
			t.Fatal(err)
		}
		en, zh := commentHalves(string(src))
		texts := map[string]struct {
			lang i18n.Lang
			text string
		}{
			"explain " + e.Name + " (en)": {i18n.EN, checkedPart(i18n.T(i18n.EN, e.ExplainKey()), "What is checked:")},
			"explain " + e.Name + " (zh)": {i18n.ZH, checkedPart(i18n.T(i18n.ZH, e.ExplainKey()), "检查什么：")},
			e.File + "'s comment (en)":    {i18n.EN, checkedPart(en, "What is checked:")},
			e.File + "'s comment (zh)":    {i18n.ZH, checkedPart(zh, "检查什么：")},
		}
		for where, tx := range texts {
			if tx.text == "" {
				t.Errorf("%s: no paragraph saying what is checked", where)
				continue
			}
			flat := strings.Join(strings.Fields(tx.text), " ")
			named := map[string]bool{}
			for _, w := range word.FindAllString(flat, -1) {
				named[w] = true
			}
			for _, d := range e.Drills {
				if !named[d] {
					t.Errorf("%s does not name the drill %s, which check runs", where, d)
				}
			}
			for _, w := range model[tx.lang] {
				if has := strings.Contains(flat, w); has != (e.model != nil) {
					t.Errorf("%s says %q: %t, but the exercise is held to the book's type: %t", where, w, has, e.model != nil)
				}
			}
		}
	}
}

// commentHalves are the English and the Chinese paragraphs of an
// exercise's doc comment, each flattened: the Chinese half starts at the
// first line with a Han character.
func commentHalves(src string) (en, zh string) {
	var b [2]strings.Builder
	half := 0
	han := regexp.MustCompile(`\p{Han}`)
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "type ") || strings.HasPrefix(l, "func ") {
			break
		}
		text, ok := strings.CutPrefix(l, "//")
		if !ok {
			continue
		}
		if half == 0 && han.MatchString(text) {
			half = 1
		}
		b[half].WriteString(strings.TrimSpace(text) + "\n")
	}
	return b[0].String(), b[1].String()
}

// checkedPart is the paragraph of text that starts with head, "" when
// none does.
func checkedPart(text, head string) string {
	_, rest, ok := strings.Cut(text, head)
	if !ok {
		return ""
	}
	para, _, _ := strings.Cut(rest, "\n\n")
	return para
}

// word is a word of a drill name's shape: lowercase, with hyphens.
var word = regexp.MustCompile(`[a-z][a-z-]*[a-z]`)
