package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	gotoken "go/token"
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

// TestNoEnglishInChinese: every screen, error and help of everyScreen, in
// Chinese, has no English word outside the identifiers.
func TestNoEnglishInChinese(t *testing.T) {
	allowed := identifiers()
	found := map[string][]string{}
	line := map[string]string{}
	for _, args := range everyScreen() {
		out, errOut, _ := runWide(80, "", append(args, "--lang", "zh")...)
		if slices.Contains(args, "--json") {
			out = ""
		}
		typed := map[string]bool{} // the reader's own words, said back
		for _, a := range args {
			typed[a] = true
		}
		for _, w := range englishWords(out+"\n"+errOut, allowed) {
			if typed[w] {
				continue
			}
			found[w] = append(found[w], strings.Join(args, " "))
			for _, l := range strings.Split(out+"\n"+errOut, "\n") {
				if line[w] == "" && slices.Contains(englishWords(l, allowed), w) {
					line[w] = strings.TrimSpace(l)
				}
			}
		}
	}
	var words []string
	for w := range found {
		words = append(words, w)
	}
	sort.Strings(words)
	for _, w := range words {
		t.Errorf("%q in Chinese, in %d screens, e.g. archlab %s:\n\t%s", w, len(found[w]), found[w][0], line[w])
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
	for _, m := range []string{"inbox", "ordering", "shardjob"} {
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
	walk(newRootCmd(&globalOptions{io: &IO{Out: &buf, Err: &buf, Getenv: func(string) string { return "" }}, lang: i18n.ZH}))
	for _, vals := range flagValues() {
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
	add("archlab Go SQLite NATS JetStream Kafka Mermaid Linux macOS Homebrew PowerShell Enter Tab Ctrl txtar")
	add("pay refund reserve fulfill checkout ok")
	add("source brew compinit autoload fpath dump")
	add("mod") // FNV-1a(key) mod shards: a formula
	return ok
}
