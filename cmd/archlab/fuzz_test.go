package main

import (
	"encoding/json"
	"strings"
	"testing"

	"archlab/i18n"
	"archlab/ui/cli"
)

// refLang is cli.PickLang's rule written plainly: before "--", each --lang X or
// --lang=X must be zh or en, and the last one wins; a bare --lang at the end
// is left to cobra ("needs a value").
func refLang(args []string, env i18n.Lang) (i18n.Lang, bool) {
	lang := env
	for i := 0; i < len(args); i++ {
		var v string
		switch {
		case args[i] == "--":
			return lang, true
		case strings.HasPrefix(args[i], "--lang="):
			v = args[i][len("--lang="):]
		case args[i] == "--lang" && i+1 < len(args):
			v = args[i+1]
			i++
		default:
			continue
		}
		l, ok := i18n.Parse(v)
		if !ok {
			return "", false
		}
		lang = l
	}
	return lang, true
}

// FuzzPickLang: --lang is read as every other flag is (the last wins) and
// every value must be valid (issue 11: `--lang zh --lang fr` ran in
// Chinese). The arguments are the fuzzed string split on spaces.
func FuzzPickLang(f *testing.F) {
	for _, s := range []string{"--lang zh --lang fr", "--lang fr --lang zh", "--lang=en list", "--lang",
		"-- --lang fr", "--lang --lang zh", "drill --lang zh ack-lost --lang=en", "--lang= ", "--lang ZH", "--langzh"} {
		f.Add(s)
	}
	getenv := func(string) string { return "" }
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, " ")
		got, err := cli.PickLang(args, getenv)
		want, ok := refLang(args, i18n.FromEnv(getenv))
		if (err == nil) != ok || (ok && got != want) {
			t.Fatalf("cli.PickLang(%q) = %q, %v; want %q, ok=%v", args, got, err, want, ok)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("a two-line error: %q", err)
		}
	})
}

// FuzzFlagValue gives one value to a number, a boolean and the --db flag
// of the real command line: whatever it is, archlab answers with an exit
// status from its table and, for a usage error, one line and a hint, never
// a panic.
func FuzzFlagValue(f *testing.F) {
	for _, s := range []string{"3", "010", "0x10", "-1", "", "maybe", "true", "--trace", "a/", "99999999999999999999", "١"} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
		f.Add(uint8(2), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		var args []string
		switch which % 4 {
		case 0:
			args = []string{"drill", "ack-lost", "--deliveries", value}
		case 1:
			args = []string{"drill", "ack-lost", "--json=" + value}
		case 2:
			// --db with the default memory store is refused after the
			// value is read, so nothing is ever created.
			args = []string{"drill", "ack-lost", "--db", value}
		case 3:
			args = []string{"explore", "ordering", "--max-attempts", value}
		}
		stdout, stderr, code := runCLI(t, nil, args...)
		switch code {
		case exitOK, exitMismatch:
		case exitUsage:
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if len(lines) > 2 || !strings.HasPrefix(lines[0], "archlab: ") {
				t.Fatalf("%q: usage error of %d lines:\n%s", args, len(lines), stderr)
			}
			// stdout is empty, or (--json asked) the error as JSON.
			var je jsonError
			if stdout != "" && (json.Unmarshal([]byte(stdout), &je) != nil || je.Exit != exitUsage || "archlab: "+je.Error != lines[0]) {
				t.Fatalf("%q: stdout %q", args, stdout)
			}
		default:
			t.Fatalf("%q: exit %d\n%s", args, code, stderr)
		}
	})
}
