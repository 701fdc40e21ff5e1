package web_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"archlab/i18n"
	"archlab/ui/web"
)

// classResult is one student's check --json, as a file of the class.
func classResult(status, lessonID, lesson, mistake, drillFile string) string {
	ex := fmt.Sprintf(`{"name": "consumer-handler", "status": %q, "lessons": [], "lesson_ids": []}`, status)
	if lessonID != "" {
		ex = fmt.Sprintf(`{"name": "consumer-handler", "status": %q, "lessons": [%q], "lesson_ids": [%q], "mistake": %q, "drill_file": %q}`,
			status, lesson, lessonID, mistake, drillFile)
	}
	return fmt.Sprintf(`{"exercises": [%s], "archlab_version": "v1.0.0", "sources_sha256": "%064x"}`, ex, len(drillFile)+len(status))
}

// classDir is a class of three: two show the mistake mark-before-effect
// (one with a shorter run), one is done. One student's name is markup.
func classDir(t *testing.T) string {
	dir := t.TempDir()
	// A drill file as check writes one: class takes only one that parses.
	drill := func(steps string) string {
		return "drill x\nsection 8.2\nharness inbox\nstrategy student\n-- steps --\nmessage checkout:evt-1 seq=1 order=o-1 amount=100\n" + steps +
			"-- counters --\ndeliveries\n-- checks --\nsome: deliveries > 0\n-- en --\ntitle: x\ncheck some: delivered\n-- zh --\ntitle: x\ncheck some: 投递了\n"
	}
	long := drill("deliver checkout:evt-1\ndeliver checkout:evt-1 crash-mid\ndeliver checkout:evt-1\n")
	short := drill("deliver checkout:evt-1 crash-mid\ndeliver checkout:evt-1\n")
	files := map[string]string{
		"alice.json": classResult("not-done", "explore/not-lost", "no message is lost", "mark-before-effect", long),
		`<img src=x onerror="document.title='pwned'">.json`: classResult("not-done", "explore/not-lost", "no message is lost", "mark-before-effect", short),
		"carol.json": classResult("done", "", "", "", ""),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// classLayout is what the class page shows, measured in the browser.
type classLayout struct {
	Wide     []string `json:"wide"`     // boxes that scroll sideways
	Font     float64  `json:"font"`     // the smallest font of a table cell's own text, in CSS px
	Text     string   `json:"text"`     // the page's text
	Images   int      `json:"images"`   // <img> elements: a name's markup would make one
	Title    string   `json:"title"`    // document.title: a script in a name would change it
	Link     string   `json:"link"`     // the first counterexample link's href
	Download string   `json:"download"` // the first shortest run's href
	Broken   []string `json:"broken"`   // a heading or an exercise's name split between two letters
}

const measureClass = `(() => {
  const wide = [];
  for (const el of [document.documentElement, document.body, ...document.querySelectorAll('main, .class-table, .class-table td')]) {
    if (el.scrollWidth > el.clientWidth + 1) wide.push((el.id || el.className || el.tagName) + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
  let font = 1000;
  for (const td of document.querySelectorAll('.class-table td')) font = Math.min(font, parseFloat(getComputedStyle(td).fontSize));
  // A column narrowed to its longest letter, "student|s" (the walk of
  // the first hour again, issue 42): a word broken between two letters.
  const broken = [], letter = /\p{L}/u, range = document.createRange();
  for (const el of document.querySelectorAll('.class-table th, .class-table td code')) {
    const n = el.firstChild;
    if (!n || n.nodeType !== Node.TEXT_NODE) continue;
    let prev = null;
    for (let i = 0; i < n.data.length; i++) {
      range.setStart(n, i); range.setEnd(n, i + 1);
      const r = range.getClientRects();
      if (!r.length) { prev = null; continue; }
      if (prev !== null && r[0].top > prev + 2 && letter.test(n.data[i - 1]) && letter.test(n.data[i])) broken.push(n.data.slice(0, i) + '|' + n.data.slice(i));
      prev = r[0].top;
    }
  }
  const a = document.querySelector('a.state-link'), d = document.querySelector('a.class-run-file, .class-run a');
  return {wide, font, broken, text: document.body.innerText, images: document.querySelectorAll('img').length,
    title: document.title, link: a ? a.getAttribute('href') : '', download: d ? d.getAttribute('href') : ''};
})()`

// TestClassPage opens the class page in both languages at 1280×720, as a
// projector shows it: nothing scrolls sideways, the tables' text is at
// least the page's body size there (18 px), the names are hidden, a
// name's markup stays text, and the counterexample's link opens the
// explorer's run of the same mistake, whose start opens its state page. With
// the server's --names, the names show, as text.
func TestClassPage(t *testing.T) {
	t.Parallel() // a browser of its own: beside the other browser tests
	dir := classDir(t)
	// A lesson of many words beside them, as a class shows: its column
	// takes the width, the others are narrowed to their longest word.
	long := `{"exercises": [{"name": "ledger", "status": "not-done", "lessons": ["the dedup key"], "lesson_ids": ["clause/key-separator"]}], "archlab_version": "v1.0.0", "sources_sha256": "` + strings.Repeat("d", 64) + `"}`
	if err := os.WriteFile(filepath.Join(dir, "dave.json"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.NewWith(web.Options{Lang: i18n.EN, Class: dir}))
	defer srv.Close()
	named := httptest.NewServer(web.NewWith(web.Options{Lang: i18n.EN, Class: dir, ClassNames: true}))
	defer named.Close()
	shots := screenshots(t)
	ctx := newBrowser(t)
	read := func(t *testing.T, url string) classLayout {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#class-exercises`))); err != nil {
			t.Fatal(err)
		}
		l, err := chromedp.Run(ctx, chromedp.Evaluate[classLayout](measureClass))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			l := read(t, srv.URL+"/class?lang="+lang)
			shot(t, ctx, shots, "class-"+lang+".png")
			if len(l.Wide) > 0 {
				t.Errorf("scrolls sideways: %v", l.Wide)
			}
			if len(l.Broken) > 0 {
				t.Errorf("words broken between two letters: %q", l.Broken)
			}
			if l.Font < 18 {
				t.Errorf("a table cell's text is %.1f px, want at least 18 on a projector", l.Font)
			}
			for _, name := range []string{"alice", "carol", "dave", "img"} {
				if strings.Contains(l.Text, name) {
					t.Errorf("the page names %q without --names", name)
				}
			}
			want := map[string]string{"en": "mistake: mark before the effect", "zh": "错误：先写键后生效"}[lang]
			if !strings.Contains(l.Text, want) {
				t.Errorf("the page does not show %q:\n%s", want, l.Text)
			}
			if l.Download != "/class/run/1?lang="+lang && l.Download != "/class/run/2?lang="+lang {
				t.Errorf("the shortest run links to %q", l.Download)
			}
			if l.Link != "/explore/inbox/mark-before-effect?lang="+lang {
				t.Fatalf("the counterexample links to %q", l.Link)
			}
			// The link opens the explorer's run of the mistake, which
			// opens its state page: the start, with the steps to take.
			stateLink := chromedp.CSS(`a[href*="/explore/inbox/state/"]`)
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a.state-link`)), chromedp.WaitVisible(stateLink)); err != nil {
				t.Fatalf("the counterexample link: %v", err)
			}
			state, err := chromedp.Run(ctx, chromedp.AttributeValue(stateLink, "href"))
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+state.Value), chromedp.WaitVisible(chromedp.CSS(`#actions a`))); err != nil {
				t.Errorf("the state page %s: %v", state.Value, err)
			}
		})
	}
	t.Run("names", func(t *testing.T) {
		l := read(t, named.URL+"/class")
		if !strings.Contains(l.Text, "alice") || !strings.Contains(l.Text, `<img src=x onerror="document.title='pwned'">`) {
			t.Errorf("with --names the page does not show the names as text:\n%s", l.Text)
		}
		if l.Images != 0 || l.Title == "pwned" {
			t.Errorf("a name's markup became part of the page: %d images, title %q", l.Images, l.Title)
		}
	})
}
