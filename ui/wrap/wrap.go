// Package wrap says where a line of archlab's text may break when no space
// is there: between two words of Chinese, never inside one, never before a
// closing punctuation mark and never after an opening one. The terminal
// wraps its screens with it and the web page puts a <wbr> between its
// pieces, so a projector never shows 实 at the end of a line and 验 at the
// start of the next.
//
// Chinese is written without spaces, so the words are found with a small
// dictionary: words.txt (the words archlab's own Chinese texts use) and the
// glossary's terms. A run of Han characters is cut into the fewest pieces
// that are words of the dictionary or single characters, the glossary's
// terms first; a character no word covers stays breakable on both sides,
// as before.
//
// Why a dictionary and not a segmenter library: archlab's Chinese is a
// closed set of texts, all in this repository, and a word list made from
// them is 1,100 words (12 KB). A general segmenter's dictionary (jieba's,
// 5 MB, through cgo in Go) would be larger than archlab itself, and
// BudouX's small phrase model for zh-hans breaks the glossary's own words
// (去|重键, 确|认尝|试, 本|地).
package wrap

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"archlab/i18n"
)

//go:embed words.txt
var wordsFile string

// maxWord is the longest word of the dictionary, in characters.
const maxWord = 8

// dictionary maps each word to what it costs as a piece: a glossary term
// 1, any other word 2 (as a single character does), so that a glossary
// term wins where the text reads two ways (记下|去重键, not 记下去|重|键).
// It is built on first use: a command that wraps no Chinese pays nothing.
var dictionary = sync.OnceValue(func() map[string]int {
	d := map[string]int{}
	add := func(w string, cost int) {
		if n := utf8.RuneCountInString(w); n > 1 && n <= maxWord {
			d[w] = cost
		}
	}
	for _, l := range strings.Split(wordsFile, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			add(l, 2)
		}
	}
	for _, t := range i18n.Glossary {
		for _, w := range strings.FieldsFunc(t.ZH, func(r rune) bool { return !unicode.Is(unicode.Han, r) }) {
			add(w, 1)
		}
	}
	return d
})

// IsWord reports whether w is a word of the dictionary.
func IsWord(w string) bool { return dictionary()[w] > 0 }

// Words cuts a run of Han characters into words of the dictionary and
// single characters, at the least cost: the fewest pieces, a glossary term
// counting half. So 同一本地事务 is 同一 本地 事务, not 同 一本 地 事务; between
// cuts of equal cost, the one whose first piece is longest (消费端 的, not
// 消费 端的).
func Words(run string) []string {
	rs := []rune(run)
	n := len(rs)
	// cost[i] is the least cost of rs[i:]; next[i] where its first piece ends.
	cost := make([]int, n+1)
	next := make([]int, n+1)
	d := dictionary()
	for i := n - 1; i >= 0; i-- {
		cost[i], next[i] = cost[i+1]+2, i+1
		for j := i + 2; j <= n && j-i <= maxWord; j++ {
			if c := d[string(rs[i:j])]; c > 0 && cost[j]+c <= cost[i] {
				cost[i], next[i] = cost[j]+c, j
			}
		}
	}
	var out []string
	for i := 0; i < n; i = next[i] {
		out = append(out, string(rs[i:next[i]]))
	}
	return out
}

// Pieces cuts s, a text with no spaces (one word of a space-separated
// line), into the pieces a line may break between: a break may come only
// between two pieces. Joined, the pieces are s. A break is allowed next to
// a Chinese character, and only between two words; never inside 《a book's
// title》, never before a closing punctuation mark (，。）…) and never after
// an opening one (（“《).
func Pieces(s string) []string {
	rs := []rune(s)
	// cut[i]: a break is allowed before rs[i].
	cut := make([]bool, len(rs)+1)
	for i := 1; i < len(rs); i++ {
		cut[i] = wide(rs[i-1]) || wide(rs[i])
	}
	// Inside a word of a Han run, no break.
	for i := 0; i < len(rs); {
		if !unicode.Is(unicode.Han, rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && unicode.Is(unicode.Han, rs[j]) {
			j++
		}
		at := i
		for _, w := range Words(string(rs[i:j])) {
			for k := 1; k < utf8.RuneCountInString(w); k++ {
				cut[at+k] = false
			}
			at += utf8.RuneCountInString(w)
		}
		i = j
	}
	book := false
	for i, r := range rs {
		if book || IsClosing(r) {
			cut[i] = false
		}
		if IsOpening(r) && i+1 < len(rs) {
			cut[i+1] = false
		}
		if r == '《' {
			book = true
		}
		if r == '》' {
			book = false
		}
	}
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		if cut[i] {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	if len(rs) > 0 {
		out = append(out, string(rs[start:]))
	}
	return out
}

// IsClosing reports whether r is a punctuation mark that must not start a
// line.
func IsClosing(r rune) bool {
	return strings.ContainsRune("，。、；：！？）」』】》”’…,.;:!?)", r)
}

// IsOpening reports whether r is a punctuation mark that must not end a
// line.
func IsOpening(r rune) bool { return strings.ContainsRune("（「『【《“‘(", r) }

// wide is a character of Chinese (or Japanese) script or punctuation, which
// needs no space to break beside it.
func wide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}
