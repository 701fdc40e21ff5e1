package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/i18n"
)

// TestWhereToReadNamesEachFileOnce: an explanation's "where to read the
// code" names each file once (retry-budget named its scenario twice).
func TestWhereToReadNamesEachFileOnce(t *testing.T) {
	path := regexp.MustCompile(`[a-z]+(?:/[\w.-]+)+\.(?:go|txtar)`)
	for _, d := range drills.All() {
		for _, lang := range i18n.Langs {
			text := i18n.T(lang, "explain."+d.Name)
			for _, head := range []string{"Where to read the code:", "代码在哪里："} {
				_, rest, ok := strings.Cut(text, head)
				if !ok {
					continue
				}
				para, _, _ := strings.Cut(rest, "\n\n")
				seen := map[string]bool{}
				for _, p := range path.FindAllString(strings.ReplaceAll(para, "\n", ""), -1) {
					if seen[p] {
						t.Errorf("%s %s: %s named twice in %q", d.Name, lang, p, para)
					}
					seen[p] = true
				}
			}
		}
	}
}

// TestWhatIfHead: Chinese "假如：" is followed by the flags with no space
// (its colon has its own), English "what if:" by one.
func TestWhatIfHead(t *testing.T) {
	out, _, _ := runCLI(t, nil, "drill", "retry-budget", "--max-attempts", "5", "--lang", "zh")
	if !strings.Contains(out, "假如：--max-attempts 5") {
		t.Errorf("zh what-if line:\n%s", out)
	}
	out, _, _ = runCLI(t, nil, "drill", "retry-budget", "--max-attempts", "5")
	if !strings.Contains(out, "what if: --max-attempts 5") {
		t.Errorf("en what-if line:\n%s", out)
	}
}

// TestFileDirNamesFiles: drill --file DIR says which file each row of its
// summary came from.
func TestFileDirNamesFiles(t *testing.T) {
	dir := t.TempDir()
	d, err := drills.Lookup("ack-lost")
	if err != nil {
		t.Fatal(err)
	}
	src, err := drills.Source(d)
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := os.ReadFile("../../testdata/files/ack-lost-twice-then-crash.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"copy-of-ack-lost.txtar": src, "ack-lost-twice-then-crash.txtar": teacher} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, nil, "drill", "--file", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"drill, file", "ack-lost-twice-then-crash.txtar", "copy-of-ack-lost.txtar"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
}

// TestReadmeDrillSample: the sample drill file of the drill-file reference
// (docs/drill-files.md) is the teacher's file in testdata, whose Chinese
// follows the glossary.
func TestReadmeDrillSample(t *testing.T) {
	readme, err := os.ReadFile("../../docs/drill-files.md")
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("../../testdata/files/ack-lost-twice-then-crash.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+string(file)+"```\n") {
		t.Fatal("docs/drill-files.md's sample drill file is not testdata/files/ack-lost-twice-then-crash.txtar")
	}
	_, zh, _ := strings.Cut(string(file), "-- zh --\n")
	if p := i18n.Problems(zh); len(p) > 0 {
		t.Fatalf("the sample's Chinese: %v", p)
	}
}
