package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/drills"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runCLI runs archlab with args in-process, as a pipe would see it: no
// terminal, no colour.
func runCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }}
	code = run(io, args)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/<name>, or rewrites it with -update.
// It always reads the file back, so an -update run also checks the write.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/archlab -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from the golden file (go test ./cmd/archlab -update rewrites it):\n%s", name, diff(string(want), got))
	}
}

// diff is a small line diff: enough to point at the first differences.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n- %s\n+ %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

// TestDrillFileIsTheDrill: every built-in drill run from its file, as a
// teacher would run a copy, prints what the drill prints, in every form.
func TestDrillFileIsTheDrill(t *testing.T) {
	dir := t.TempDir()
	for _, d := range drills.All() {
		src, err := drills.Source(d)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, d.Name+".txtar")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, form := range [][]string{nil, {"--trace"}, {"--json"}, {"--mermaid"}, {"--trace", "--lang", "zh"}} {
			byName, _, code1 := runCLI(t, nil, append([]string{"drill", d.Name}, form...)...)
			byFile, errOut, code2 := runCLI(t, nil, append([]string{"drill", "--file", path}, form...)...)
			if code1 != 0 || code2 != 0 || byName != byFile {
				t.Fatalf("%s %v: exit %d and %d (%s)\n%s", d.Name, form, code1, code2, errOut, diff(byName, byFile))
			}
		}
	}
}

// TestDrillGolden pins every drill's plain output (no colour) in English.
func TestDrillGolden(t *testing.T) {
	for _, d := range drills.All() {
		t.Run(d.Name, func(t *testing.T) {
			out, errOut, code := runCLI(t, nil, "drill", d.Name)
			if code != 0 {
				t.Fatalf("exit %d, stderr: %s", code, errOut)
			}
			golden(t, filepath.Join("drills", d.Name+".golden"), out)
		})
	}
}

// TestTraceAndExplainGolden pins every drill's timeline and lesson in both
// languages: a zombie committing the wrong offset, or a fence that is
// recorded but never committed, changes a trace.
func TestTraceAndExplainGolden(t *testing.T) {
	for _, d := range drills.All() {
		name := d.Name
		for _, lang := range []string{"en", "zh"} {
			t.Run(name+"/"+lang, func(t *testing.T) {
				out, errOut, code := runCLI(t, nil, "drill", name, "--trace", "--lang", lang)
				if code != 0 {
					t.Fatalf("exit %d, stderr: %s", code, errOut)
				}
				golden(t, filepath.Join("trace", name+"."+lang+".golden"), out)
				out, errOut, code = runCLI(t, nil, "explain", name, "--lang", lang)
				if code != 0 {
					t.Fatalf("explain: exit %d, stderr: %s", code, errOut)
				}
				golden(t, filepath.Join("explain", name+"."+lang+".golden"), out)
			})
		}
	}
}

// TestOutputIsDeterministic runs the whole suite twice in every output form
// and wants the same bytes: no map order, no clock.
func TestOutputIsDeterministic(t *testing.T) {
	for _, args := range [][]string{
		{"drill", "--all"},
		{"drill", "--all", "--json"},
		{"drill", "--all", "--trace"},
		{"drill", "--all", "--mermaid"},
	} {
		first, _, _ := runCLI(t, nil, args...)
		for range 3 {
			if again, _, _ := runCLI(t, nil, args...); again != first {
				t.Fatalf("%v: output changed between runs:\n%s", args, diff(first, again))
			}
		}
	}
}
