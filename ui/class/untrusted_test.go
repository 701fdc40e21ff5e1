package class

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"archlab/check"
	"archlab/i18n"
)

// result is a check --json result of one exercise breaking lessons ids,
// with texts the result's own.
func result(exercise string, ids ...string) string {
	q := func(ss []string) string {
		var out []string
		for _, s := range ss {
			out = append(out, fmt.Sprintf("%q", s))
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	texts := make([]string, len(ids))
	for i := range texts {
		texts[i] = "ARCHLAB SAYS: everyone gets full marks"
	}
	return fmt.Sprintf(`{"exercises": [{"name": %q, "status": "not-done", "lessons": %s, "lesson_ids": %s}], "archlab_version": "v1", "sources_sha256": "%064x"}`,
		exercise, q(texts), q(ids), len(ids))
}

func readClass(t *testing.T, files map[string]string) (*Class, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Read(i18n.EN, dir)
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]string{}
	for _, r := range c.Refused {
		refused[r.File] = r.Why
	}
	return c, refused
}

// TestClassWordsAreArchlabs: a lesson's words on the projector are
// archlab's, never a result's (issue 43, point 5): an ID archlab does not
// know, a fault class or a clause a result made up, or a direction
// override is refused; a unit's or a counter's row is named in archlab's
// words, not the text the result carries.
func TestClassWordsAreArchlabs(t *testing.T) {
	t.Parallel()
	c, refused := readClass(t, map[string]string{
		"made-up.json":   result("consumer-handler", "explore/full-marks"),
		"unfired.json":   result("consumer-handler", "unfired/everyone-gets-full-marks"),
		"unreached.json": result("ledger", "unreached/everyone-gets-full-marks"),
		"counter.json":   result("consumer-handler", "counter/ack-lost/made_up"),
		"override.json":  strings.Replace(result("consumer-handler", "explore/not-lost"), "ARCHLAB", "\u202eARCHLAB", 1),
		"unit.json":      result("ledger", "unit/"+firstUnit(t, "ledger")),
		"fine.json":      result("consumer-handler", "unfired/crash-mid"),
	})
	for _, f := range []string{"made-up.json", "unfired.json", "unreached.json", "counter.json", "override.json"} {
		if refused[f] == "" {
			t.Errorf("%s was read, want it refused", f)
		}
	}
	if len(c.Students) != 2 {
		t.Fatalf("read %d students, refused %v; want unit and fine read", len(c.Students), refused)
	}
	for _, row := range Count(i18n.EN, c).Rows {
		if strings.Contains(row.Text, "ARCHLAB SAYS") {
			t.Errorf("row %s reads the result's own words: %q", row.ID, row.Text)
		}
	}
}

func firstUnit(t *testing.T, exercise string) string {
	ex, err := check.Lookup(exercise)
	if err != nil || len(ex.Units) == 0 {
		t.Fatalf("%s has no units", exercise)
	}
	return ex.Units[0].Name
}

// TestClassLookAlikeNames: names that read the same are one student
// (issue 43, point 6): é in two Unicode forms, a Cyrillic name that reads
// as a Latin one, a name in fullwidth or mathematical letters (a second
// round found both counted apart); a name with a zero-width space or a
// direction override, or mixing the Latin alphabet with a look-alike one,
// is refused.
func TestClassLookAlikeNames(t *testing.T) {
	t.Parallel()
	body := result("consumer-handler", "explore/not-lost")
	c, refused := readClass(t, map[string]string{
		"\u00e9lodie.json":   body, // é, one code point
		"e\u0301lodie.json":  body, // e and a combining accent
		"zoe.json":           body,
		"zo\u200be.json":     body, // a zero-width space
		"\u202eeoz.json":     body, // a right-to-left override
		"anna.json":          body,
		"\u0430nna.json":     body, // a Cyrillic а among Latin letters
		"ape.json":           body,
		"\u0430\u0440е.json": body, // Cyrillic а, р, е: reads "ape"
		"мария.json":         body, // Cyrillic, and looks like no one else
		"ｚｏｅ.json":           body, // fullwidth letters: reads "zoe"
		"\U0001d41a\U0001d427\U0001d427\U0001d41a.json": body, // mathematical bold: reads "anna"
		"Anna.json": body, // another case: one login
		"ZOE.json":  body,
	})
	var names []string
	for _, s := range c.Students {
		names = append(names, s.Name)
	}
	// The first in the folder's order stands for the others.
	if got := strings.Join(names, " "); got != "Anna ZOE ape élodie мария" && got != "Anna ZOE ape \u00e9lodie мария" {
		t.Errorf("students %q, want Anna ZOE ape élodie мария (refused %v)", got, refused)
	}
	for _, f := range []string{"zo\\u200be.json", "\\u202eeoz.json", "\u0430nna.json", "\u0430\u0440е.json"} {
		if refused[f] == "" {
			t.Errorf("%q was read, want it refused (refused %v)", f, refused)
		}
	}
	if why := refused["\u00e9lodie.json"]; !strings.Contains(why, "reads the same as e\u0301lodie.json") {
		t.Errorf("é typed another way: %q, want it named a look-alike", why)
	}
	for _, f := range []string{"ｚｏｅ.json", "\U0001d41a\U0001d427\U0001d427\U0001d41a.json", "anna.json", "zoe.json"} {
		if !strings.Contains(refused[f], "reads the same as") {
			t.Errorf("%q: %q, want it named a look-alike", f, refused[f])
		}
	}
	if len(refused) != 9 {
		t.Errorf("refused %v, want 9: é twice, the invisible two, the mixed, the look-alike, fullwidth, bold, another case twice", refused)
	}
}

// TestClassFIFOSwappedIn: a FIFO in place of a result when it is opened
// is refused at once (issue 43, point 8: one swapped in between stat and
// open hung archlab class). readFile is what opens after the stat.
func TestClassFIFOSwappedIn(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "zoe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := readFile(fifo, "check.json"); done <- err }()
	select {
	case err := <-done:
		if why(i18n.EN, err) != i18n.T(i18n.EN, "class.err.special") {
			t.Errorf("err %v, want the FIFO refused", err)
		}
	case <-time.After(20 * time.Second): // only a guard: the refusal is at once
		t.Fatal("reading a FIFO blocked")
	}
	link := filepath.Join(t.TempDir(), "link.json")
	os.Symlink(fifo, link)
	if _, err := readFile(link, "check.json"); why(i18n.EN, err) != i18n.T(i18n.EN, "class.err.special") {
		t.Errorf("a link at open: err %v, want it refused", err)
	}
}

// TestClassRowsReadApart: two rows never read the same, in either
// language. The same check broken in two drills and in the explorer was
// three rows of "no message is applied twice" (issue 42, the walk
// again); a drill's row names its drill.
func TestClassRowsReadApart(t *testing.T) {
	t.Parallel()
	c, refused := readClass(t, map[string]string{
		"ada.json": result("consumer-handler", "explore/not-doubled", "drill/ack-lost/not-doubled", "drill/dedup-scope/not-doubled"),
	})
	if len(refused) > 0 {
		t.Fatalf("refused: %v", refused)
	}
	for _, lang := range i18n.Langs {
		rows := Count(lang, c).Rows
		if len(rows) != 3 {
			t.Fatalf("%s: %d rows, want 3", lang, len(rows))
		}
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r.Text] {
				t.Errorf("%s: two rows read %q", lang, r.Text)
			}
			seen[r.Text] = true
		}
	}
}
