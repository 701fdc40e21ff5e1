package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"archlab/drills"
)

// runWide runs archlab at a terminal width, with stdin holding input.
func runWide(width int, input string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	io := &IO{In: strings.NewReader(input), Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Width: width, ErrWidth: width}
	if input != "" {
		io.InIsTerminal, io.OutIsTerminal = true, true
	}
	code := run(io, append(args, "--no-color"))
	return out.String(), errb.String(), code
}

// TestEveryScreenFits renders every width-bound screen at 80 and 60
// columns, in both languages, and fails on any line wider than that: a
// projector wraps it mid-word otherwise.
func TestEveryScreenFits(t *testing.T) {
	screens := [][]string{{"list"}, {"drill", "--all"}, {"drill", "--all", "--trace"}}
	for _, s := range drills.Sections {
		screens = append(screens, []string{"drill", "--chapter", s.ID})
	}
	for _, d := range drills.All() {
		screens = append(screens, []string{"drill", d.Name}, []string{"explain", d.Name},
			append([]string{"drill", d.Name}, storeArgs(d)...))
	}
	for _, m := range []string{"inbox", "ordering", "shardjob"} {
		screens = append(screens, []string{"explore", m}, []string{"explore", m, "--show"})
	}
	for _, width := range []int{80, 60} {
		for _, lang := range []string{"en", "zh"} {
			for _, args := range screens {
				name := fmt.Sprintf("%d/%s/%s", width, lang, strings.Join(args, " "))
				t.Run(name, func(t *testing.T) {
					out, errOut, code := runWide(width, "", append(args, "--lang", lang)...)
					if code > 1 {
						t.Fatalf("exit %d: %s", code, errOut)
					}
					tooWide(t, width, out)
				})
			}
			// --step: the screens between the pauses, and the prompts.
			for _, d := range drills.All() {
				t.Run(fmt.Sprintf("%d/%s/step %s", width, lang, d.Name), func(t *testing.T) {
					out, errOut, _ := runWide(width, strings.Repeat("\n", 20), "drill", d.Name, "--step", "--lang", lang)
					tooWide(t, width, out)
					tooWide(t, width, errOut)
				})
			}
		}
	}
}

func storeArgs(d *drills.Drill) []string {
	if d.HasEnv() {
		return []string{"--store", "sqlite", "--trace"}
	}
	return []string{"--trace"}
}

func tooWide(t *testing.T, width int, out string) {
	t.Helper()
	for i, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if w := displayWidth(stripANSI(l)); w > width {
			t.Fatalf("line %d is %d columns, wider than %d:\n%s", i+1, w, width, l)
		}
	}
}
