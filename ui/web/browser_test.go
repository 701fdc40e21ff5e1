package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/view"
	"archlab/ui/web"
)

// browser finds a Chromium to drive. CI installs one (.ci/run) and sets
// ARCHLAB_BROWSER=required, so the browser tests cannot skip there.
func browser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ARCHLAB_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "chromium-headless-shell", "headless_shell", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium on PATH (chromium, chromium-headless-shell, google-chrome): install one (apt-get install chromium) to run the browser tests; .ci/run does"
	if os.Getenv("ARCHLAB_BROWSER") == "required" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// screenshots is where the tests leave their PNGs: $ARCHLAB_SCREENSHOTS,
// kept, or a new temporary folder, kept only when the test fails so a
// person can look at what went wrong (every run kept them, and /tmp
// filled with hundreds of folders).
func screenshots(t *testing.T) string {
	if dir := os.Getenv("ARCHLAB_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dir, err := os.MkdirTemp("", "archlab-screens-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screenshots kept in %s", dir)
			return
		}
		os.RemoveAll(dir)
	})
	return dir
}

func newBrowser(t *testing.T) context.Context {
	exe := browser(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // root in CI containers
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.Flag("lang", "en-US"),
		chromedp.WindowSize(1280, 720),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// The projector's size: what the class sees is the viewport. The
	// first run starts the browser, so its context has no timeout.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	ctx, cancel3 := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(cancel3)
	return ctx
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// state reads what the diagram shows: the steps drawn, the current step's
// label (its title: the drawn text may be cut) and the caption.
type state struct {
	Shown   int    `json:"shown"`
	Current string `json:"current"`
	Caption string `json:"caption"`
	Counter string `json:"counter"`
}

const readState = `({
  shown: document.querySelectorAll('#diagram g.step.shown').length,
  current: (document.querySelector('#diagram g.step.current title') || {textContent: ''}).textContent,
  caption: document.getElementById('caption').textContent,
  counter: document.getElementById('counter').textContent,
})`

func read(t *testing.T, ctx context.Context) state {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[state](readState))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func key(t *testing.T, ctx context.Context, k string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
		t.Fatal(err)
	}
}

// TestBrowser drives the page in headless Chromium the way a class uses
// it: open ack-lost from the list, step through it with the keys a
// clicker sends, read the counters against the book, switch to Chinese,
// then run a teacher's pasted drill file and a counterexample of explore.
func TestBrowser(t *testing.T) {
	t.Parallel() // a browser of its own: beside the other browser tests
	ctx := newBrowser(t)
	srv := httptest.NewServer(web.New(i18n.EN))
	defer srv.Close()
	dir := screenshots(t)

	d, err := drills.Lookup("ack-lost")
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Run(d.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	rowsEN, rowsZH := view.Rows(i18n.EN, res.Steps), view.Rows(i18n.ZH, res.Steps)

	t.Run("index", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS(`a.drill-link[href^="/drill/ack-lost"]`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		shot(t, ctx, dir, "index-en.png")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a.drill-link[href^="/drill/ack-lost"]`)), chromedp.WaitVisible(chromedp.CSS(`#diagram svg`))); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("steps", func(t *testing.T) {
		if s := read(t, ctx); s.Shown != 0 || s.Counter != fmt.Sprintf("0 / %d", len(rowsEN)) {
			t.Fatalf("before the first step: %+v", s)
		}
		for i, row := range rowsEN {
			key(t, ctx, kb.ArrowRight)
			s := read(t, ctx)
			if s.Shown != i+1 {
				t.Fatalf("after %d presses of →, the diagram shows %d steps", i+1, s.Shown)
			}
			if want := row.Label(); s.Current != want {
				t.Errorf("step %d: the diagram's current step is %q, want %q", row.N, s.Current, want)
			}
			if !strings.Contains(s.Caption, row.Action) || !strings.Contains(s.Caption, row.Result) {
				t.Errorf("step %d: caption %q lacks %q / %q", row.N, s.Caption, row.Action, row.Result)
			}
			if i == 2 {
				shot(t, ctx, dir, "ack-lost-en-step3.png")
			}
		}
		key(t, ctx, kb.ArrowRight) // past the end: stays at the end
		if s := read(t, ctx); s.Shown != len(rowsEN) {
			t.Errorf("past the end: %d steps shown", s.Shown)
		}
		key(t, ctx, kb.ArrowLeft)
		if s := read(t, ctx); s.Shown != len(rowsEN)-1 {
			t.Errorf("← from the end: %d steps shown, want %d", s.Shown, len(rowsEN)-1)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#next`))); err != nil {
			t.Fatal(err)
		}
		if s := read(t, ctx); s.Shown != len(rowsEN) {
			t.Errorf("the next button: %d steps shown", s.Shown)
		}
		shot(t, ctx, dir, "ack-lost-en.png")
	})

	t.Run("play", func(t *testing.T) {
		key(t, ctx, kb.Home)
		key(t, ctx, " ") // plays: the first step at once, then one every 1.5 s
		// The second step comes by itself: waited for (a fixed 1.8 s sleep
		// missed it when the machine was busy), up to 20 s.
		for deadline := time.Now().Add(20 * time.Second); read(t, ctx).Shown < 2 && time.Now().Before(deadline); {
			if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
		}
		key(t, ctx, " ") // pauses
		s := read(t, ctx)
		if s.Shown < 2 {
			t.Errorf("Space, 20 s, Space: %d steps shown, want at least 2", s.Shown)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(1700*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if again := read(t, ctx); again.Shown != s.Shown {
			t.Errorf("paused, yet the diagram moved from %d to %d steps", s.Shown, again.Shown)
		}
		key(t, ctx, kb.End)
	})

	t.Run("counters", func(t *testing.T) {
		cells, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`Array.from(document.querySelectorAll('#counters tbody tr')).map(tr => Array.from(tr.cells).map(td => td.textContent.trim()))`))
		if err != nil {
			t.Fatal(err)
		}
		if len(cells) != len(d.Book) {
			t.Fatalf("the table has %d rows, the book prints %d counters: %v", len(cells), len(d.Book), cells)
		}
		for i, c := range d.Book {
			if len(cells[i]) < 4 || cells[i][0] != c.Name || cells[i][1] != c.Value || cells[i][2] != c.Value || cells[i][3] != "✓" {
				t.Errorf("row %d = %v, want %s %s %s ✓", i, cells[i], c.Name, c.Value, c.Value)
			}
		}
		verdict, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#verdict`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(verdict, "PASS") {
			t.Errorf("verdict %q", verdict)
		}
	})

	t.Run("zh", func(t *testing.T) {
		key(t, ctx, kb.Home)
		key(t, ctx, kb.ArrowRight)
		key(t, ctx, kb.ArrowRight)
		key(t, ctx, kb.ArrowRight)
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#lang-switch`)), chromedp.WaitVisible(chromedp.CSS(`html[lang="zh-CN"] #diagram svg`)))
		if err != nil {
			t.Fatal(err)
		}
		s := read(t, ctx)
		if s.Shown != 3 {
			t.Errorf("after the switch: %d steps shown, want the 3 the class was at", s.Shown)
		}
		if row := rowsZH[2]; !strings.Contains(s.Caption, row.Action) || !strings.Contains(s.Caption, row.Result) {
			t.Errorf("zh caption %q lacks %q / %q", s.Caption, row.Action, row.Result)
		}
		head, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#counters thead`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(head, i18n.T(i18n.ZH, "cli.col.counter")) || !strings.Contains(head, i18n.T(i18n.ZH, "cli.col.book")) {
			t.Errorf("zh table header %q", head)
		}
		shot(t, ctx, dir, "ack-lost-zh-step3.png")
		key(t, ctx, kb.End)
		shot(t, ctx, dir, "ack-lost-zh.png")
		for _, page := range []string{"/?lang=zh", "/explore/ordering?lang=zh"} {
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+page), chromedp.WaitVisible(chromedp.CSS(`html[lang="zh-CN"] main`))); err != nil {
				t.Fatal(err)
			}
		}
		shot(t, ctx, dir, "explore-ordering-zh.png")
	})

	t.Run("pasted-file", func(t *testing.T) {
		src, err := os.ReadFile("../../testdata/files/ack-lost-twice-then-crash.txtar")
		if err != nil {
			t.Fatal(err)
		}
		f, err := drills.Parse("pasted.txtar", src)
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.Run(f.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		err = chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/?lang=en#paste"),
			chromedp.WaitVisible(chromedp.CSS(`#source`)),
			chromedp.SetValue(chromedp.CSS(`#source`), string(src)),
			chromedp.Click(chromedp.CSS(`#paste-run`)),
			chromedp.WaitVisible(chromedp.CSS(`#verdict`)),
			chromedp.KeyEvent(kb.End),
		)
		if err != nil {
			t.Fatal(err)
		}
		verdict, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#verdict`)))
		if err != nil {
			t.Fatal(err)
		}
		n := read(t, ctx).Shown
		if !strings.HasPrefix(verdict, "PASS") || !strings.Contains(verdict, f.Name) {
			t.Errorf("pasted file's verdict %q", verdict)
		}
		if n != len(want.Steps) {
			t.Errorf("the pasted file's diagram shows %d steps at the end, the run has %d", n, len(want.Steps))
		}
		shot(t, ctx, dir, "pasted-en.png")
		// The switch posts the file again, in Chinese.
		err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#lang-switch`)), chromedp.WaitVisible(chromedp.CSS(`html[lang="zh-CN"] #verdict`)))
		if err != nil {
			t.Fatal(err)
		}
		shot(t, ctx, dir, "pasted-zh.png")
	})

	t.Run("bad-file", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/?lang=en"),
			chromedp.WaitVisible(chromedp.CSS(`#source`)),
			chromedp.SetValue(chromedp.CSS(`#source`), "-- drill --\nname broken\nsection 8.2\n-- steps --\nfly to the moon\n"),
			chromedp.Click(chromedp.CSS(`#paste-run`)),
			chromedp.WaitVisible(chromedp.CSS(`#error`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#error`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, "pasted.txtar:") {
			t.Errorf("a bad file's error %q does not name file:line", msg)
		}
	})

	t.Run("explore", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/explore/inbox?lang=en"),
			chromedp.WaitVisible(chromedp.CSS(`#strategies`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		shot(t, ctx, dir, "explore-inbox-en.png")
		err = chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`a.cex`)),
			chromedp.WaitVisible(chromedp.CSS(`#diagram svg`)),
			chromedp.KeyEvent(kb.End),
		)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Number(document.getElementById('run').dataset.steps)`))
		if err != nil {
			t.Fatal(err)
		}
		if s := read(t, ctx); rows == 0 || s.Shown != rows {
			t.Errorf("the counterexample shows %d of %d steps after End", s.Shown, rows)
		}
		shot(t, ctx, dir, "explore-counterexample-en.png")
	})

	t.Run("what-if", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/drill/crash-resume?lang=en"),
			chromedp.WaitVisible(chromedp.CSS(`#whatif`)),
			chromedp.SetValue(chromedp.CSS(`#whatif input[name="commit-every"]`), "5"),
			chromedp.Click(chromedp.CSS(`#whatif-run`)),
			chromedp.WaitVisible(chromedp.CSS(`.whatif-line`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.whatif-line`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, "--commit-every 5") {
			t.Errorf("what-if line %q", msg)
		}
		shot(t, ctx, dir, "crash-resume-what-if-en.png")
		key(t, ctx, kb.End)
		shot(t, ctx, dir, "crash-resume-what-if-en-end.png")
	})
}
