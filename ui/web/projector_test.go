package web_test

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/web"
)

// layout is what a projector shows of a drill's page, measured in the
// browser: the diagram's text lines, and whatever overflows.
type layout struct {
	Lines     []float64 `json:"lines"`     // the height of every line of diagram text, in CSS px
	Cut       []string  `json:"cut"`       // lines that reach past the diagram's edges
	Wide      []string  `json:"wide"`      // boxes that scroll sideways
	Ellipsis  []string  `json:"ellipsis"`  // labels shortened with "…"
	Lost      []string  `json:"lost"`      // labels whose drawn lines do not add up to the label
	Revealed  []string  `json:"revealed"`  // what the page shows of the ending: values, marks, lessons, verdict
	RevealAt  int       `json:"revealAt"`  // the first step of the verdict phase
	StepCount int       `json:"stepCount"` // the run's steps
	Offscreen []string  `json:"offscreen"` // the what-if form's Run button and reset link, where they are outside the screen
	Unseen    []string  `json:"unseen"`    // the verdict and the checks, where they are shown but not inside the screen
}

const measure = `(() => {
  const box = document.getElementById('diagram');
  const svg = box.querySelector('svg');
  const s = svg.getBoundingClientRect();
  const lines = [], cut = [], wide = [], ellipsis = [], lost = [], revealed = [];
  for (const t of svg.querySelectorAll('tspan.line')) {
    const r = t.getBoundingClientRect();
    lines.push(r.height);
    if (r.left < s.left - 1 || r.right > s.right + 1) cut.push(t.textContent);
  }
  for (const g of svg.querySelectorAll('g.step')) {
    const title = g.querySelector('title').textContent.replace(/\s+/g, '');
    const [act, res] = Array.from(g.querySelectorAll('text')).map(t => t.textContent.replace(/\s+/g, ''));
    const drawn = act + res;
    // The title is "N. action: result"; the lines draw "N. action" and "result".
    if (title !== act + ':' + res) lost.push(title + ' ≠ ' + act + ':' + res);
    if (drawn.includes('…') && !title.includes('…')) ellipsis.push(title);
  }
  for (const el of [document.documentElement, document.body, box, document.querySelector('.side'), document.querySelector('.controls'), document.getElementById('caption')]) {
    if (el && el.scrollWidth > el.clientWidth + 1) wide.push((el.id || el.className || el.tagName) + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
  for (const td of document.querySelectorAll('#counters td, #counters th')) {
    if (td.scrollWidth > td.clientWidth + 1) wide.push('cell ' + td.textContent);
  }
  const shown = el => el && getComputedStyle(el).visibility !== 'hidden' && el.textContent.trim() !== '';
  for (const el of document.querySelectorAll('#counters td.value, #counters td.mark')) if (shown(el)) revealed.push('counter ' + el.textContent.trim());
  if (shown(document.getElementById('checks'))) revealed.push('checks');
  if (shown(document.getElementById('verdict'))) revealed.push('verdict');
  const offscreen = [];
  for (const el of document.querySelectorAll('#whatif-run, #whatif .buttons a')) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight + 1) offscreen.push(el.textContent.trim() + ' at ' + Math.round(r.top) + '..' + Math.round(r.bottom));
  }
  const unseen = [];
  for (const id of ['verdict', 'checks']) {
    const el = document.getElementById(id);
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight + 1 || r.left < 0 || r.right > window.innerWidth + 1) unseen.push(id + ' at ' + Math.round(r.top) + '..' + Math.round(r.bottom));
  }
  const rows = Array.from(document.querySelectorAll('#rows li'));
  const at = rows.findIndex(li => li.hasAttribute('data-verdict'));
  return {lines, cut, wide, ellipsis, lost, revealed, offscreen, unseen, revealAt: at < 0 ? rows.length : at + 1, stepCount: rows.length};
})()`

// brokenWords lists the places where a line of the page's text (not the
// diagram's, which svg.go wraps) breaks between two Chinese characters
// of one text node: a Chinese page breaks only at its <wbr>s, between
// words (wbr.go), so such a break splits a word, 生 | 效.
const brokenWords = `(() => {
  const bad = [], han = /\p{Script=Han}/u, range = document.createRange();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT,
    {acceptNode: n => n.parentElement.closest('svg, script, style, textarea') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const s = n.data;
    let prev = null;
    for (let i = 0; i < s.length; i++) {
      range.setStart(n, i); range.setEnd(n, i + 1);
      const r = range.getClientRects();
      if (!r.length) { prev = null; continue; }
      if (prev !== null && r[0].top > prev + 2 && han.test(s[i - 1]) && han.test(s[i])) bad.push(s.slice(Math.max(0, i - 4), i) + '|' + s.slice(i, i + 4) + ' in ' + (n.parentElement.closest('[id]') || {}).id);
      prev = r[0].top;
    }
  }
  return bad;
})()`

// brokenIdents lists the counters' names and values that a line breaks
// between two letters of one text node: inside a word (suppresse|d,
// ErrStal|eOffset; the walk of the first hour again, issue 42), not at
// the <wbr> the page puts after an underscore or before a capital.
const brokenIdents = `(() => {
  const bad = [], letter = /[\p{L}\p{N}]/u, range = document.createRange();
  for (const td of document.querySelectorAll('#counters td')) {
    const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      let prev = null;
      for (let i = 0; i < n.data.length; i++) {
        range.setStart(n, i); range.setEnd(n, i + 1);
        const r = range.getClientRects();
        if (!r.length) { prev = null; continue; }
        if (prev !== null && r[0].top > prev + 2 && letter.test(n.data[i - 1]) && letter.test(n.data[i])) bad.push(n.data.slice(0, i) + '|' + n.data.slice(i));
        prev = r[0].top;
      }
    }
  }
  return bad;
})()`

// measureState is measure for a state page (issue 26): every diagram on
// it (two side by side when it compares strategies), and the boxes that
// could scroll sideways: the panels, the meta line, the step path, the
// actions and the state's tables.
const measureState = `(() => {
  const lines = [], cut = [], wide = [], ellipsis = [], lost = [];
  for (const svg of document.querySelectorAll('.diagram svg')) {
    const s = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('tspan.line')) {
      const r = t.getBoundingClientRect();
      lines.push(r.height);
      if (r.left < s.left - 1 || r.right > s.right + 1) cut.push(t.textContent);
    }
    for (const g of svg.querySelectorAll('g.step')) {
      const title = g.querySelector('title').textContent.replace(/\s+/g, '');
      const [act, res] = Array.from(g.querySelectorAll('text')).map(t => t.textContent.replace(/\s+/g, ''));
      if (title !== act + ':' + res) lost.push(title + ' ≠ ' + act + ':' + res);
      if ((act + res).includes('…') && !title.includes('…')) ellipsis.push(title);
    }
  }
  for (const el of [document.documentElement, document.body, ...document.querySelectorAll('.diagram, .side, .meta, .crumbs, #actions, #props, .parts, .part td, .compare-col')]) {
    if (el.scrollWidth > el.clientWidth + 1) wide.push((el.id || el.className || el.tagName) + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
  return {lines, cut, wide, ellipsis, lost};
})()`

// statePages are the state pages TestProjector holds to its rules: one
// of each section, and a comparison of two strategies.
var statePages = []string{
	"/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&strategy=mark-before-effect",
	"/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&strategy=mark-before-effect&vs=effect-then-ack",
	"/explore/inbox/state/deliver-m1/deliver-m2.ack-lost/deliver-m2?from=explore-inbox-naive&strategy=naive",
	"/explore/ordering/state/publish-evt-2/publish-evt-1/next?from=out-of-order&strategy=retry-then-reconcile",
	"/explore/shardjob/state/run-shard-0.e1.stall-25/run-shard-0.e2.zombie-0?from=zombie-window&strategy=fence-at-first-commit",
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// TestProjector opens every drill's page, and some state pages of the
// explorer, in both languages at 1280×720 (and 1920×1080 with -tags
// long), as a class sees it on a projector, and holds it to this (the
// state pages, which show a whole run at once, to the first two):
//   - the median line of diagram text is at least 26 px high at 1280×720,
//     and grows with the viewport at 1920×1080;
//   - nothing scrolls sideways, no label is cut at an edge or shortened;
//   - the counters' values, the marks and the lessons appear only from the
//     step that reads them (the verdict phase), the verdict only at the end;
//   - at the end the verdict and the checks are inside the screen;
//   - in Chinese, no line of the page's text breaks inside a word (the
//     list of drills too).
func TestProjector(t *testing.T) {
	t.Parallel() // beside the other browser tests
	srv := httptest.NewServer(web.New(i18n.EN))
	t.Cleanup(srv.Close)
	dir := screenshots(t)
	// 1280×720 is the projector's size, where a page fails first; the
	// long sweep (-tags long, once in CI) adds 1920×1080, where the text
	// must grow.
	sizes := [][2]int64{{1280, 720}}
	if longOn {
		sizes = append(sizes, [2]int64{1920, 1080})
	}
	// The two languages side by side, each in a browser of its own: a
	// page's time is mostly the browser's, waited for.
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			projectorPages(t, srv.URL, dir, lang, sizes)
		})
	}
}

// projectorPages is TestProjector in one language.
func projectorPages(t *testing.T, base, dir, lang string, sizes [][2]int64) {
	heights := map[string]float64{}
	for _, size := range sizes {
		// A browser for each size and language: each has a time
		// limit of its own (newBrowser).
		ctx := newBrowser(t)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])); err != nil {
			t.Fatal(err)
		}
		for _, d := range drills.All() {
			name := fmt.Sprintf("%dx%d/%s", size[0], size[1], d.Name)
			t.Run(name, func(t *testing.T) {
				err := chromedp.Do(ctx,
					chromedp.Navigate(base+"/drill/"+d.Name+"?lang="+lang),
					chromedp.WaitVisible(chromedp.CSS(`#diagram svg`)),
				)
				if err != nil {
					t.Fatal(err)
				}
				// at measures the page at a step, reached with the
				// clicker's keys: onwards from the step shown when it
				// lies ahead (the steps asked for come in order), else
				// Home first. Going Home for every step pressed →
				// some 400 times a page, and took two minutes.
				shown := -1
				at := func(step int) layout {
					t.Helper()
					if shown < 0 || step < shown {
						key(t, ctx, kb.Home)
						shown = 0
					}
					for ; shown < step; shown++ {
						key(t, ctx, kb.ArrowRight)
					}
					l, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measure))
					if err != nil {
						t.Fatal(err)
					}
					return l
				}
				start := at(0)
				if len(start.Revealed) > 0 {
					t.Errorf("before the first step the page shows %v", start.Revealed)
				}
				if before := at(start.RevealAt - 1); start.RevealAt > 1 && len(before.Revealed) > 0 {
					t.Errorf("at step %d, before the verdict phase, the page shows %v", start.RevealAt-1, before.Revealed)
				}
				if start.RevealAt < start.StepCount {
					if l := at(start.RevealAt); !slices.Contains(l.Revealed, "checks") || slices.Contains(l.Revealed, "verdict") {
						t.Errorf("at step %d, the verdict phase's first, the page shows %v: want the counters and lessons, no verdict", start.RevealAt, l.Revealed)
					}
				}
				if l := at(start.StepCount - 1); slices.Contains(l.Revealed, "verdict") {
					t.Errorf("the verdict shows at step %d of %d", start.StepCount-1, start.StepCount)
				}
				end := at(start.StepCount)
				if !slices.Contains(end.Revealed, "verdict") || !slices.Contains(end.Revealed, "checks") {
					t.Errorf("at the end the page shows only %v", end.Revealed)
				}
				// The payoff is on the screen at the last step, with no
				// scrolling (issue 42: below the what-if panel on 11 pages).
				if len(end.Unseen) > 0 {
					t.Errorf("at the end, outside the %dx%d screen: %v", size[0], size[1], end.Unseen)
				}
				// The what-if form's buttons stay on the screen before the
				// run and after it (issue 34: Run was cut off at 1280×720).
				if off := append(start.Offscreen, end.Offscreen...); len(off) > 0 {
					t.Errorf("the what-if form's buttons are off the screen (height %d): %v", size[1], off)
				}
				if len(end.Wide) > 0 {
					t.Errorf("scrolls sideways: %v", end.Wide)
				}
				if lang == "zh" {
					if broken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](brokenWords)); err != nil || len(broken) > 0 {
						t.Errorf("lines break inside a word: %q %v", broken, err)
					}
				}
				if broken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](brokenIdents)); err != nil || len(broken) > 0 {
					t.Errorf("a counter's name or value breaks inside a word: %q %v", broken, err)
				}
				if len(end.Cut) > 0 {
					t.Errorf("%d label lines reach past the diagram's edge, e.g. %q", len(end.Cut), end.Cut[0])
				}
				if len(end.Ellipsis)+len(end.Lost) > 0 {
					t.Errorf("labels shortened: %v %v", end.Ellipsis, end.Lost)
				}
				m := median(end.Lines)
				heights[name] = m
				t.Logf("median line %.1f px over %d lines", m, len(end.Lines))
				if size[0] == 1280 && m < 26 {
					t.Errorf("the median line of diagram text is %.1f px high, want at least 26", m)
				}
				if size[0] == 1920 {
					small := heights[strings.Replace(name, "1920x1080", "1280x720", 1)]
					if m < small*1.3 {
						t.Errorf("the median line is %.1f px at 1920×1080 and %.1f px at 1280×720: it does not grow with the screen", m, small)
					}
				}
				if d.Name == "crash-resume" || d.Name == "ack-lost" || d.Name == "reconcile-gaps" || d.Name == "zombie-window" {
					shot(t, ctx, dir, fmt.Sprintf("%s-%s-%d.png", d.Name, lang, size[0]))
				}
			})
		}
		// The list of drills, with its 实验 badges.
		t.Run(fmt.Sprintf("%dx%d/index", size[0], size[1]), func(t *testing.T) {
			if lang != "zh" {
				t.Skip("a Chinese page's breaks")
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`a.drill-link`))); err != nil {
				t.Fatal(err)
			}
			if broken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](brokenWords)); err != nil || len(broken) > 0 {
				t.Errorf("lines break inside a word: %q %v", broken, err)
			}
		})
		for i, u := range statePages {
			name := fmt.Sprintf("%dx%d/state-%d", size[0], size[1], i+1)
			t.Run(name, func(t *testing.T) {
				if err := chromedp.Do(ctx, chromedp.Navigate(base+u+"&lang="+lang), chromedp.WaitVisible(chromedp.CSS(`.diagram svg`))); err != nil {
					t.Fatal(err)
				}
				l, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measureState))
				if err != nil {
					t.Fatal(err)
				}
				if len(l.Wide) > 0 {
					t.Errorf("%s scrolls sideways: %v", u, l.Wide)
				}
				if lang == "zh" {
					if broken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](brokenWords)); err != nil || len(broken) > 0 {
						t.Errorf("%s: lines break inside a word: %q %v", u, broken, err)
					}
				}
				if len(l.Cut) > 0 {
					t.Errorf("%s: %d label lines reach past the diagram's edge, e.g. %q", u, len(l.Cut), l.Cut[0])
				}
				if len(l.Ellipsis)+len(l.Lost) > 0 {
					t.Errorf("%s: labels shortened: %v %v", u, l.Ellipsis, l.Lost)
				}
				m := median(l.Lines)
				heights[name] = m
				t.Logf("median line %.1f px over %d lines", m, len(l.Lines))
				if size[0] == 1280 && m < 26 {
					t.Errorf("%s: the median line of diagram text is %.1f px high, want at least 26", u, m)
				}
				if size[0] == 1920 {
					if small := heights[strings.Replace(name, "1920x1080", "1280x720", 1)]; m < small*1.3 {
						t.Errorf("%s: the median line is %.1f px at 1920×1080 and %.1f px at 1280×720: it does not grow with the screen", u, m, small)
					}
				}
				if size[0] == 1280 && (i == 0 || i == 1) {
					shot(t, ctx, dir, fmt.Sprintf("state-%d-%s.png", i+1, lang))
				}
			})
		}
	}
}
