package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/i18n"
)

// TestMistakePagesExist: each mistake the class page links to the
// explorer is a known mistake, and its link opens a counterexample page.
func TestMistakePagesExist(t *testing.T) {
	s := New(i18n.EN)
	for mistake, pg := range mistakePages {
		if !i18n.Has(i18n.EN, "check.mistake."+mistake) {
			t.Errorf("%s: no such mistake", mistake)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+pg.path(), nil))
		if w.Code != http.StatusOK {
			t.Errorf("%s: %s answers %d", mistake, pg.path(), w.Code)
		}
	}
}

// TestMistakeDrillsExist: each mistake the class page links to a drill
// is a known mistake no strategy of the explorer makes, and the drill is
// one of the book's.
func TestMistakeDrillsExist(t *testing.T) {
	for mistake, d := range mistakeDrills {
		if !i18n.Has(i18n.EN, "check.mistake."+mistake) {
			t.Errorf("%s: no such mistake", mistake)
		}
		if _, ok := mistakePages[mistake]; ok {
			t.Errorf("%s: in both tables", mistake)
		}
		if _, err := drills.Lookup(d); err != nil {
			t.Errorf("%s: %v", mistake, err)
		}
	}
}

// TestClassPageWords: a class of one student with a run of one step
// reads "1 student" and "1 step" (not "1 students", "1 steps"); its
// mistake row links to the drill that shows the mistake, and a drill's
// lesson row to its drill (the walk again: it had no link); the run opens in
// the browser, not as a download; and the students are listed by number
// under each row, as the footnote says (issue 42).
func TestClassPageWords(t *testing.T) {
	dir := t.TempDir()
	one := `{"exercises": [{"name": "consumer-handler", "status": "not-done", "lessons": ["no message is lost", ""], "lesson_ids": ["explore/not-lost", "drill/ack-lost/not-doubled"], "mistake": "ack-first", "drill_file": "drill x\nsection 8.2\nharness inbox\nstrategy student\n-- steps --\nmessage pay:evt-1 seq=1 order=o-1 amount=100\n-- counters --\neffects\n-- checks --\nonce: effects == 1\n"}], "archlab_version": "v1.0.0", "sources_sha256": "` + strings.Repeat("a", 64) + `"}`
	if err := os.WriteFile(filepath.Join(dir, "ada.json"), []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewWith(Options{Lang: i18n.EN, Class: dir})
	get := func(target string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+target, nil))
		return w
	}
	w := get("/class?lang=en")
	body := w.Body.String()
	for _, want := range []string{"The class: 1 student.", "1 step · ", `href="/drill/ack-before-effect?lang=en"`, `<div class="class-names">#1</div>`, "The first column numbers the rows", "from #1&#39;s result",
		`href="/drill/ack-lost?lang=en">the drill ack-lost, step by step`} {
		if !strings.Contains(body, want) {
			t.Errorf("the class page has no %q", want)
		}
	}
	for _, not := range []string{"1 students", "1 steps", " download>", "ada"} {
		if strings.Contains(body, not) {
			t.Errorf("the class page says %q", not)
		}
	}
	w = get("/class/run/2?lang=en") // row 1 is the drill's lesson, which the run does not show
	if d := w.Header().Get("Content-Disposition"); w.Code != http.StatusOK || !strings.HasPrefix(d, "inline;") {
		t.Errorf("the run: %d, Content-Disposition %q: want it shown, inline", w.Code, d)
	}
}
