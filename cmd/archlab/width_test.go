package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/term"
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

// screen is runWide with no input, run once per width and command line
// for the test binary: the screen tests (TestEveryScreenFits,
// TestNoEnglishInChinese, TestTablesUnderCJKLocale) read the same
// screens, and a screen is the same bytes on every run
// (TestOutputIsDeterministic holds that).
func screen(width int, args ...string) (stdout, stderr string, code int) {
	s := screens.get(fmt.Sprint(width, args), func() shownScreen {
		out, err, code := runWide(width, "", args...)
		return shownScreen{out, err, code}
	})
	return s.out, s.err, s.code
}

type shownScreen struct {
	out, err string
	code     int
}

var screens memo[shownScreen]

// everyScreen is every screen archlab shows a reader, as command lines:
// the results of every command, every help screen, --verbs, check, and
// the errors bad input gets. TestEveryScreenFits holds them to the width;
// TestNoEnglishInChinese reads them in Chinese.
func everyScreen() [][]string {
	screens := [][]string{{"list"}, {"drill", "--all"}, {"drill", "--all", "--trace"}, {"check"}, {"--help"}}
	for _, s := range harness.Sections {
		screens = append(screens, []string{"drill", "--chapter", s.ID}, []string{"drill", "--verbs", s.ID})
	}
	for _, d := range drills.All() {
		screens = append(screens, []string{"drill", d.Name}, []string{"explain", d.Name},
			append([]string{"drill", d.Name}, storeArgs(d)...))
	}
	for _, sec := range harness.Sections {
		m := sec.Harness
		screens = append(screens, []string{"explore", m}, []string{"explore", m, "--show"})
	}
	for _, e := range check.Names() {
		screens = append(screens, []string{"explain", e}, []string{"check", e})
	}
	screens = append(screens, helpScreens()...)
	return append(screens, errorScreens...)
}

// helpScreens is --help of every command in the tree, the completion
// scripts' set-up included.
func helpScreens() [][]string {
	var out [][]string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || strings.HasPrefix(c.Name(), "__") {
			return
		}
		path := strings.Fields(c.CommandPath())[1:]
		out = append(out, append(slices.Clone(path), "--help"))
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	var buf bytes.Buffer
	walk(newRootCmd(&cli.Env{IO: &IO{Out: &buf, Err: &buf, Getenv: func(string) string { return "" }}, Lang: i18n.EN}))
	return out
}

// errorScreens are command lines that get an error: one of each kind.
var errorScreens = [][]string{
	{"chek"}, {"drill", "ack-lot"}, {"drill"}, {"drill", "--chapter", "9.9"},
	{"drill", "ack-lost", "--deliveries", "0x10"}, {"drill", "ack-lost", "--deliveries", "0"},
	{"drill", "--all", "--json", "--trace"}, {"drill", "--verbs", "9.9"}, {"drill", "ack-lost", "extra"},
	{"drill", "--all", "--broker", "nats"}, {"drill", "--all", "--store", "postgres"},
	{"drill", "ack-lost", "--bogus"}, {"drill", "--file", "no-such-file.txtar"},
	{"explore"}, {"explore", "inbx"}, {"explore", "inbox", "--messages", "99"}, {"explore", "inbox", "--workers", "9999"},
	{"explore", "inbox", "--engine", "fast"}, {"explain"}, {"explain", "nothing"}, {"check", "nothing"},
	{"check", "--json", "--show"}, {"completion"}, {"completion", "bsh"}, {"help", "bogus"}, {"-v", "extra"},
	{"list", "extra"}, {"version", "extra"},
}

// TestEveryScreenFits renders every screen at 80 and 60 columns, in both
// languages, stdout and stderr, and fails on any line wider than that: a
// projector wraps it mid-word otherwise. What is data rather than a screen
// keeps its lines: --json, --mermaid (Mermaid reads one statement a line)
// and --source (a drill file).
func TestEveryScreenFits(t *testing.T) {
	if raceOn {
		t.Skip("text and layout, checked in the plain run; under the race detector it took 15-80 s with no goroutine of its own to watch")
	}
	t.Parallel() // each screen is a run of its own, on streams of its own
	screens := everyScreen()
	for _, width := range []int{80, 60} {
		for _, lang := range []string{"en", "zh"} {
			for _, args := range screens {
				name := fmt.Sprintf("%d/%s/%s", width, lang, strings.Join(args, " "))
				t.Run(name, func(t *testing.T) {
					out, errOut, _ := screen(width, append(args, "--lang", lang)...)
					if !slices.Contains(args, "--json") { // data, not a screen
						tooWide(t, width, out)
						if lang == "zh" {
							for _, p := range brokenWords(out) {
								t.Error(p)
							}
						}
					}
					tooWide(t, width, errOut)
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
	if d.Sec().RealStore {
		return []string{"--store", "sqlite", "--trace"}
	}
	return []string{"--trace"}
}

func tooWide(t *testing.T, width int, out string) {
	t.Helper()
	for i, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if w := term.DisplayWidth(term.StripANSI(l)); w > width {
			t.Fatalf("line %d is %d columns, wider than %d:\n%s", i+1, w, width, l)
		}
	}
}

// TestExploreSummaryFits: explore's one line on stderr fits 80 columns
// as it is, in a log or a pipe where nothing wraps it, in both languages
// and for both engines (it was 84 to 91 columns, issue 42).
func TestExploreSummaryFits(t *testing.T) {
	if raceOn {
		t.Skip("text and layout, checked in the plain run")
	}
	t.Parallel()
	for _, lang := range []string{"en", "zh"} {
		for _, args := range [][]string{{"inbox"}, {"ordering", "--poison"}, {"inbox", "--engine", "enumerate"}} {
			_, errOut, code := runWide(0, "", append([]string{"explore", "--lang", lang}, args...)...)
			if code != exitOK || !strings.Contains(errOut, "workers=") && !strings.Contains(errOut, "并行") {
				t.Fatalf("explore %v --lang %s: exit %d, no summary\n%s", args, lang, code, errOut)
			}
			tooWide(t, 80, errOut)
		}
	}
}
