package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"archlab/check"
	"archlab/drills"
)

// TestExplainCommandsAsRun: every command explain prints on a line of its
// own, for every drill and exercise in both languages, starts the way
// archlab was run, and runs as printed: under go run, "go run
// ./cmd/archlab …" (there may be no archlab installed); an installed
// archlab, "archlab …". Before (issue 42, the walk again) a drill's "Try
// next" said "archlab drill ack-lost --deliveries 5" under go run too,
// and three exercises named commands inside a sentence.
func TestExplainCommandsAsRun(t *testing.T) {
	t.Parallel()
	var names []string
	for _, d := range drills.All() {
		names = append(names, d.Name)
	}
	for _, e := range check.Exercises {
		names = append(names, e.Name)
	}
	for exe, want := range map[string]string{
		"/tmp/go-build1234/b001/exe/archlab": "go run ./cmd/archlab ",
		"/home/s/go/bin/archlab":             "archlab ",
	} {
		io := func(out *bytes.Buffer) *IO {
			return &IO{In: strings.NewReader(""), Out: out, Err: out, Getenv: func(string) string { return "" },
				Exe: func() (string, error) { return exe, nil }}
		}
		var printed []string // in the order printed: a file written, then read
		for _, lang := range []string{"en", "zh"} {
			for _, name := range names {
				var out bytes.Buffer
				if code := run(io(&out), []string{"explain", name, "--lang", lang, "--no-color"}); code != exitOK {
					t.Fatalf("explain %s --lang %s: exit %d\n%s", name, lang, code, out.String())
				}
				for _, l := range strings.Split(out.String(), "\n") {
					// A command is a line of its own, indented; prose
					// may name archlab's commands ("archlab explore
					// shardjob leaves this row out").
					m := printedCommand.FindString(l)
					if m == "" || !strings.HasPrefix(l, " ") || strings.TrimSpace(l) != m {
						if m != "" && strings.Contains(l, "("+m) {
							t.Errorf("%s, explain %s --lang %s: a command inside a sentence: %q", exe, name, lang, l)
						}
						continue
					}
					if !strings.HasPrefix(m, want) {
						t.Errorf("%s, explain %s --lang %s: %q, want it to start %q", exe, name, lang, m, want)
						continue
					}
					if line := strings.TrimPrefix(m, want); !slices.Contains(printed, line) {
						printed = append(printed, line)
					}
				}
			}
		}
		if len(printed) < len(drills.All()) {
			t.Fatalf("%s: %d commands printed: the test no longer sees what it checks", exe, len(printed))
		}
		if exe != "/home/s/go/bin/archlab" {
			continue
		}
		// Each command printed, run as printed (check's are
		// TestGoRunCommandsRunAsPrinted's: they check every exercise),
		// the files they write (> FILE) in a folder of the test's.
		dir := t.TempDir()
		for _, line := range printed {
			args := strings.Fields(line)
			if args[0] == "check" {
				continue
			}
			var to string
			if i := slices.Index(args, ">"); i >= 0 && i == len(args)-2 {
				to, args = filepath.Join(dir, args[i+1]), args[:i]
			}
			for i, a := range args {
				if _, err := os.Stat(filepath.Join(dir, a)); err == nil {
					args[i] = filepath.Join(dir, a)
				}
			}
			var out, errb bytes.Buffer
			o := io(&out)
			o.Err = &errb
			if code := run(o, append(args, "--no-color")); code != exitOK && code != exitMismatch {
				t.Errorf("archlab %s, as printed: exit %d\n%s%s", line, code, out.String(), errb.String())
			}
			if to != "" {
				if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
