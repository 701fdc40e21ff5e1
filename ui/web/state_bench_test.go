package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"archlab/i18n"
	"archlab/ui/web"
)

// BenchmarkStatePage is one request for a state page, answered whole:
// the path replayed through the harness, the steps possible next each
// tried, the fewest steps to a violation counted, the page rendered. The
// starts are the explorer's default scopes (and one drill's world); the
// baseline, in the same run, is the counterexample page a state page
// branches from, which replays a fixed run and renders it. Each server
// has answered the page once before the timer starts, so what is
// measured is what every later request costs (the explorer's report and
// a start's drill run are learnt once per server).
func BenchmarkStatePage(b *testing.B) {
	for _, bm := range []struct{ name, target string }{
		{"baseline-counterexample-inbox", "/explore/inbox/naive?lang=en"},
		{"inbox-start", "/explore/inbox/state/?lang=en"},
		{"inbox-3-steps", "/explore/inbox/state/deliver-m1/deliver-m2.ack-lost/deliver-m2?lang=en&strategy=naive"},
		{"inbox-ack-lost-crash-mid", "/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&lang=en&strategy=mark-before-effect"},
		{"inbox-compare", "/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&lang=en&strategy=mark-before-effect&vs=effect-then-ack"},
		{"ordering-start", "/explore/ordering/state/?lang=en"},
		{"ordering-3-steps", "/explore/ordering/state/deliver-evt-1/deliver-evt-3/deliver-evt-2?lang=en&strategy=retry-only"},
		{"shardjob-start", "/explore/shardjob/state/?lang=en"},
		{"shardjob-2-steps", "/explore/shardjob/state/run-shard-0.e1.stall-25/run-shard-0.e2.zombie-0?lang=en&strategy=fence-at-first-commit"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			h := web.New(i18n.EN)
			req := func() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+bm.target, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: status %d", bm.target, w.Code)
				}
			}
			req()
			b.ReportAllocs()
			for b.Loop() {
				req()
			}
		})
	}
}
