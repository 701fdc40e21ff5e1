package web_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"archlab/i18n"
)

// TestGlyphsInThePageFonts: every symbol the page can show (its templates,
// its scripts, and every text of the catalogue in both languages) is in a
// font of the page's own stacks (style.css's --sans and --mono) installed
// here. Issue 34: the ⑂ of "branch here" was a tofu box in the fonts the
// README recommends; a browser falls back to any font that has a glyph, so
// only a font list shows it. Chinese characters, CJK punctuation and
// full-width forms are left out: the CJK fonts hold them by design. It
// needs fontconfig (fc-list) and a font of the stacks, and skips without.
func TestGlyphsInThePageFonts(t *testing.T) {
	if _, err := exec.LookPath("fc-list"); err != nil {
		t.Skip("needs fontconfig's fc-list")
	}
	css, err := os.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	installed := families(t, ":")
	var stack []string
	for _, v := range regexp.MustCompile(`--(?:sans|mono):([^;]*);`).FindAllStringSubmatch(string(css), -1) {
		for _, f := range strings.Split(v[1], ",") {
			if f = strings.Trim(strings.TrimSpace(f), `"`); installed[f] {
				stack = append(stack, f)
			}
		}
	}
	if len(stack) == 0 {
		t.Skip("none of the page's fonts is installed here (.ci/run installs fonts-noto-cjk)")
	}
	var text strings.Builder
	for _, pattern := range []string{"templates/*.html", "assets/*.js"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text.Write(b)
		}
	}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		for _, k := range i18n.Keys(lang) {
			text.WriteString(i18n.T(lang, k))
		}
	}
	var symbols []rune
	for _, r := range text.String() {
		if r > unicode.MaxASCII && !cjk(r) && unicode.IsGraphic(r) && !unicode.IsSpace(r) && !slices.Contains(symbols, r) {
			symbols = append(symbols, r)
		}
	}
	slices.Sort(symbols)
	for _, r := range symbols {
		has := families(t, fmt.Sprintf(":charset=%x", r))
		if !slices.ContainsFunc(stack, func(f string) bool { return has[f] }) {
			t.Errorf("%q (U+%04X) is in no font of the page's stacks installed here (%s)", r, r, strings.Join(stack, ", "))
		}
	}
	if len(symbols) < 10 {
		t.Fatalf("only %d symbols found: the page's texts were not read", len(symbols))
	}
	t.Logf("%d symbols, each in one of %s", len(symbols), strings.Join(stack, ", "))
}

// families is the set of font families fc-list finds for pattern.
func families(t *testing.T, pattern string) map[string]bool {
	out, err := exec.Command("fc-list", pattern, "family").Output()
	if err != nil {
		t.Fatalf("fc-list %s: %v", pattern, err)
	}
	set := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		for _, f := range strings.Split(line, ",") {
			if f = strings.TrimSpace(f); f != "" {
				set[f] = true
			}
		}
	}
	return set
}

// cjk reports whether r is a Chinese character, CJK punctuation or a
// full-width form: what a CJK font holds by design.
func cjk(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}
