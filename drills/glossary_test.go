package drills

import (
	"regexp"
	"slices"
	"testing"

	"archlab/i18n"
)

// TestDrillTextsGlossary: the Chinese part of every drill file (title,
// param, why, check and explain texts) follows the glossary of
// i18n: no rejected variant, no ASCII punctuation in Chinese
// prose. The catalogue itself is checked by i18n.TestGlossary.
func TestDrillTextsGlossary(t *testing.T) {
	for _, d := range All() {
		for key, text := range d.file.texts[i18n.ZH] {
			for _, p := range i18n.Problems(text) {
				t.Errorf("%s, zh %s: %s", d.Path, key, p)
			}
		}
	}
}

// TestCountersNotInChineseProse: a counter keeps the book's name, but a
// Chinese sentence says what it means (余额 2599, not "balance 2599").
// The name may stand as name=value, the way the book's log prints it, or
// as a code value in a list; a counter name followed by a number or by
// Chinese words is prose that should have said the meaning.
func TestCountersNotInChineseProse(t *testing.T) {
	var names []string
	for _, d := range All() {
		for _, c := range d.Book {
			if !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
			}
		}
	}
	var texts []struct{ where, text string }
	for _, d := range All() {
		for key, text := range d.file.texts[i18n.ZH] {
			texts = append(texts, struct{ where, text string }{d.Path + " zh " + key, text})
		}
	}
	for _, k := range i18n.Keys(i18n.ZH) {
		texts = append(texts, struct{ where, text string }{"zh " + k, i18n.T(i18n.ZH, k)})
	}
	// A call such as NextBatch(offset %d, size %d) is code.
	call := regexp.MustCompile(`\w+\([^()]*\)`)
	for i := range texts {
		texts[i].text = call.ReplaceAllString(texts[i].text, "f()")
	}
	for _, n := range names {
		inProse := regexp.MustCompile(`(^|[^\w.=/-])` + regexp.QuoteMeta(n) + ` +(\d|%|\p{Han})`)
		for _, x := range texts {
			if m := inProse.FindString(x.text); m != "" {
				t.Errorf("%s: counter %s in Chinese prose (%q): say what it means, or write %s=VALUE", x.where, n, m, n)
			}
		}
	}
}
