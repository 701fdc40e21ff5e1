package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"archlab/i18n"
)

// TestClassPageLimits: /class is held to every other page's rules (issue
// 43, points 4 and 7): another site's page cannot fetch it as a resource;
// reading the folder waits for a run slot within the request's deadline;
// and with names hidden, the files refused (named by the students'
// names) are counted, not named.
func TestClassPageLimits(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "zoe-kim.json"), []byte(`{"exercises": [`), 0o644)
	s := NewWith(Options{Lang: i18n.EN, Class: dir, Slots: 1, Deadline: 200 * time.Millisecond})
	get := func(path string, header map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	w := get("/class", nil)
	if w.Code != http.StatusOK || strings.Contains(w.Body.String(), "zoe-kim") || !strings.Contains(w.Body.String(), "Files not read: 1.") {
		t.Errorf("/class without --names: %d, names the refused file: %t; want 200 and a count", w.Code, strings.Contains(w.Body.String(), "zoe-kim"))
	}
	for _, path := range []string{"/class", "/class/run/1"} {
		w = get(path, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"})
		if w.Code != http.StatusForbidden {
			t.Errorf("%s fetched as another site's image: %d, want 403", path, w.Code)
		}
	}
	s.slots <- struct{}{} // every slot busy
	w = get("/class", nil)
	<-s.slots
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("/class with every run slot taken: %d, want 503", w.Code)
	}
}
