package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGlossary: no Chinese text of the catalogue uses a variant the
// glossary rejects, or ASCII punctuation between Chinese words. The drill
// files' Chinese is checked in package drills (TestDrillTextsGlossary).
func TestGlossary(t *testing.T) {
	for _, k := range Keys(ZH) {
		s, _ := lookup(ZH, k)
		for _, p := range Problems(s) {
			t.Errorf("zh %s: %s", k, p)
		}
	}
}

// TestGlossaryConsistent: each term is chosen once, and no term rejects
// what another chooses.
func TestGlossaryConsistent(t *testing.T) {
	chosen := map[string]string{}
	for _, term := range Glossary {
		if prev, ok := chosen[term.ZH]; ok {
			t.Errorf("%s is chosen for both %q and %q", term.ZH, prev, term.EN)
		}
		chosen[term.ZH] = term.EN
	}
	for _, term := range Glossary {
		for _, v := range term.Rejected {
			if en, ok := chosen[v]; ok {
				t.Errorf("%q rejects %s, which is the term for %q", term.EN, v, en)
			}
		}
	}
}

// TestGlossaryProblems: what Problems catches and what it leaves alone.
func TestGlossaryProblems(t *testing.T) {
	tests := []struct {
		text string
		bad  bool
	}{
		{"下游(sink)", true},
		{"下游（sink）", true},
		{"已崩溃（simulated）", true},
		{"设围栏：纪元 2", false},
		{"隔离（fencing）", true},
		{"每一种调度", true},
		{"已生效，balance 2599", true},
		{"balance=2599 是一笔付款", false},
		{"已生效,余额 2599", true},
		{"已生效：余额 2599", false},
		{"用法：archlab [flags]", true},
		{"消费者组重启", false},
		{"消费者崩溃", true},
		{"偏移量 5", false},
		{"偏移 5", true},
		{"见 ack-lost 演练", false},
		{"用 --workers 指定", false},
		{"inbox.ErrAckLost 与 harness.ErrCrashed", false},
		{"  $ archlab explore inbox --emit > fence.txtar", false},
		{"min(订单数, 分区数)", true},
		{"没有键）； d.Ack()", true},
		{"而不是按时间。Ledger.Prune", false},
	}
	for _, tt := range tests {
		if got := len(Problems(tt.text)) > 0; got != tt.bad {
			t.Errorf("Problems(%q) = %v, want a problem: %v", tt.text, Problems(tt.text), tt.bad)
		}
	}
}

// hanComment is a Go comment line holding Chinese.
var hanComment = regexp.MustCompile(`//.*\p{Han}.*`)

// TestGlossaryExercises: the Chinese doc comments a student reads in
// exercises/*.go follow the glossary too.
func TestGlossaryExercises(t *testing.T) {
	files, err := filepath.Glob("../exercises/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no exercises: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := hanComment.FindString(line)
			if m == "" {
				continue
			}
			// Only the Chinese part of a line that holds both languages.
			m = strings.TrimPrefix(m, "//")
			if k := strings.IndexFunc(m, cjk); k > 0 && strings.Contains(m[:k], ". ") {
				m = m[strings.LastIndex(m[:k], ". ")+2:]
			}
			for _, p := range Problems(m) {
				t.Errorf("%s:%d: %s", filepath.Base(f), i+1, p)
			}
		}
	}
}

// TestGlossaryFile: GLOSSARY.md, the page a translator reads, lists every
// term of the table with its rejected variants.
func TestGlossaryFile(t *testing.T) {
	data, err := os.ReadFile("GLOSSARY.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, term := range Glossary {
		row := "| " + term.EN + " | " + term.ZH + " | " + strings.Join(term.Rejected, "、") + " |"
		if !strings.Contains(page, row) {
			t.Errorf("GLOSSARY.md has no row %q", row)
		}
	}
}
