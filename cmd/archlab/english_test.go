package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/report"
	"archlab/ui/web"
)

// word is a run of letters with what may stick to it in code: a counter
// (balance=2599), a flag (--lang), a path, a Go name (Ledger.ApplyOnce).
var word = regexp.MustCompile("[A-Za-z0-9_.\\-/=:$`'\"*@+<>#%]+")

// englishWords are the English words of prose in a Chinese text: words of
// letters only, not an identifier the reader types or reads in code.
func englishWords(text string, allowed map[string]bool) []string {
	var out []string
	for _, w := range word.FindAllString(text, -1) {
		w = strings.Trim(w, ".:'\"`,")
		if len(w) < 2 || allowed[w] || allowed[strings.ToLower(w)] {
			continue // a one-letter name (a:b:c) is a variable
		}
		if strings.ContainsAny(w, "0123456789_.-/=:$`'\"*@+<>#%") {
			continue // code: a counter=value, a flag, a path, a name.with.dots
		}
		if isCamel(w) || strings.ToUpper(w) == w {
			continue // a Go name (ApplyOnce), or an acronym (SQL, DLQ)
		}
		out = append(out, w)
	}
	return out
}

// isCamel reports a Go identifier: an upper-case letter after the first.
func isCamel(s string) bool {
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// text is one thing archlab shows a reader: where it came from, and
// what it says.
type text struct {
	where, body string
}

// chineseScreens is every screen of everyScreen, in Chinese: stdout and
// stderr (JSON is data, and left out).
func chineseScreens() []text {
	var out []text
	for _, args := range everyScreen() {
		o, e, _ := screen(80, append(args, "--lang", "zh")...)
		if slices.Contains(args, "--json") {
			o = ""
		}
		out = append(out, text{"archlab " + strings.Join(args, " "), o + "\n" + e})
	}
	return out
}

// chinesePages is every page of archlab serve in Chinese, its tags taken
// out: the index, every drill, explore's pages and each counterexample.
func chinesePages(t *testing.T) []text {
	h := web.New(i18n.ZH)
	paths := []string{"/"}
	for _, d := range drills.All() {
		paths = append(paths, "/drill/"+d.Name)
	}
	for _, m := range web.Mechanisms {
		paths = append(paths, "/explore/"+m)
		body := get(t, h, "/explore/"+m+"?lang=zh")
		for _, link := range regexp.MustCompile(`href="(/explore/`+m+`/[a-z-]+)\?`).FindAllStringSubmatch(body, -1) {
			paths = append(paths, link[1])
		}
	}
	// The state pages (issue 26): one of each section, a comparison, a
	// step with a number to pick, and the 404 of a step that cannot be
	// taken.
	paths = append(paths,
		"/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&strategy=mark-before-effect",
		"/explore/inbox/state/deliver-m1.crash-mid?from=ack-lost&strategy=mark-before-effect&vs=effect-then-ack",
		"/explore/inbox/state/deliver-m1/deliver-m2.ack-lost?from=explore-inbox-naive&strategy=naive",
		"/explore/ordering/state/publish-evt-2/publish-evt-1/next?from=out-of-order&strategy=retry-then-reconcile",
		"/explore/ordering/state/reconcile-o-1?strategy=retry-only",
		"/explore/shardjob/state/run-shard-0.e1.stall-25/run-shard-0.e2.zombie-0?from=zombie-window&strategy=fence-at-first-commit",
		"/explore/shardjob/state/?from=zombie-window&vs=fence-at-takeover",
		"/explore/inbox/state/deliver-m9?from=ack-lost",
	)
	var out []text
	for _, p := range paths {
		sep := "?"
		if strings.Contains(p, "?") {
			sep = "&"
		}
		out = append(out, text{"page " + p, pageText(getPage(t, h, p+sep+"lang=zh"))})
	}
	return out
}

// getPage is a page's body: a 200, or the 404 of a state page's step
// that cannot be taken, which a reader sees as much as any page.
func getPage(t *testing.T, h http.Handler, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+path, nil))
	if rec.Code != http.StatusOK && !(rec.Code == http.StatusNotFound && strings.Contains(path, "/state/")) {
		t.Fatalf("GET %s: %d", path, rec.Code)
	}
	return rec.Body.String()
}

func get(t *testing.T, h http.Handler, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8017"+path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, rec.Code)
	}
	return rec.Body.String()
}

// pageText is what a page shows: its text and its attributes' words a
// reader sees (title, button labels), without tags, scripts or styles.
func pageText(page string) string {
	page = regexp.MustCompile(`(?s)<(script|style|svg:defs)[^>]*>.*?</(script|style|svg:defs)>`).ReplaceAllString(page, " ")
	var shown []string
	for _, m := range regexp.MustCompile(`(?:title|data-play|data-pause|data-start|data-of|placeholder|aria-label)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		shown = append(shown, m[1])
	}
	page = regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(page, " ")
	return html.UnescapeString(page + "\n" + strings.Join(shown, "\n"))
}

// englishIn reports the English words of texts, each with where it was
// first seen and its line: the seam every Chinese text is checked
// through (drill-file errors can be added as texts of their own).
func englishIn(texts []text, allowed map[string]bool) map[string][2]string {
	found := map[string][2]string{}
	for _, tx := range texts {
		typed := map[string]bool{} // the reader's own words, said back
		for _, a := range strings.Fields(tx.where) {
			typed[a] = true
		}
		for _, l := range strings.Split(tx.body, "\n") {
			for _, w := range englishWords(l, allowed) {
				if _, seen := found[w]; !seen && !typed[w] {
					found[w] = [2]string{tx.where, strings.TrimSpace(l)}
				}
			}
		}
	}
	return found
}

// TestNoEnglishInChinese: every screen, error, help and page, in Chinese,
// has no English word outside the identifiers.
func TestNoEnglishInChinese(t *testing.T) {
	if raceOn {
		t.Skip("text and layout, checked in the plain run; under the race detector it took 15-80 s with no goroutine of its own to watch")
	}
	t.Parallel() // each screen is a run of its own, on streams of its own
	found := englishIn(append(chineseScreens(), chinesePages(t)...), identifiers())
	var words []string
	for w := range found {
		words = append(words, w)
	}
	sort.Strings(words)
	for _, w := range words {
		t.Errorf("%q in Chinese, in %s:\n\t%s", w, found[w][0], found[w][1])
	}
}

// identifiers are the words a Chinese text keeps in English because they
// are names, taken from where the names live: the harness's verbs,
// arguments, observables and strategies, the phases' file syntax, every
// drill's name, parameters and counters (names and values, as a run
// gives them), explore's strategies, faults and invariants, the commands,
// their flags and the values those take; then the few proper names and
// shell words that are no one's to translate.
func identifiers() map[string]bool {
	ok := map[string]bool{}
	add := func(s string) {
		for _, w := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(s, -1) {
			ok[w] = true
			ok[strings.ToLower(w)] = true
		}
	}
	for _, s := range harness.Sections {
		add(s.Harness)
		for _, v := range s.Verbs {
			add(v.Usage())
			add(strings.Join(v.Binds, " "))
		}
		for _, o := range s.Observables {
			add(o.Name)
		}
		add(strings.Join(s.Strategies, " "))
	}
	for _, p := range harness.Phases {
		add(strings.TrimPrefix(p.Key(), "phase."))
	}
	for _, d := range drills.All() {
		add(d.Name)
		for _, p := range d.Params {
			add(p.Name)
		}
		if res, err := d.Run(d.Defaults()); err == nil {
			for _, c := range res.Counters {
				add(c.Name + " " + c.Value)
			}
		}
	}
	for _, m := range web.Mechanisms {
		out, _, _ := runWide(80, "", "explore", m, "--json")
		var rep struct {
			Messages   []string
			Strategies []struct {
				Name       string
				Violations map[string]any
			}
		}
		_ = json.Unmarshal([]byte(out), &rep)
		for _, s := range rep.Strategies {
			add(s.Name)
			for v := range s.Violations {
				add(v)
			}
		}
		add(strings.Join(rep.Messages, " "))
		// The legend names each fault and invariant before its meaning.
		for _, item := range regexp.MustCompile(`[·\n]`).Split(i18n.T(i18n.ZH, "explore.legend."+m), -1) {
			name, _, _ := strings.Cut(item, "：")
			add(name)
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add(c.Name())
		c.Flags().VisitAll(func(f *pflag.Flag) { add(f.Name) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	var buf bytes.Buffer
	walk(newRootCmd(&cli.Env{IO: &IO{Out: &buf, Err: &buf, Getenv: func(string) string { return "" }}, Lang: i18n.ZH}))
	for _, vals := range cli.FlagValues() {
		add(strings.Join(vals, " "))
	}
	// The Go names a text may cite: every declared name of the book's
	// packages, the harness and the exercises.
	for _, dir := range []string{"../../internal/inbox", "../../internal/ordering", "../../internal/shardjob", "../../harness", "../../exercises"} {
		pkgs, err := parser.ParseDir(gotoken.NewFileSet(), dir, nil, 0)
		if err != nil {
			panic(err)
		}
		for _, p := range pkgs {
			ast.Inspect(p, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if n.IsExported() {
						add(n.Name)
					}
				case *ast.BasicLit: // the values a student's function returns
					if n.Kind == gotoken.STRING && regexp.MustCompile(`^"[a-z]+"$`).MatchString(n.Value) {
						add(n.Value)
					}
				}
				return true
			})
		}
	}
	// The drill-file syntax (its parts and keywords), the SQL the
	// --store sqlite trace shows, the brokers' own objects (a JetStream
	// stream and consumer, a Kafka topic), proper names, the book's
	// event types, and words a shell reads.
	add("steps counters checks expect drill section harness strategy param lab repeat as when")
	add("INSERT UPDATE SELECT balances cents counters value name producer event_id applies processed_keys")
	add("stream consumer topic")
	add("archlab Go SQLite NATS JetStream Kafka Mermaid Linux macOS Homebrew PowerShell txtar")
	add("Enter Tab Ctrl Home End") // keys, as the keyboard names them
	add("English")                 // the language switch, in its own language
	add("pay refund reserve fulfill checkout ok")
	add("source brew compinit autoload fpath dump")
	add("mod") // FNV-1a(key) mod shards: a formula
	// Exercism's test-runner format: its name and the values of its status.
	add("Exercism " + report.ExPass + " " + report.ExFail + " " + report.ExError)
	// The other graders' formats: their names, as --format takes them.
	add("Gradescope gradescope JUnit junit XML Classroom classroom50")
	add("goroutine") // Go's word, which Chinese Go texts keep
	return ok
}
