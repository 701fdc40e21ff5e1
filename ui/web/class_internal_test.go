package web

import (
	"net/http"
	"net/http/httptest"
	"testing"

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
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017/explore/"+pg[0]+"/"+pg[1], nil))
		if w.Code != http.StatusOK {
			t.Errorf("%s: /explore/%s/%s answers %d", mistake, pg[0], pg[1], w.Code)
		}
	}
}
