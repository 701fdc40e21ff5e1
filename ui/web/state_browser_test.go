package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/web"
)

// TestStateBrowser walks the question through a state page in
// headless Chromium at 1280×720, in English and then in Chinese, in one
// browser: "and what if the consumer had crashed between its writes under
// mark-before-effect?"
//   - open ack-lost at its last step, branch at step 2, pick the strategy
//     and the step "crash between the writes" with its number key: the
//     properties show lost;
//   - save the branch: the downloaded file, run by `archlab drill --file`,
//     fails the same message's lost check, exit 1;
//   - Backspace goes back one step;
//   - the same path under effect-then-ack: the first step where the two
//     runs part is highlighted in both diagrams.
func TestStateBrowser(t *testing.T) {
	t.Parallel() // a browser of its own: beside the other browser tests
	ctx := newBrowser(t)
	srv := httptest.NewServer(web.New(i18n.EN))
	defer srv.Close()
	dir := screenshots(t)
	archlab := buildArchlab(t)
	downloads := t.TempDir()
	events := true
	_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: downloads, EventsEnabled: &events})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := harness.InboxFaultByName("crash-mid")
	crashMid := harness.InboxFaults[k]

	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		t.Run(string(lang), func(t *testing.T) {
			var n string // the number key of deliver-m1.crash-mid
			t.Run("branch", func(t *testing.T) {
				err := chromedp.Do(ctx,
					chromedp.Navigate(srv.URL+"/drill/ack-lost?lang="+string(lang)),
					chromedp.WaitVisible(chromedp.CSS(`#diagram svg`)),
					chromedp.KeyEvent(kb.End),
				)
				if err != nil {
					t.Fatal(err)
				}
				total := read(t, ctx).Shown
				if total < 3 {
					t.Fatalf("ack-lost shows %d steps at its end", total)
				}
				key(t, ctx, kb.Home)
				key(t, ctx, kb.ArrowRight)
				key(t, ctx, kb.ArrowRight)
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#branch`))); err != nil {
					t.Fatal(err)
				}
				at(t, ctx, "/explore/inbox/state/", "from=ack-lost")
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#strategies a[href*="strategy=mark-before-effect"]`))); err != nil {
					t.Fatal(err)
				}
				at(t, ctx, "/explore/inbox/state/", "strategy=mark-before-effect")
				// The step is the fault table's row, in the page's words.
				a := eval[struct{ N, Doc string }](t, ctx, `(() => {
				  const li = Array.from(document.querySelectorAll('#actions > li')).find(li => li.querySelector('.act').textContent === 'deliver-m1.crash-mid');
				  return li ? {n: li.dataset.n, doc: li.querySelector('.doc').textContent} : {n: '', doc: ''};
				})()`)
				if want := i18n.T(lang, crashMid.DocKey()); a.N == "" || a.Doc != want {
					t.Fatalf("the step deliver-m1.crash-mid is %+v, want the table's words %q", a, want)
				}
				n = a.N
				for _, d := range n {
					key(t, ctx, string(d))
				}
				at(t, ctx, "/explore/inbox/state/deliver-m1.crash-mid", "strategy=mark-before-effect")
				lost := eval[struct{ Broken, Text string }](t, ctx, `(() => {
				  const li = document.querySelector('#props li[data-prop="lost"]');
				  return li ? {broken: li.dataset.broken, text: li.textContent} : {broken: '', text: ''};
				})()`)
				if lost.Broken != "true" || !strings.Contains(lost.Text, "pay:evt-1") {
					t.Errorf("the properties show lost as %+v, want it broken for pay:evt-1", lost)
				}
				shot(t, ctx, dir, "state-"+string(lang)+".png")
			})
			if n == "" {
				t.FailNow()
			}

			t.Run("save", func(t *testing.T) {
				wait, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				progress := chromedp.BrowserEvents(wait, cdpbrowser.DownloadProgress)
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#save`))); err != nil {
					t.Fatal(err)
				}
				guid := ""
				for e, err := range progress {
					if err != nil {
						t.Fatalf("the save link: no download: %v", err)
					}
					if e.State == cdpbrowser.DownloadProgressStateCompleted {
						guid = e.GUID
						break
					}
				}
				file := filepath.Join(downloads, "branch-ack-lost-"+string(lang)+".txtar")
				if err := os.Rename(filepath.Join(downloads, guid), file); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(archlab, "drill", "--file", file, "--lang", string(lang))
				out, err := cmd.Output()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 1 {
					t.Fatalf("archlab drill --file: %v, want exit 1\n%s", err, out)
				}
				// The terminal wraps long lines: compare without spaces.
				flat := strings.Join(strings.Fields(string(out)), "")
				check := strings.Join(strings.Fields(i18n.T(lang, "state.check.not-lost", "m1", "pay:evt-1")), "")
				if !strings.Contains(flat, "✗"+check) || !strings.Contains(flat, "FAIL") {
					t.Errorf("archlab drill --file does not fail m1's lost check %q:\n%s", check, out)
				}
			})

			t.Run("backspace", func(t *testing.T) {
				key(t, ctx, kb.Backspace)
				at(t, ctx, "/explore/inbox/state/", "strategy=mark-before-effect")
				if p := eval[string](t, ctx, `location.pathname`); p != "/explore/inbox/state/" {
					t.Errorf("Backspace went to %s, want the start", p)
				}
			})

			t.Run("compare", func(t *testing.T) {
				for _, d := range n {
					key(t, ctx, string(d))
				}
				at(t, ctx, "/explore/inbox/state/deliver-m1.crash-mid", "strategy=mark-before-effect")
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#compare a[data-vs="effect-then-ack"]`))); err != nil {
					t.Fatal(err)
				}
				at(t, ctx, "/explore/inbox/state/deliver-m1.crash-mid", "vs=effect-then-ack")
				// Each column's steps, as drawn: their titles, which of
				// them are highlighted, and the colour the action is
				// drawn in.
				cols := eval[[][]struct {
					Title  string
					Differ bool
					Fill   string
				}](t, ctx, `Array.from(document.querySelectorAll('.compare-col')).map(c =>
				  Array.from(c.querySelectorAll('g.step')).map(g => ({
				    title: g.querySelector('title').textContent.replace(/^\d+\.\s*/, ''),
				    differ: g.classList.contains('differ'),
				    fill: getComputedStyle(g.querySelector('.action')).fill})))`)
				if len(cols) != 2 {
					t.Fatalf("%d diagrams side by side, want 2", len(cols))
				}
				first := 0 // the first step where the two runs part, 1-based
				for i := 0; first == 0 && (i < len(cols[0]) || i < len(cols[1])); i++ {
					if i >= len(cols[0]) || i >= len(cols[1]) || cols[0][i].Title != cols[1][i].Title {
						first = i + 1
					}
				}
				if first == 0 {
					t.Fatal("the two runs do not part")
				}
				for c, col := range cols {
					for i, s := range col {
						if s.Differ != (i+1 == first) {
							t.Errorf("diagram %d, step %d (%s): highlighted %v; the runs part at step %d", c+1, i+1, s.Title, s.Differ, first)
						}
					}
					// Highlighted is drawn so: not as the steps before it.
					if first > 1 && first <= len(col) && col[first-1].Fill == col[0].Fill {
						t.Errorf("diagram %d: step %d is drawn as step 1 is (%s)", c+1, first, col[0].Fill)
					}
				}
				note := eval[string](t, ctx, `document.getElementById('diff').textContent`)
				if !strings.Contains(note, strconv.Itoa(first)) {
					t.Errorf("the note %q does not name step %d", note, first)
				}
				shot(t, ctx, dir, "state-compare-"+string(lang)+".png")
			})
		})
	}
}

// at waits until the browser shows a page at path whose query holds want,
// loaded.
func at(t *testing.T, ctx context.Context, path, want string) {
	t.Helper()
	js := fmt.Sprintf(`document.readyState === 'complete' && location.pathname === %q && location.search.includes(%q) && !!document.querySelector('main')`, path, want)
	// Asked again and again from Go: a poll in the page dies with the
	// page the key or the click leaves.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
	}
	u, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	t.Fatalf("waiting for %s?…%s…: at %s", path, want, u)
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// buildArchlab builds the archlab command (the light binary, as a reader
// installs it) into a temporary folder.
func buildArchlab(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "archlab")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "archlab/cmd/archlab")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build archlab: %v\n%s", err, out)
	}
	return bin
}
