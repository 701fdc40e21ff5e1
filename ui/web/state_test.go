package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/web"
)

// doneWhen is the branch: ack-lost's world, under
// mark-before-effect, a crash between the writes.
const doneWhen = "/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&lang=en&strategy=mark-before-effect"

// stateURLs are state pages of every section, start and kind.
var stateURLs = []string{
	"/explore/inbox/state/?lang=en",
	"/explore/inbox/state/?from=ack-lost&lang=zh&strategy=mark-before-effect",
	doneWhen,
	doneWhen + "&vs=effect-then-ack",
	"/explore/inbox/state/deliver-m1/deliver-m2.ack-lost/deliver-m3.duplicate/prune-1?lang=zh&strategy=early-prune",
	"/explore/inbox/state/deliver-m1.ack-lost/deliver-m1/deliver-m1.replay?from=explore-inbox-naive&lang=en&strategy=naive",
	"/explore/ordering/state/publish-evt-2/publish-evt-1/next?from=out-of-order&lang=en&strategy=retry-then-reconcile",
	"/explore/ordering/state/deliver-evt-1/deliver-evt-3/deliver-evt-2?from=explore-ordering-retry-only&lang=zh&strategy=retry-only",
	"/explore/shardjob/state/run-shard-0.e1.stall-25/run-shard-0.e2.zombie-0?from=zombie-window&lang=en&strategy=fence-at-first-commit",
	"/explore/shardjob/state/run-shard-0.e1.crash-13?lang=zh&strategy=fence-at-takeover&vs=fence-at-first-commit",
}

// TestStatePagesStable: a state's URL gives the same page, byte for byte:
// asked twice of one server, and of a fresh one.
func TestStatePagesStable(t *testing.T) {
	h, fresh := web.New(i18n.EN), web.New(i18n.ZH)
	for _, u := range stateURLs {
		code, a := get(t, h, u)
		if code != http.StatusOK {
			t.Errorf("%s: status %d", u, code)
			continue
		}
		_, b := get(t, h, u)
		_, c := get(t, fresh, u)
		if a != b || a != c {
			t.Errorf("%s: the page differs between two requests", u)
		}
	}
}

// TestStatePageNotFound: a path with a step that cannot be taken is a 404
// that names the step: its number, its segment and why.
func TestStatePageNotFound(t *testing.T) {
	h := web.New(i18n.EN)
	tests := []struct{ target, want string }{
		{"/explore/inbox/state/deliver-m1/deliver-m9?from=ack-lost", "Step 2 (deliver-m9) cannot be taken: no message m9; the messages are m1"},
		{"/explore/inbox/state/deliver-m1/deliver-m1.crash-mid?lang=en", "Step 2 (deliver-m1.crash-mid) cannot be taken: deliver-m1.crash-mid: m1 is acked"},
		{"/explore/inbox/state/deliver-m1.replay?lang=zh", "第 1 步（deliver-m1.replay）无法执行"},
		{"/explore/ordering/state/next", "Step 1 (next) cannot be taken: next: the broker&#39;s queue is empty"},
		{"/explore/ordering/state/reconcile-o-1?strategy=retry-only", "retry-only never reconciles"},
		{"/explore/shardjob/state/run-shard-0.e2.zombie-0", "Step 1 (run-shard-0.e2.zombie-0) cannot be taken"},
	}
	for _, tt := range tests {
		code, body := get(t, h, tt.target)
		if code != http.StatusNotFound || !strings.Contains(body, tt.want) {
			t.Errorf("%s: %d, want 404 with %q", tt.target, code, tt.want)
		}
		if code == http.StatusNotFound && !strings.Contains(body, `id="back"`) && !strings.Contains(tt.target, "state/next") && !strings.Contains(tt.target, "state/reconcile") && !strings.Contains(tt.target, "zombie") && !strings.Contains(tt.target, "replay") {
			t.Errorf("%s: no link to the last state the path reaches", tt.target)
		}
	}
	for _, tt := range []struct {
		target string
		code   int
	}{
		{"/explore/queue/state/", http.StatusNotFound},
		{"/explore/inbox/state/?from=no-such-drill", http.StatusNotFound},
		{"/explore/inbox/state/?from=crash-resume", http.StatusNotFound},
		{"/explore/inbox/state/?strategy=optimistic", http.StatusNotFound},
		{"/explore/inbox/state/?vs=optimistic", http.StatusNotFound},
		{"/explore/inbox/state/?from=ack-lost&deliveries=x", http.StatusBadRequest},
		{"/explore/inbox/state/?from=ack-lost&deliveries=0", http.StatusBadRequest},
		{"/explore/inbox/state/?from=explore-inbox-effect-then-ack", http.StatusNotFound},
		{"/explore/8.2/state/deliver-m1?lang=zh", http.StatusPermanentRedirect},
		// An empty step: the mux cleans the path, and redirects to it.
		{"/explore/inbox/state/deliver-m1//deliver-m1", http.StatusTemporaryRedirect},
		{"/explore/shardjob/state/?then=run-shard-0.e1.crash-&n=7", http.StatusSeeOther},
		{"/explore/shardjob/state/?then=run-shard-0.e1.crash-&n=x", http.StatusBadRequest},
	} {
		if code, _ := get(t, h, tt.target); code != tt.code {
			t.Errorf("%s: status %d, want %d", tt.target, code, tt.code)
		}
	}
}

// TestStateSave: the save link downloads the path as a drill file, named
// after its start.
func TestStateSave(t *testing.T) {
	h := web.New(i18n.EN)
	w := serve(h, strings.Replace(doneWhen, "/state/", "/save/", 1))
	if w.Code != http.StatusOK || w.Header().Get("Content-Disposition") != `attachment; filename="branch-ack-lost.txtar"` {
		t.Fatalf("save: %d %q", w.Code, w.Header().Get("Content-Disposition"))
	}
	d, err := drills.Parse("branch-ack-lost.txtar", w.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Run(d.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || !strings.Contains(w.Body.String(), "deliver pay:evt-1 crash-mid") {
		t.Errorf("the saved branch passes: %v\n%s", res.Pass, w.Body.String())
	}
}

// serve answers one GET the way the server answers a browser on
// 127.0.0.1:8017.
func serve(h http.Handler, target string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+target, nil))
	return w
}

var branchRE = regexp.MustCompile(`data-branch="([^"]*)"`)

// TestBranchLinks: every step of every drill page whose verbs the state
// pages walk, and of every counterexample, links to a state page that
// opens, and the state's run is the drill's up to that step.
func TestBranchLinks(t *testing.T) {
	h := web.New(i18n.EN)
	pages := []string{}
	for _, d := range drills.All() {
		pages = append(pages, "/drill/"+d.Name+"?lang=en")
	}
	for _, sec := range harness.Sections {
		for _, s := range explore.Mechanisms[sec].Strategies {
			pages = append(pages, "/explore/"+sec.Harness+"/"+s+"?lang=en")
		}
	}
	walked, cexPage := map[string]bool{}, map[string]bool{}
	for _, page := range pages {
		code, body := get(t, h, page)
		if code == http.StatusNotFound {
			continue // a safe strategy has no counterexample
		}
		cexPage[page] = true
		links := branchRE.FindAllStringSubmatch(body, -1)
		if len(links) == 0 {
			continue
		}
		walked[page] = true
		steps := strings.Count(body, `<li data-step=`)
		if len(links) != steps+1 {
			t.Errorf("%s: %d branch links for %d steps and the start", page, len(links), steps)
		}
		seen := map[string]bool{}
		for _, l := range links {
			u := strings.ReplaceAll(l[1], "&amp;", "&")
			if seen[u] {
				continue
			}
			seen[u] = true
			if code, _ := get(t, h, u); code != http.StatusOK {
				t.Errorf("%s: branch link %s: status %d", page, u, code)
			}
		}
	}
	// The drills whose verbs are the log's and the partitions' are not
	// walked; every other drill and every counterexample is.
	notWalked := []string{"replay", "seek-bounds", "partition-affinity"}
	for _, page := range pages {
		name := strings.TrimSuffix(strings.TrimPrefix(page, "/drill/"), "?lang=en")
		if !walked[page] && !slices.Contains(notWalked, name) && (strings.HasPrefix(page, "/drill/") || cexPage[page]) {
			t.Errorf("%s: no branch links", page)
		}
	}
}

// TestSavedBranchReplays: a drill file saved from any state replays, with
// `archlab drill --file`'s parser and runner, to the same state and
// verdict: the same steps, its counters as expected, and exactly the
// checks of the invariants the page shows broken failing. The states are
// random walks over the steps each page offers, from every start.
func TestSavedBranchReplays(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	starts := []explore.Start{}
	for _, sec := range harness.Sections {
		for _, s := range explore.StateStrategies(sec, nil) {
			st := explore.DefaultStart(sec)
			st.Strategy = s
			starts = append(starts, st)
		}
	}
	for _, name := range []string{"ack-lost", "dedup-scope", "prune-window", "exactly-once-boundary", "reconcile-gaps", "crash-resume", "stale-epoch"} {
		d, err := drills.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := d.Run(d.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		sec, _ := harness.SectionByName(d.Section)
		calls, rows := res.CallSteps()
		wk, err := explore.Branch(sec, d.Strategy, calls, rows, nil)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, wk.Start)
	}
	for i, st := range starts {
		for walk := range 6 {
			var path []string
			for n := r.IntN(6); len(path) < n; {
				s, err := explore.Open(st, path)
				if err != nil {
					t.Fatal(err)
				}
				var next []string
				for _, a := range s.Actions {
					switch {
					case a.Ignored.Key != "":
					case a.Form != nil:
						next = append(next, a.Form.Prefix+strconv.Itoa(a.Form.Min+r.IntN(a.Form.Max-a.Form.Min+1)))
					default:
						next = append(next, a.Segment)
					}
				}
				seg := next[r.IntN(len(next))]
				if _, err := explore.Open(st, append(slices.Clone(path), seg)); err != nil {
					continue // a takeover whose zombie waits past the owner's commits
				}
				path = append(path, seg)
			}
			t.Run(fmt.Sprintf("%d-%s-%d", i, st.Strategy, walk), func(t *testing.T) {
				replaySaved(t, st, path)
			})
		}
	}
}

func replaySaved(t *testing.T, st explore.Start, path []string) {
	s, err := explore.Open(st, path)
	if err != nil {
		t.Fatal(err)
	}
	src, err := s.DrillFile(i18n.EN, "branch-test", "/test")
	if err != nil {
		t.Fatal(err)
	}
	d, err := drills.Parse("branch-test.txtar", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	res, err := d.Run(d.Defaults())
	if err != nil || res.Err != nil {
		t.Fatalf("%v %v\n%s", err, res.Err, src)
	}
	if got := res.Steps[:min(len(res.Steps), len(s.Steps))]; !slices.EqualFunc(got, s.Steps, sameStep) || len(res.Steps) < len(s.Steps) {
		t.Errorf("%v: the file's run does not retrace the page's\n%s", path, src)
	}
	names, broken := s.Checks()
	if len(names) != len(res.Checks) {
		t.Fatalf("%d checks written, %d run", len(names), len(res.Checks))
	}
	for i, c := range res.Checks {
		if c.OK == broken[i] {
			t.Errorf("%v: check %s holds: %v, the page shows it broken: %v\n%s", path, names[i], c.OK, broken[i], src)
		}
	}
	for _, c := range res.Counters {
		if c.Match == nil || !*c.Match {
			t.Errorf("%v: counter %s = %s, the file expects %v", path, c.Name, c.Value, c.Book)
		}
	}
	if res.Pass == s.Broken() {
		t.Errorf("%v: the file passes: %v, the page shows something broken: %v", path, res.Pass, s.Broken())
	}
}

func sameStep(a, b harness.Step) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// TestStateKeysListed: the keys a state page answers to (state.js) are
// listed in its help, in the page's language, and in docs/serve.md.
func TestStateKeysListed(t *testing.T) {
	h := web.New(i18n.EN)
	for _, tt := range []struct {
		lang      i18n.Lang
		backspace string
	}{{i18n.EN, "Backspace"}, {i18n.ZH, "退格键"}} {
		_, body := get(t, h, strings.Replace(doneWhen, "lang=en", "lang="+string(tt.lang), 1))
		help := body[strings.Index(body, `id="help"`):]
		help = help[:strings.Index(help, "</details>")]
		keys := i18n.T(tt.lang, "web.state.keys")
		for _, k := range []string{"1–9", tt.backspace, "?"} {
			if !strings.Contains(keys, k) {
				t.Errorf("%s: the keys' help %q does not name %s", tt.lang, keys, k)
			}
		}
		if !strings.Contains(help, keys) {
			t.Errorf("%s: the page's help does not hold the keys: %s", tt.lang, help)
		}
	}
	readme, err := os.ReadFile("../../docs/serve.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"**1–9**", "**Backspace**", "**?**", "**B**"} {
		if !strings.Contains(string(readme), k) {
			t.Errorf("docs/serve.md does not list the state pages' key %s", k)
		}
	}
}

// TestBranchOpensWhatWasWatched: "branch here" after the steps of a move
// the class has watched whole opens the state after that move, not the
// empty start (issue 42: ack-lost's third step, the lost ack, opened the
// state after 0 moves); within a move, the state before it, where it can
// be taken otherwise (TestStateBrowser takes crash-mid there).
func TestBranchOpensWhatWasWatched(t *testing.T) {
	h := web.New(i18n.EN)
	_, body := get(t, h, "/drill/ack-lost?lang=en")
	links := branchRE.FindAllStringSubmatch(body, -1)
	if len(links) < 4 {
		t.Fatalf("%d branch links on ack-lost's page", len(links))
	}
	// links[0] is the start, links[i] step i.
	for step, want := range map[int]string{1: "/explore/inbox/state/?", 2: "/explore/inbox/state/?", 3: "/explore/inbox/state/deliver-m1.ack-lost?"} {
		if got := strings.ReplaceAll(links[step][1], "&amp;", "&"); !strings.HasPrefix(got, want) {
			t.Errorf("step %d branches to %s, want %s…", step, got, want)
		}
	}
}

// TestStateOutcomesInTheReadersWords: the ordering page's events table
// gives the book's Outcome in the page's language (a zh page said
// "applied" and "retry" among Chinese words).
func TestStateOutcomesInTheReadersWords(t *testing.T) {
	t.Parallel()
	h := web.New(i18n.EN)
	for _, tt := range []struct {
		lang      string
		want, not []string
	}{
		{"zh", []string{">已应用<", ">重试<"}, []string{">applied<", ">retry<"}},
		{"en", []string{">applied<", ">retry<"}, nil},
	} {
		_, body := get(t, h, "/explore/ordering/state/deliver-evt-2/deliver-evt-1?lang="+tt.lang)
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the events table has no %s", tt.lang, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(body, n) {
				t.Errorf("%s: the events table says %s", tt.lang, n)
			}
		}
	}
}
