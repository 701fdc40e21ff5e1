package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/harness"
	"archlab/ui/term"
)

// asScreens, set to "1", makes the test binary print tableScreens (in
// TestMain) instead of running tests: a process started under a locale
// shows what that locale does to the libraries that measure text, which
// read LANG and LC_ALL once, when the process starts.
const asScreens = "ARCHLAB_TEST_PRINT_SCREENS"

// tableScreens are the screens that hold a table: the counter table of
// every drill, the summaries, and explore's strategy tables.
func tableScreens() [][]string {
	screens := [][]string{{"drill", "--all"}}
	for _, s := range harness.Sections {
		screens = append(screens, []string{"drill", "--chapter", s.ID})
	}
	for _, d := range drills.All() {
		screens = append(screens, []string{"drill", d.Name})
	}
	for _, sec := range harness.Sections {
		m := sec.Harness
		screens = append(screens, []string{"explore", m})
	}
	return screens
}

// printScreens renders every table screen at 80 and 60 columns in both
// languages, each after a line naming it.
func printScreens() string {
	var b strings.Builder
	for _, width := range []int{80, 60} {
		for _, lang := range []string{"en", "zh"} {
			for _, args := range tableScreens() {
				out, _, code := screen(width, append(args, "--lang", lang)...)
				fmt.Fprintf(&b, "=== %d %s %s (exit %d)\n%s", width, lang, strings.Join(args, " "), code, out)
			}
		}
	}
	return b.String()
}

// TestTablesUnderCJKLocale: under LANG=zh_CN.UTF-8 or LC_ALL=zh_CN.UTF-8,
// how a Chinese teacher's machine is usually set, every screen is the same,
// byte for byte, as under the C locale: no table loses its borders because
// a library counted "─" as two columns.
func TestTablesUnderCJKLocale(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if raceOn {
		t.Skip("text and layout, checked in the plain run; under the race detector it took 15-80 s with no goroutine of its own to watch")
	}
	want := printScreens()
	locales := [][]string{
		{"LANG=zh_CN.UTF-8"},
		{"LC_ALL=zh_CN.UTF-8"},
		{"LANG=zh_TW.UTF-8", "LC_CTYPE=zh_TW.UTF-8"},
		{"LC_ALL=ja_JP.UTF-8"},
	}
	// The Chinese teacher's locale; the long sweep (-tags long, once in
	// CI) runs the other three, each two seconds of screens.
	if longOn {
		locales = locales[1:]
	} else {
		locales = locales[:1]
	}
	for _, env := range locales {
		t.Run(strings.Join(env, ","), func(t *testing.T) {
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe)
			cmd.Env = []string{asScreens + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
			cmd.Env = append(cmd.Env, env...)
			got, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) == want {
				return
			}
			g, w := strings.Split(string(got), "\n"), strings.Split(want, "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Fatalf("line %d under %v:\n%s\nunder C:\n%s", i+1, env, g[i], w[i])
				}
			}
			t.Fatalf("%d lines under %v, %d under C", len(g), env, len(w))
		})
	}
}

// TestTablesKeepBorders: at 80 columns every table screen draws its table
// with borders, in both languages; at 60, every one whose cells fit.
func TestTablesKeepBorders(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, args := range tableScreens() {
			t.Run(lang+"/"+strings.Join(args, " "), func(t *testing.T) {
				out, errOut, code := runWide(80, "", append(args, "--lang", lang)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				if !strings.Contains(out, "┌") || !strings.Contains(out, "┘") {
					t.Fatalf("no table at 80 columns:\n%s", out)
				}
			})
		}
	}
	// At 60 columns a drill's counter table keeps its borders unless the
	// table itself, with its cells unbroken, is wider than 60.
	for _, lang := range []string{"en", "zh"} {
		for _, d := range drills.All() {
			out, _, _ := runWide(60, "", "drill", d.Name, "--lang", lang)
			if strings.Contains(out, "┌") {
				continue
			}
			wide, _, _ := runWide(80, "", "drill", d.Name, "--lang", lang)
			if w := tableWidth(wide); w <= 60 {
				t.Errorf("%s/%s: a table %d columns wide is not drawn at 60 columns:\n%s", lang, d.Name, w, out)
			}
		}
	}
}

// tableWidth is the width of the first table in out.
func tableWidth(out string) int {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "┌") {
			return term.DisplayWidth(l)
		}
	}
	return 0
}
