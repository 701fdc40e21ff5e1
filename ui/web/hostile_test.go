package web_test

import (
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"archlab/i18n"
	"archlab/ui/view"
	"archlab/ui/web"
)

// TestSVGEscapes pins what the page must never do: put a step's text into
// the diagram unescaped. Every text of a diagram (a participant's name, a
// phase note, a step's label, action and result) can hold what a drill
// file wrote.
func TestSVGEscapes(t *testing.T) {
	const evil = "<script>&"
	d := view.Diagram{
		Participants: []view.Participant{{ID: evil, Name: evil}, {ID: "b", Name: "b"}},
		Items: []view.Item{
			{Note: evil, Step: 1},
			{From: 0, To: 1, Label: evil, Action: evil, Result: evil, Step: 1},
			{From: 1, To: 0, Label: evil, Action: evil, Result: evil, Fault: true, Step: 2},
			{From: 1, To: 1, Label: evil, Action: evil, Result: evil, Step: 3},
		},
	}
	svg := string(web.SVG(d))
	if strings.Contains(svg, "<script") || strings.Contains(svg, "&<") || strings.Contains(svg, "& ") {
		t.Fatalf("unescaped text in the diagram:\n%s", svg)
	}
	if n := strings.Count(svg, "&lt;script&gt;&amp;"); n < 8 {
		t.Fatalf("%d escaped copies of %q, want every text escaped:\n%s", n, evil, svg)
	}
	var _ template.HTML = web.SVG(d)
}

// TestHeaders pins the headers that keep the page from being framed or
// fed another site's content, on every answer, errors included.
func TestHeaders(t *testing.T) {
	h := web.New(i18n.EN)
	for _, target := range []string{"/", "/drill/ack-lost", "/drill/nope", "/assets/style.css"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+target, nil))
		csp := w.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || w.Header().Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: CSP %q, X-Frame-Options %q", target, csp, w.Header().Get("X-Frame-Options"))
		}
	}
}

// TestHostAndOrigin: a request for a host the server was not told is
// refused (421), so is a POST from another origin (403); the server's own
// hosts and its own origin are served.
func TestHostAndOrigin(t *testing.T) {
	h := web.NewWith(web.Options{Lang: i18n.EN, Hosts: []string{"192.0.2.7"}})
	for host, want := range map[string]int{
		"127.0.0.1:8017": 200, "localhost:8017": 200, "[::1]:8017": 200, "192.0.2.7:8017": 200, "LOCALHOST": 200,
		"evil.example:8017": 421, "127.0.0.1.evil.example": 421, "192.0.2.8:8017": 421, "": 421,
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %q: %d, want %d", host, w.Code, want)
		}
	}
	form := url.Values{"source": {"x"}}.Encode()
	for _, tt := range []struct {
		headers map[string]string
		want    int
	}{
		{map[string]string{"Origin": "http://evil.example"}, 403},
		{map[string]string{"Origin": "http://127.0.0.1:9999"}, 403},
		{map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{map[string]string{"Origin": "http://127.0.0.1:8017", "Sec-Fetch-Site": "same-origin"}, 400},
		{nil, 400}, // not a browser: curl
	} {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8017/file", strings.NewReader(form))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range tt.headers {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("POST with %v: %d, want %d", tt.headers, w.Code, tt.want)
		}
	}
}

// TestWhatIfNumbers: the what-if fields read numbers by the command line's
// rule: "+5", "007", " 5" and "5 " are refused there, so here too.
func TestWhatIfNumbers(t *testing.T) {
	h := web.New(i18n.EN)
	for _, v := range []string{"+5", "007", " 5", "5 ", "5.0", "0x5", "-0", "٥"} {
		code, body := get(t, h, "/drill/ack-lost?deliveries="+url.QueryEscape(v))
		if code != http.StatusBadRequest || !strings.Contains(body, "must be a whole number") {
			t.Errorf("deliveries=%q: %d, want 400: %s", v, code, errorLine(body))
		}
	}
	if code, body := get(t, h, "/drill/ack-lost?deliveries=5"); code != 200 || !strings.Contains(body, "deliveries") {
		t.Errorf("deliveries=5: %d", code)
	}
}

// TestPastedWrongCall: a wrong call of a built-in pasted into the page
// ({producer()} panicked the handler) is a message at its line, in the
// page's language.
func TestPastedWrongCall(t *testing.T) {
	h := web.New(i18n.EN)
	src := "drill p\nsection 8.2\n-- steps --\nmessage {producer()}:evt-1\n-- counters --\neffects\n-- checks --\nok: true\n"
	code, body := post(t, h, src)
	if code != http.StatusBadRequest || !strings.Contains(body, "pasted.txtar:4: message: msg: producer takes 1 argument(s), got 0") {
		t.Fatalf("%d: %s", code, errorLine(body))
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8017/file", strings.NewReader(url.Values{"source": {src}, "lang": {"zh"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	h.ServeHTTP(w, r)
	if body := noBreaks(w.Body.String()); !strings.Contains(body, "pasted.txtar:4: message：msg：producer 需要 1 个参数，收到 0 个") {
		t.Fatalf("zh: %s", errorLine(body))
	}
}
