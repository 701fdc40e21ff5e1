package web_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"archlab/i18n"
	"archlab/ui/web"
)

// headsCheck measures one diagram: whether its participants' heads are in
// view at the top of its box, and the current step's labels that sit under
// them (a label the sticky heads hide).
const headsCheck = `(() => {
  const out = [];
  for (const box of document.querySelectorAll('#diagram, .diagram')) {
    const heads = box.querySelector('svg g.heads');
    if (!heads) continue;
    const b = box.getBoundingClientRect(), h = heads.getBoundingClientRect();
    if (h.top < b.top - 1 || h.top > b.top + 40) out.push('heads out of view: ' + h.top + ' vs box ' + b.top);
    for (const t of box.querySelectorAll('g.step.current text')) {
      const r = t.getBoundingClientRect();
      if (r.bottom > b.top && r.top < b.bottom && r.top < h.bottom - 1) out.push('under the heads: ' + t.textContent);
    }
  }
  return out;
})()`

// TestHeadsNeverHideALabel: on a drill's page, at every step, the current
// step's labels are below the participants' heads that stay at the top of
// the diagram (the zh ack-lost step 3 sat under them); a state page keeps
// its heads in view too, where it scrolls to its last step (they were
// scrolled away: no lifeline names at all). zh and en, 1280×720
// (issue 34, point 4).
func TestHeadsNeverHideALabel(t *testing.T) {
	t.Parallel() // a browser of its own: beside the other browser tests
	srv := httptest.NewServer(web.New(i18n.EN))
	defer srv.Close()
	ctx := newBrowser(t)
	for _, lang := range []string{"zh", "en"} {
		for _, d := range []string{"ack-lost", "mark-before-effect", "crash-resume", "reconcile-gaps"} {
			t.Run(lang+"/"+d, func(t *testing.T) {
				if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/drill/"+d+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`#diagram svg`))); err != nil {
					t.Fatal(err)
				}
				total, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#rows li').length`))
				if err != nil {
					t.Fatal(err)
				}
				for step := 1; step <= total; step++ {
					key(t, ctx, kb.ArrowRight)
					bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](headsCheck))
					if err != nil {
						t.Fatal(err)
					}
					if len(bad) > 0 {
						t.Errorf("step %d: %v", step, bad)
					}
				}
			})
		}
		for i, u := range statePages {
			t.Run(fmt.Sprintf("%s/state-%d", lang, i+1), func(t *testing.T) {
				if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+u+"&lang="+lang), chromedp.WaitVisible(chromedp.CSS(`.diagram svg`)), chromedp.Sleep(300e6)); err != nil {
					t.Fatal(err)
				}
				bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](headsCheck))
				if err != nil {
					t.Fatal(err)
				}
				if len(bad) > 0 {
					t.Errorf("%s: %v", u, bad)
				}
			})
		}
	}
}
