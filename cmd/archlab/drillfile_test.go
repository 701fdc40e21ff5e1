package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/harness"
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

// TestReadmeVerbs: the verb lists of the drill-file reference
// (docs/drill-files.md) are what the program prints, so they cannot drift
// from the harness.
func TestReadmeVerbs(t *testing.T) {
	readme, err := os.ReadFile("../../docs/drill-files.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range harness.Sections {
		s := sec.ID
		marker := "<!-- verbs " + s + " -->\n```\n"
		_, rest, ok := strings.Cut(string(readme), marker)
		if !ok {
			t.Fatalf("docs/drill-files.md has no %q block", marker)
		}
		block, _, _ := strings.Cut(rest, "```\n")
		out, _, code := runCLI(t, nil, "drill", "--verbs", s)
		if code != 0 || out != block {
			t.Fatalf("docs/drill-files.md's verbs of %s differ from archlab drill --verbs %s:\n%s", s, s, diff(out, block))
		}
	}
}

// TestHelpExamplesTeach: every drill with parameters shows, in its --help,
// a what-if its explanation suggests, and that what-if runs (exit 0).
func TestHelpExamplesTeach(t *testing.T) {
	for _, d := range drills.All() {
		if len(d.Params) == 0 {
			continue
		}
		out, _, _ := runCLI(t, nil, "drill", d.Name, "--help")
		found := false
		for _, l := range strings.Split(out, "\n") {
			cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "$ archlab ")
			if !ok || !strings.HasPrefix(cmd, "drill "+d.Name+" --") || strings.Contains(cmd, "--trace") || strings.Contains(cmd, "--source") || strings.Contains(cmd, "--store") {
				continue
			}
			found = true
			if _, errOut, code := runCLI(t, nil, strings.Fields(cmd)...); code != 0 {
				t.Errorf("%s: the example %q exits %d: %s", d.Name, cmd, code, errOut)
			}
		}
		if !found {
			t.Errorf("%s: --help shows no what-if", d.Name)
		}
	}
}

// TestReadmeSamples: every block marked <!-- sample: ARGS --> in the README
// or a page of docs/ is what archlab ARGS prints at 80 columns (after
// "$ archlab ARGS" when the block starts with it); -update rewrites them.
func TestReadmeSamples(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	samples := 0
	for _, path := range append([]string{"../../README.md"}, docs...) {
		samples += checkSamples(t, path)
	}
	if samples == 0 {
		t.Fatal("no <!-- sample: ARGS --> block in README.md or docs/")
	}
}

// checkSamples checks (or with -update rewrites) the samples of one page
// and returns how many it holds.
func checkSamples(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(path, "../../")
	lines := strings.Split(string(data), "\n")
	var out []string
	samples := 0
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		args, ok := strings.CutPrefix(lines[i], "<!-- sample: ")
		if !ok {
			continue
		}
		samples++
		args = strings.TrimSuffix(args, " -->")
		if i+1 >= len(lines) || lines[i+1] != "```" {
			t.Fatalf("%s line %d: a sample marker must sit right above a ``` block", name, i+1)
		}
		end := i + 2
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		old := lines[i+2 : end]
		got, _, _ := runWide(80, "", strings.Fields(args)...)
		block := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if len(old) > 0 && strings.HasPrefix(old[0], "$ archlab ") {
			block = append([]string{"$ archlab " + args}, block...)
		}
		if *update {
			out = append(out, "```")
			out = append(out, block...)
			i = end - 1
			continue
		}
		if strings.Join(old, "\n") != strings.Join(block, "\n") {
			t.Errorf("%s's sample of archlab %s is stale (go test ./cmd/archlab -run TestReadmeSamples -update):\n%s",
				name, args, diff(strings.Join(old, "\n"), strings.Join(block, "\n")))
		}
		out = append(out, old...)
		i = end - 1
	}
	if *update && samples > 0 {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return samples
}
