package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadDrillFiles: every malformed file under testdata/files/bad gets
// exit 2 and one line naming the file and line, what is wrong and what is
// allowed. Each file's first line says what the line must contain.
func TestBadDrillFiles(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/files/bad/*.txtar")
	if err != nil || len(paths) < 10 {
		t.Fatalf("want at least 10 kinds of bad file, found %d (%v)", len(paths), err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatalf("the file's first line must be # want: …")
			}
			before := string(data)
			out, errOut, code := runCLI(t, nil, "drill", "--file", p)
			if code != 2 || out != "" {
				t.Fatalf("exit %d, stdout %q; want 2 and nothing on stdout", code, out)
			}
			line, _, _ := strings.Cut(errOut, "\n")
			if !strings.HasPrefix(line, "archlab: "+p+want) {
				t.Fatalf("stderr %q\nwant    %q", line, "archlab: "+p+want+"…")
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Fatalf("a panic: %s", errOut)
			}
			if after, _ := os.ReadFile(p); string(after) != before {
				t.Fatal("the refused file was changed")
			}
		})
	}
}

// TestRewriteRoundTrips: --rewrite fills in the expected counters of a
// teacher's file; the file then runs green, and a second rewrite leaves it
// byte for byte as it was.
func TestRewriteRoundTrips(t *testing.T) {
	src, err := os.ReadFile("../../testdata/files/ack-lost-twice-then-crash.txtar")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mine.txtar")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, nil, "drill", "--file", path, "--rewrite"); code != 0 || !strings.Contains(errOut, "wrote 4 expected counters") {
		t.Fatalf("rewrite: exit %d: %s", code, errOut)
	}
	once, _ := os.ReadFile(path)
	if !strings.Contains(string(once), "-- expect --\ndeliveries 4\neffects 1\nbalance 2599\nacks 3\n") {
		t.Fatalf("no expect part after rewrite:\n%s", once)
	}
	out, _, code := runCLI(t, nil, "drill", "--file", path)
	if code != 0 || !strings.Contains(out, "4 counters match the file's expect part") {
		t.Fatalf("run after rewrite: exit %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, nil, "drill", "--file", path, "--rewrite"); code != 0 {
		t.Fatalf("second rewrite: exit %d", code)
	}
	if twice, _ := os.ReadFile(path); string(twice) != string(once) {
		t.Fatalf("a second rewrite changed the file:\n%s", diff(string(once), string(twice)))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("rewrite changed the file's mode to %v", st.Mode().Perm())
	}
	// A wrong expectation fails the file, exit 1, naming the counter.
	wrong := strings.Replace(string(once), "effects 1\n", "effects 2\n", 1)
	if err := os.WriteFile(path, []byte(wrong), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, nil, "drill", "--file", path); code != 1 || !strings.Contains(errOut, "effects") {
		t.Fatalf("wrong expectation: exit %d: %s", code, errOut)
	}
}

// TestReadmeVerbs: the README's verb lists are what the program prints, so
// they cannot drift from the harness.
func TestReadmeVerbs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"8.2", "8.3", "11.2"} {
		marker := "<!-- verbs " + s + " -->\n```\n"
		_, rest, ok := strings.Cut(string(readme), marker)
		if !ok {
			t.Fatalf("README has no %q block", marker)
		}
		block, _, _ := strings.Cut(rest, "```\n")
		out, _, code := runCLI(t, nil, "drill", "--verbs", s)
		if code != 0 || out != block {
			t.Fatalf("README's verbs of %s differ from archlab drill --verbs %s:\n%s", s, s, diff(out, block))
		}
	}
}
