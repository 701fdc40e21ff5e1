// Package i18n holds archlab's words: one catalogue per language (en.go,
// zh.go), looked up by key. Drills, the trace and the command refer to
// messages by key only, so a translation is one file, and a test checks that
// both catalogues hold the same keys.
//
// Counter names are not in the catalogue: they are the book's, letter for
// letter, in every language.
package i18n

import (
	"fmt"
	"slices"
	"strings"
)

// Lang is a supported language.
type Lang string

// The supported languages.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// Langs lists the supported languages in the order help text names them.
var Langs = []Lang{ZH, EN}

// catalogues holds each language's maps: the short messages (en.go,
// zh.go), the words of the 8.2 drills on a real database (realdb_en.go,
// realdb_zh.go), of drill files and their verbs (lab_en.go, lab_zh.go), and
// of the state pages of archlab serve (state_en.go, state_zh.go).
// A drill's own words (title, checks, explanation) live in its drill file
// and belong to the parsed drill (drills.Drill.Text), never to these maps:
// reading a file changes nothing here. The words of the harness's fault
// tables live in the tables' rows; the harness adds them once, when the
// program starts (Add).
var catalogues = map[Lang][]map[string]string{EN: {en, realdbEN, labEN, checkEN, lessonsEN, brokerEN, webEN, fileEN, ondemandEN, stateEN, hostileEN, modelEN, classEN, durableEN, untrustedEN}, ZH: {zh, realdbZH, labZH, checkZH, lessonsZH, brokerZH, webZH, fileZH, ondemandZH, stateZH, hostileZH, modelZH, classZH, durableZH, untrustedZH}}

// Add makes words part of lang's catalogue: the words a package keeps
// beside what they describe, such as the rows of the harness's fault
// tables. Call it from an init function; once the program runs the
// catalogue is only read.
func Add(lang Lang, words map[string]string) {
	catalogues[lang] = append(catalogues[lang], words)
}

func lookup(lang Lang, key string) (string, bool) {
	for _, m := range catalogues[lang] {
		if s, ok := m[key]; ok {
			return s, true
		}
	}
	return "", false
}

// Parse accepts "en" or "zh" in any case, and a locale's forms of them:
// zh-CN, zh_TW, zh-Hans, en-US, en_GB.UTF-8.
func Parse(s string) (Lang, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, "-_."); i > 0 {
		s = s[:i]
	}
	l := Lang(s)
	return l, slices.Contains(Langs, l)
}

// FromEnv picks the language from LC_ALL, LC_MESSAGES, then LANG, the way
// POSIX locale lookup does: the first one that is set decides; zh* means
// Chinese, anything else English.
func FromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return ZH
			}
			return EN
		}
	}
	return EN
}

// T formats the message key in lang with args. A missing key returns the key
// itself in brackets, so a gap shows in output rather than panicking; the
// catalogue test keeps that from shipping.
func T(lang Lang, key string, args ...any) string {
	format, ok := lookup(lang, key)
	if !ok {
		format, ok = lookup(EN, key)
	}
	if !ok {
		return "[" + key + "]"
	}
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// Has reports whether key exists in lang's catalogue.
func Has(lang Lang, key string) bool {
	_, ok := lookup(lang, key)
	return ok
}

// Keys returns the sorted keys of lang's catalogue.
func Keys(lang Lang) []string {
	var keys []string
	for _, m := range catalogues[lang] {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
