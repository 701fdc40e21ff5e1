package web_test

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/web"
)

// get returns a page's status and its HTML, without the <wbr>s a Chinese
// page has between its words (wbr.go), so a test reads its words whole.
func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+target, nil))
	return w.Code, noBreaks(w.Body.String())
}

// noBreaks is html without its <wbr>s.
func noBreaks(html string) string { return strings.ReplaceAll(html, "<wbr>", "") }

func post(t *testing.T, h http.Handler, source string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8017/file", strings.NewReader(url.Values{"source": {source}, "lang": {"en"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	h.ServeHTTP(w, r)
	return w.Code, noBreaks(w.Body.String())
}

// TestEveryDrillPage: every built-in drill's page runs and passes, in both
// languages, with every step in its diagram.
func TestEveryDrillPage(t *testing.T) {
	h := web.New(i18n.EN)
	for _, d := range drills.All() {
		for _, lang := range i18n.Langs {
			code, body := get(t, h, "/drill/"+d.Name+"?lang="+string(lang))
			if code != http.StatusOK {
				t.Errorf("%s %s: status %d", d.Name, lang, code)
				continue
			}
			if !strings.Contains(body, `id="verdict" class="verdict good"`) {
				t.Errorf("%s %s: no PASS verdict", d.Name, lang)
			}
			res, _ := d.Run(d.Defaults())
			if n := strings.Count(body, `<g class="step`); n != len(res.Steps) {
				t.Errorf("%s %s: the diagram has %d steps, the run %d", d.Name, lang, n, len(res.Steps))
			}
		}
	}
}

// TestBadInput: a wrong value is the reader's to fix: a clear message and
// a 4xx, never a 500.
func TestBadInput(t *testing.T) {
	h := web.New(i18n.EN)
	tests := []struct {
		name, target string
		code         int
		want         string
	}{
		{"below the minimum", "/drill/crash-resume?commit-every=0", 400, "--commit-every must be between 1 and"},
		{"not a number", "/drill/crash-resume?commit-every=ten", 400, "--commit-every must be a whole number, got &#34;ten&#34;"},
		{"derived bound", "/drill/crash-resume?crash-after=1000", 400, "--crash-after must be between"},
		{"huge", "/drill/crash-resume?keys=99999999999999999999999", 400, "whole number"},
		{"unknown drill", "/drill/ack-lots", 404, "unknown drill"},
		{"unknown mechanism", "/explore/queue", 404, "unknown mechanism"},
		{"no counterexample", "/explore/inbox/effect-then-ack", 404, "has no counterexample"},
		{"zh message", "/drill/crash-resume?commit-every=0&lang=zh", 400, "--commit-every"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := get(t, h, tt.target)
			if code != tt.code || !strings.Contains(body, tt.want) {
				t.Errorf("GET %s: %d, want %d with %q in\n%s", tt.target, code, tt.code, tt.want, errorLine(body))
			}
		})
	}
}

func errorLine(body string) string {
	if i := strings.Index(body, `id="error"`); i >= 0 {
		return body[i:min(len(body), i+300)]
	}
	return "(no error line)"
}

// TestPaste: a pasted file is parsed as --file parses one, errors name
// the line, and a body larger than a drill file may be is refused unread.
func TestPaste(t *testing.T) {
	h := web.New(i18n.EN)
	src, err := os.ReadFile("../../testdata/files/ack-lost-twice-then-crash.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := post(t, h, string(src)); code != 200 || !strings.Contains(body, "ack-lost-twice-then-crash") {
		t.Errorf("a teacher's file: status %d", code)
	}
	if code, body := post(t, h, ""); code != 400 || !strings.Contains(body, "the field is empty") {
		t.Errorf("an empty field: status %d, %s", code, errorLine(body))
	}
	if code, body := post(t, h, "-- drill --\nname x\nsection 8.2\n-- steps --\nfly\n"); code != 400 || !strings.Contains(body, "pasted.txtar:") {
		t.Errorf("a bad file: status %d, %s", code, errorLine(body))
	}
	big := strings.Repeat("# a comment line\n", drills.MaxFileBytes/17+10)
	if code, body := post(t, h, big); code != 400 || !strings.Contains(body, "at most") {
		t.Errorf("a file over MaxFileBytes: status %d, %s", code, errorLine(body))
	}
	huge := strings.Repeat("%00", web.MaxBodyBytes) // past the body limit
	if code, _ := post(t, h, huge); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over MaxBodyBytes: status %d", code)
	}
	if code, _ := get(t, h, "/file"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /file: status %d", code)
	}
}

// TestExplorePages: each mechanism's report, and each counterexample as a
// step-through.
func TestExplorePages(t *testing.T) {
	h := web.New(i18n.ZH)
	for _, m := range web.Mechanisms {
		code, body := get(t, h, "/explore/"+m)
		if code != 200 {
			t.Fatalf("explore %s: %d", m, code)
		}
		for _, part := range strings.Split(body, `class="cex" href="`)[1:] {
			link, _, _ := strings.Cut(part, `"`)
			link = strings.ReplaceAll(link, "&amp;", "&")
			if code, body := get(t, h, link); code != 200 || !strings.Contains(body, `<g class="step`) {
				t.Errorf("%s: status %d", link, code)
			}
		}
	}
}

// TestAssets: everything the page needs is served from the binary.
func TestAssets(t *testing.T) {
	h := web.New(i18n.EN)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for path, ctype := range map[string]string{"/assets/style.css": "text/css", "/assets/app.js": "javascript", "/": "text/html"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), ctype) || len(b) == 0 {
			t.Errorf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
			t.Errorf("%s refers to another site: the page must work offline", path)
		}
	}
}

// TestPasteKeepsBuiltinWords: a teacher's edited copy of ack-lost shows
// its own title, and ack-lost's page still shows the book's afterwards.
func TestPasteKeepsBuiltinWords(t *testing.T) {
	h := web.New(i18n.EN)
	d, _ := drills.Lookup("ack-lost")
	src, err := drills.Source(d)
	if err != nil {
		t.Fatal(err)
	}
	title := d.Title(i18n.EN)
	edited := strings.Replace(string(src), title, "MY OWN TITLE", 1)
	if edited == string(src) {
		t.Fatalf("the title %q is not in ack-lost's file", title)
	}
	if code, body := post(t, h, edited); code != 200 || !strings.Contains(body, "MY OWN TITLE") {
		t.Fatalf("the edited copy: status %d, own title shown: %v", code, strings.Contains(body, "MY OWN TITLE"))
	}
	if _, body := get(t, h, "/drill/ack-lost"); strings.Contains(body, "MY OWN TITLE") {
		t.Error("ack-lost's page shows the pasted file's title")
	}
	// An unchanged copy is the built-in drill: compared with the book.
	if code, body := post(t, h, string(src)); code != 200 || !strings.Contains(body, "match the book") {
		t.Errorf("an unchanged copy: status %d, compared with the book: %v", code, strings.Contains(body, "match the book"))
	}
}

// TestPastePlaceholderRuns: the paste box's placeholder is a drill file
// that runs as it reads, not a fragment of syntax (issue 34, point 4), and
// the limit reads in KiB; the explorer's page prints its scope as flags a
// reader can type (--poison a switch) and its count grouped, as the
// terminal does.
func TestPastePlaceholderRuns(t *testing.T) {
	s := web.New(i18n.EN)
	_, body := get(t, s, "/?lang=zh")
	_, rest, ok := strings.Cut(body, `placeholder="`)
	if !ok {
		t.Fatal("no placeholder")
	}
	ph, _, _ := strings.Cut(rest, `"`)
	code, page := post(t, s, html.UnescapeString(ph))
	if code != http.StatusOK || !strings.Contains(page, "1/1") {
		t.Errorf("the placeholder as a drill file: %d\n%s", code, errorLine(page))
	}
	if !strings.Contains(body, "最多 256 KiB") {
		t.Error("the paste limit does not read in KiB")
	}
	_, ord := get(t, s, "/explore/ordering?lang=en")
	if strings.Contains(ord, "--poison 0") || !strings.Contains(ord, "576 schedules (--duplicates 2 --max-attempts 3)") {
		t.Errorf("the ordering page's scope: %s", errorLine(ord))
	}
	if _, inbox := get(t, s, "/explore/inbox?lang=en"); !strings.Contains(inbox, "4,272 schedules") {
		t.Error("the inbox page's count is not grouped as the terminal's")
	}
}
