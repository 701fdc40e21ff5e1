package drills

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"archlab/harness"
	"archlab/i18n"
)

// ok replaces the first old with new in okFile: one mistake in a file
// that is otherwise right.
func ok(old, new string) string { return strings.Replace(okFile, old, new, 1) }

// badFiles holds a drill file for every error a drill file can cause,
// by the key of its message. TestEveryErrorHasAFile keeps it complete.
var badFiles = []struct {
	name, file string
	budget     Budget
}{
	{"did you mean", ok("effects == 1", "effect == 1"), Budget{}},
	{"exercise", strings.Replace(file112("split 10 1", "applied", "ok: true"), "section 11.2", "section 11.2\nstrategy student\nexercise runer", 1), Budget{}},
	{"exercise without student", strings.Replace(file112("split 10 1", "applied", "ok: true"), "section 11.2", "section 11.2\nexercise runner", 1), Budget{}},
	{"too large", okFile + "# " + strings.Repeat("x", MaxFileBytes), Budget{}},
	{"not text", okFile + "\x00", Budget{}},
	{"nameless part", ok("-- counters --", "-- --\n-- counters --"), Budget{}},
	{"part twice", okFile + "-- checks --\nagain: true\n", Budget{}},
	{"unknown part", okFile + "-- notes --\nhi\n", Budget{}},
	{"missing part", ok("-- counters --\neffects\n", ""), Budget{}},
	{"no checks", ok("once: effects == 1\n", ""), Budget{}},
	{"expect unknown", okFile + "-- expect --\neffect 1\n", Budget{}},
	{"expect form", okFile + "-- expect --\nlonely\n", Budget{}},
	{"expect twice", okFile + "-- expect --\neffects 1\neffects 1\n", Budget{}},
	{"header twice", ok("section 8.2", "section 8.2\ndrill again"), Budget{}},
	{"drill name", ok("drill tiny", "drill Tiny_One"), Budget{}},
	{"one value", ok("section 8.2", "section 8.2 8.3"), Budget{}},
	{"unknown section", ok("section 8.2", "section 9.9"), Budget{}},
	{"section and harness disagree", ok("section 8.2", "section 8.2\nharness ordering"), Budget{}},
	{"strategy one name", ok("section 8.2", "section 8.2\nstrategy a b"), Budget{}},
	{"lab value", ok("section 8.2", "section 8.2\nlab yes"), Budget{}},
	{"unknown header", ok("section 8.2", "section 8.2\ncolour red"), Budget{}},
	{"no drill line", ok("drill tiny\n", ""), Budget{}},
	{"no section line", ok("section 8.2\n", ""), Budget{}},
	{"no strategies", strings.Replace(file83("dispatch", "dlq", "ok: true"), "section 8.3", "section 8.3\nstrategy fast", 1), Budget{}},
	{"unknown strategy", ok("section 8.2", "section 8.2\nstrategy yolo"), Budget{}},
	{"exercise without student", ok("section 8.2", "section 8.2\nexercise ledger"), Budget{}},
	{"unknown exercise", ok("section 8.2", "section 8.2\nstrategy student\nexercise ledgr"), Budget{}},
	{"exercise of another section", strings.Replace(file83("dispatch", "dlq", "ok: true"), "section 8.3", "section 8.3\nstrategy student\nexercise ledger", 1), Budget{}},
	{"param twice", ok("section 8.2", "section 8.2\nparam n 1 1..2\nparam n 1 1..2"), Budget{}},
	{"param form", ok("section 8.2", "section 8.2\nparam n 1"), Budget{}},
	{"param name", ok("section 8.2", "section 8.2\nparam N 1 1..2"), Budget{}},
	{"param range", ok("section 8.2", "section 8.2\nparam n 1 1-2"), Budget{}},
	{"param min", ok("section 8.2", "section 8.2\nparam n 1 x..2"), Budget{}},
	{"param default", ok("section 8.2", "section 8.2\nparam n x 1..2"), Budget{}},
	{"param max below", ok("section 8.2", "section 8.2\nparam n 5 10..1"), Budget{}},
	{"param max", ok("section 8.2", "section 8.2\nparam n 1 1..(2"), Budget{}},
	{"param default outside", ok("section 8.2", "section 8.2\nparam n 100 -5..-1"), Budget{}},
	{"param max unknown parameter", ok("section 8.2", "section 8.2\nparam n 1 0..$nope"), Budget{}},
	{"param max before the run", ok("section 8.2", "section 8.2\nparam n 1 0..effects"), Budget{}},
	{"param max call before the run", ok("section 8.2", "section 8.2\nparam n 1 0..balance(\"o-1\")"), Budget{}},
	{"param max not a number", ok("section 8.2", "section 8.2\nparam n 1 0..yesno(true)"), Budget{}},
	{"unknown parameter, none", ok("effects == 1", "effects == $n"), Budget{}},
	{"unknown parameter, some", strings.Replace(ok("effects == 1", "effects == $n"), "section 8.2", "section 8.2\nparam deliveries 1 1..2", 1), Budget{}},
	{"unknown label", ok("effects == 1", "d.applied"), Budget{}},
	{"unknown field", strings.Replace(ok("deliver pay:evt-1\n", "deliver pay:evt-1 -> d\n"), "effects == 1", "d.nope", 1), Budget{}},
	{"unknown name", ok("effects == 1", "zzzz == 1"), Budget{}},
	{"name needs arguments", ok("effects == 1", "balance == 1"), Budget{}},
	{"unknown function", ok("effects == 1", "nosuch() == 1"), Budget{}},
	{"call arity", ok("message pay:evt-1", "message {producer()}:evt-1"), Budget{}},
	{"call at least", ok("effects == 1", "min() == 1"), Budget{}},
	{"call kind at parse", ok("message pay:evt-1", "message {producer(\"x\")}:evt-1"), Budget{}},
	{"call kind at run", ok("message pay:evt-1", "message pay:evt-1\nmessage {producer(shared_id)}:evt-2"), Budget{}},
	{"call negative", ok("message pay:evt-1", "message {producer(0-1)}:evt-1"), Budget{}},
	{"unknown phase", ok("deliver pay", "[later]\ndeliver pay"), Budget{}},
	{"no steps", ok("message pay:evt-1\ndeliver pay:evt-1\n", ""), Budget{}},
	{"repeat form", ok("deliver pay:evt-1", "repeat 2"), Budget{}},
	{"repeat count", ok("deliver pay:evt-1", "repeat zzzz deliver pay:evt-1"), Budget{}},
	{"repeat as", ok("deliver pay:evt-1", "repeat 2 as I deliver pay:evt-1"), Budget{}},
	{"repeat nested", ok("deliver pay:evt-1", "repeat 2 repeat 3 deliver pay:evt-1"), Budget{}},
	{"repeat not a number", ok("deliver pay:evt-1", "repeat yesno(true) deliver pay:evt-1"), Budget{}},
	{"repeat negative", ok("deliver pay:evt-1", "repeat 0-2 deliver pay:evt-1"), Budget{}},
	{"when after repeat", ok("deliver pay:evt-1", "repeat 2 when true deliver pay:evt-1"), Budget{}},
	{"when form", ok("deliver pay:evt-1", "when true"), Budget{}},
	{"when condition", ok("deliver pay:evt-1", "when zzzz deliver pay:evt-1"), Budget{}},
	{"when twice", ok("deliver pay:evt-1", "when true when true deliver pay:evt-1"), Budget{}},
	{"when not a boolean", ok("deliver pay:evt-1", "when 1 deliver pay:evt-1"), Budget{}},
	{"unknown verb", ok("deliver pay:evt-1", "zzzzzzzz pay:evt-1"), Budget{}},
	{"unknown verb, near", ok("deliver pay:evt-1", "delivr pay:evt-1"), Budget{}},
	{"unknown option", ok("deliver pay:evt-1", "deliver pay:evt-1 twice=yes"), Budget{}},
	{"unexpected argument", ok("deliver pay:evt-1", "deliver pay:evt-1 extra"), Budget{}},
	{"argument twice", ok("deliver pay:evt-1", "deliver pay:evt-1 msg=pay:evt-1"), Budget{}},
	{"argument expression", ok("message pay:evt-1", "message pay:evt-1 seq=zzzz"), Budget{}},
	{"argument missing", ok("deliver pay:evt-1", "deliver"), Budget{}},
	{"argument past its limit", ok("message pay:evt-1", "message pay:evt-1 amount=9223372036854775807"), Budget{}},
	{"bind nothing", ok("message pay:evt-1", "message pay:evt-1 -> m"), Budget{}},
	{"bind name", ok("deliver pay:evt-1", "deliver pay:evt-1 -> D"), Budget{}},
	{"bind last", ok("deliver pay:evt-1", "deliver pay:evt-1 -> d extra"), Budget{}},
	{"not a number at run", ok("message pay:evt-1", "message pay:evt-1\nmessage pay:evt-2 seq={shared_id}"), Budget{}},
	{"not a number at parse", ok("message pay:evt-1", "message pay:evt-1 seq=\"x\""), Budget{}},
	{"negative size", file83("route -1 4", "used", "ok: true"), Budget{}},
	{"size past the budget", file83("route 1000000000000 4", "used", "ok: true"), Budget{}},
	{"word unclosed", ok("deliver pay:evt-1", "deliver {pay"), Budget{}},
	{"word empty", ok("message pay:evt-1", "message pay:evt-1 order="), Budget{}},
	{"loop form", ok("-- counters --\neffects", "-- counters --\neffects\nx = 1 for I < 2"), Budget{}},
	{"loop limit", ok("-- counters --\neffects", "-- counters --\neffects\nx{i} = i for i < zzzz"), Budget{}},
	{"loop limit not a number", ok("-- counters --\neffects", "-- counters --\neffects\nx{i} = i for i < shared_id"), Budget{}},
	{"counter braces", ok("-- counters --\neffects", "-- counters --\neffects\nx{i} = 1"), Budget{}},
	{"counter", ok("-- counters --\neffects", "-- counters --\neffects\nx = zzzz"), Budget{}},
	{"counter twice", ok("-- counters --\neffects", "-- counters --\neffects\neffects"), Budget{}},
	{"no counters", ok("-- counters --\neffects\n", "-- counters --\n"), Budget{}},
	{"check form", ok("once: effects == 1", "Once: effects == 1"), Budget{}},
	{"check twice", ok("once: effects == 1", "once: true\nonce: true"), Budget{}},
	{"check not a boolean", ok("once: effects == 1", "once: 1"), Budget{}},
	{"text form", okFile + "-- en --\ntitle:\n", Budget{}},
	{"text no param", okFile + "-- en --\nparam nope: x\n", Budget{}},
	{"text no check", okFile + "-- en --\ncheck nope: x\n", Budget{}},
	{"text unknown", okFile + "-- zh --\nsubtitle: x\n", Budget{}},
	{"text twice", okFile + "-- zh --\ntitle: 一\ntitle: 二\n", Budget{}},
	{"op bool", ok("effects == 1", "effects && true"), Budget{}},
	{"op number", ok("message pay:evt-1", "message pay:evt-1\nmessage pay:evt-2 seq={-shared_id}"), Budget{}},
	{"op numbers", ok("effects == 1", "shared_id + 1 == 1"), Budget{}},
	{"op kind", ok("effects == 1", "\"a\" + 1 == 1"), Budget{}},
	{"op kind, not", ok("effects == 1", "!5 == true"), Budget{}},
	{"overflow", ok("effects == 1", "9223372036854775807 + effects > 0"), Budget{}},
	{"overflow negation", ok("effects == 1", "-(0 - 9223372036854775807 - effects) > 0"), Budget{}},
	{"division by zero", ok("effects == 1", "effects / 0 == 1"), Budget{}},
	{"trailing", ok("effects == 1", "effects == 1 2"), Budget{}},
	{"too deep", ok("effects == 1", strings.Repeat("(", 100)+"true"+strings.Repeat(")", 100)), Budget{}},
	{"unclosed string", ok("effects == 1", "\"abc == 1"), Budget{}},
	{"character", ok("effects == 1", "effects @ 1"), Budget{}},
	{"character, not ASCII", ok("effects == 1", "effects ＝ 1"), Budget{}},
	{"expected, ended", ok("effects == 1", "(effects == 1"), Budget{}},
	{"expected", ok("effects == 1", "min(1 2) == 1"), Budget{}},
	{"ended", ok("effects == 1", "effects =="), Budget{}},
	{"out of range", ok("effects == 1", "effects == 99999999999999999999"), Budget{}},
	{"dollar", ok("effects == 1", "$ == 1"), Budget{}},
	{"dotted", ok("effects == 1", "a.b.c == 1"), Budget{}},
	{"unexpected", ok("effects == 1", ")"), Budget{}},
	{"step budget", ok("deliver pay:evt-1", "repeat 9 deliver pay:evt-1\nrepeat 9 deliver pay:evt-1"), Budget{Steps: 10}},
	{"repeat budget", ok("deliver pay:evt-1", "repeat 1000000 deliver pay:evt-1"), Budget{}},
	{"delivery budget", file83("event e1 o-1 v3 fulfill\nconsumer max-attempts=1000000\npublish e1\ndispatch", "deliveries", "ok: true"), Budget{Deliveries: 100}},
	{"counter budget", ok("-- counters --\neffects", "-- counters --\neffects\nx{i} = i for i < 6\ny{i} = i for i < 6"), Budget{Counters: 10}},
	{"counters part budget", ok("-- counters --\neffects", "-- counters --\neffects\nacks\ndeliveries"), Budget{Counters: 2}},
	{"loop budget", ok("-- counters --\neffects", "-- counters --\neffects\nx{i} = i for i < 100"), Budget{Counters: 10}},
	{"timeline budget", file83("route 100 4", "used", "ok: true"), Budget{Trace: 10}},
	{"time budget", file112("split 10 1", "x{i} = split_size(1000000, i+1, 0) for i < 5000", "ok: true"), Budget{Time: time.Millisecond}},
	// A step the scenario got wrong, found while it runs.
	{"no message", ok("deliver pay:evt-1", "deliver pay:evt-2"), Budget{}},
	{"message reference", ok("message pay:evt-1", "message pay"), Budget{}},
	{"declared twice", ok("message pay:evt-1", "message pay:evt-1\nmessage pay:evt-1"), Budget{}},
	{"no consumer", file83("dispatch", "dlq", "ok: true"), Budget{}},
	{"no event", file83("publish e9", "dlq", "ok: true"), Budget{}},
	{"version", file83("event e1 o-1 x pay", "dlq", "ok: true"), Budget{}},
	{"at least", file112("split 10 1\nrun shard-0 epoch=0", "applied", "ok: true"), Budget{}},
	{"state", file83("truth o-1 paid", "dlq", "ok: true"), Budget{}},
	{"no shard", file112("split 10 2\nrun shard-9", "applied", "ok: true"), Budget{}},
	{"not split", file112("run shard-0", "applied", "ok: true"), Budget{}},
	{"offset past the log", file83("event e1 o-1 v1 reserve\nappend e1\nlose-offset 9223372036854775807", "dlq", "ok: true"), Budget{}},
	{"replay of a message never acked", ok("deliver pay:evt-1", "deliver pay:evt-1 replay"), Budget{}},
	{"duplicate of an acked message", ok("deliver pay:evt-1", "deliver pay:evt-1\ndeliver pay:evt-1 duplicate"), Budget{}},
	{"exclude", file112("split 10 1\nrun shard-0 crash-after=1 stall-after=1", "applied", "ok: true"), Budget{}},
	{"observable argument", file112("split 10 1", "x = shard_keys(\"x\")", "ok: true"), Budget{}},
	{"split_size range", file112("split 10 1", "x = split_size(10, 2, 5)", "ok: true"), Budget{}},
}

// unreachable are message keys no drill file can cause, each with why; a
// key leaves this list when a file can cause it, and must then have one
// in badFiles.
var unreachable = map[string]string{
	"file.err.eval.no-label":     "the parser refuses a label no step binds, and the run gives every label zero fields",
	"file.err.eval.no-field":     "the parser refuses a field the verb does not bind",
	"file.err.rewrite.read-back": "--rewrite's own check: ExpectLine quotes every value that would not read back",
	"file.kind.any":              "a kind the parser cannot see is never a mismatch",
	"harness.err.student-real":   "needs --crash real with strategy student: the command line, TestStudentRefusesRealCrash's territory",
	"harness.err.student-broker": "needs --broker with strategy student: the command line",
	"harness.err.obs-args":       "the parser checks every observable's number of arguments",
	"harness.err.no-fault":       "deliver's fault is a choice from the fault table; the parser refuses any other word",
}

// badFileErrors parses and runs each bad file and returns its error.
func badFileErrors(t *testing.T) map[string]*FileError {
	t.Helper()
	out := map[string]*FileError{}
	for _, tt := range badFiles {
		d, err := ParseBudget("bad.txtar", []byte(tt.file), tt.budget)
		if err == nil {
			var res *Result
			res, err = d.RunContext(t.Context(), d.Defaults(), RunOptions{Budget: tt.budget})
			if err == nil && res.Err != nil {
				err = res.Err
			}
		}
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Errorf("%s: want a *FileError, got %v", tt.name, err)
			continue
		}
		out[tt.name] = fe
	}
	return out
}

// keysOf lists every message key in an error, nested ones included.
func keysOf(err error) []string {
	var out []string
	var m *msg
	var se *harness.ScenarioError
	switch {
	case errors.As(err, &m):
		out = append(out, m.key)
		for _, a := range m.args {
			if e, ok := a.(error); ok {
				out = append(out, keysOf(e)...)
			}
		}
	case errors.As(err, &se):
		out = append(out, se.Key)
		for _, a := range se.Args {
			if e, ok := a.(error); ok {
				out = append(out, keysOf(e)...)
			}
		}
	}
	return out
}

// TestEveryErrorHasAFile: every message a drill file can cause is caused
// by one of badFiles, so TestErrorsInChinese reads them all.
func TestEveryErrorHasAFile(t *testing.T) {
	seen := map[string]bool{}
	for _, fe := range badFileErrors(t) {
		for _, k := range keysOf(fe.msg) {
			seen[k] = true
		}
	}
	for _, k := range i18n.Keys(i18n.EN) {
		if !strings.HasPrefix(k, "file.err.") && !strings.HasPrefix(k, "harness.err.") && !strings.HasPrefix(k, "file.kind.") {
			continue
		}
		why, skip := unreachable[k]
		switch {
		case skip && seen[k]:
			t.Errorf("%s is listed as unreachable (%s), but a bad file causes it", k, why)
		case !skip && !seen[k] && k != "file.err.as-is" && k != "file.err.did-you-mean":
			t.Errorf("no bad file causes %s", k)
		}
	}
	if !seen["file.err.did-you-mean"] || !seen["file.err.as-is"] {
		t.Error("no bad file gets a did-you-mean, or wraps a scenario error")
	}
}

// identifiers are the words a Chinese message may hold: the drill-file
// language's keywords and every name the harnesses define (verbs, their
// arguments and choices, observables, strategies, phases), the built-ins
// and the syntax's placeholders.
func identifiers() map[string]bool {
	ids := map[string]bool{}
	for _, w := range strings.Fields(`drill section harness strategy exercise param lab steps counters checks expect
		en zh title why check explain repeat as when for shows true false setup fault recovery zombie
		verdict archlab verbs max deliveries keys time steps student exercise crash real broker producer event
		id ORDER vN TYPE STATUS N O M V label field yes no go first`) { // first: the label of when's example
		ids[w] = true
	}
	for _, e := range harness.StudentExercises {
		ids[e.Name] = true
	}
	for _, s := range harness.Sections {
		ids[s.Harness] = true
		for _, st := range s.Strategies {
			ids[st] = true
		}
		for _, ex := range s.Exercises {
			ids[ex] = true
		}
		for _, o := range s.Observables {
			ids[o.Name] = true
		}
		for _, v := range s.Verbs {
			ids[v.Name] = true
			for _, f := range v.Binds {
				ids[f] = true
			}
			for _, a := range v.Args {
				ids[a.Name] = true
				for _, c := range a.Choices {
					ids[c] = true
				}
			}
		}
	}
	for _, b := range builtins {
		ids[b.name] = true
	}
	return ids
}

// word is an ASCII word of a message: letters, digits and the joiners a
// name may hold (shard-0, pay:evt-1 is two words).
var word = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*`)

// flag is a command-line flag in a message, a name of its own.
var flag = regexp.MustCompile(`--[a-z][a-z-]*`)

// TestErrorsInChinese: every error a drill file can cause, said in
// Chinese, holds no English word: the ASCII words left are the file's own
// names, the language's keywords and the harnesses' names, placeholders
// in capitals (NAME, EXPR) and flags.
func TestErrorsInChinese(t *testing.T) {
	ids := identifiers()
	errs := badFileErrors(t)
	for _, tt := range badFiles {
		fe := errs[tt.name]
		if fe == nil {
			continue
		}
		zh := fe.Text(i18n.ZH)
		en := fe.Text(i18n.EN)
		if zh == en || !strings.HasPrefix(zh, "bad.txtar:") {
			t.Errorf("%s: the Chinese text is the English one: %q", tt.name, zh)
			continue
		}
		if strings.Contains(zh, "\n") || strings.Contains(zh, "%!") || strings.Contains(zh, "[file.") {
			t.Errorf("%s: a broken message: %q", tt.name, zh)
		}
		_, msg, _ := strings.Cut(strings.TrimPrefix(zh, "bad.txtar:"), " ")
		msg = flag.ReplaceAllString(msg, " ")
		for _, at := range word.FindAllStringIndex(msg, -1) {
			w := msg[at[0]:at[1]]
			first := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '.' })[0]
			switch {
			case at[0] > 0 && msg[at[0]-1] >= '0' && msg[at[0]-1] <= '9': // 1ms, 10s: a value's unit
			case strings.ContainsAny(w, "0123456789"): // v2, o-1, shard-0: a value
			case ids[w] || ids[first] || ids[strings.ToLower(w)]:
			case strings.Contains(tt.file, w):
			case w == strings.ToUpper(w): // NAME, EXPR, UTF-8, MIN..MAX
			default:
				t.Errorf("%s: English word %q in %q", tt.name, w, zh)
			}
		}
	}
}

// TestDidYouMean: a misspelt name, counter, parameter, field, verb,
// option, part or header line gets the nearest right one.
func TestDidYouMean(t *testing.T) {
	tests := []struct{ file, want string }{
		{ok("effects == 1", "effcts == 1"), "did you mean effects?"},
		{ok("-- counters --\neffects", "-- counters --\nbalance_paid = balance(\"o-1\")\neffects") + "-- expect --\nbalance_piad 1\n", "did you mean balance_paid?"},
		{ok("effects == 1", "effects == $deliveres"), ""},
		{strings.Replace(ok("effects == 1", "effects == $deliveres"), "section 8.2", "section 8.2\nparam deliveries 1 1..2", 1), "did you mean deliveries?"},
		{ok("deliver pay:evt-1\n", "deliver pay:evt-1 -> d\n"), ""},
		{strings.Replace(ok("deliver pay:evt-1\n", "deliver pay:evt-1 -> d\n"), "effects == 1", "d.aplied", 1), "did you mean applied?"},
		{ok("message pay:evt-1", "message pay:evt-1 amout=5"), "did you mean amount?"},
		{ok("deliver pay:evt-1", "deliver pay:evt-1 ack-lsot"), "did you mean ack-lost?"},
		{ok("deliver pay:evt-1", "delivr pay:evt-1"), "did you mean deliver?"},
		{okFile + "-- chekcs --\n", "did you mean checks?"},
		{ok("section 8.2", "section 8.2\nstratgy naive"), "did you mean strategy?"},
		{ok("section 8.2", "section 8.2\nstrategy naiv"), "did you mean naive?"},
		{strings.Replace(file83("dispatch", "dlq", "ok: true"), "section 8.3", "section 8.3\nstrategy student\nexercise projektion", 1), "did you mean projection?"},
		{ok("effects == 1", "acked(\"pay:evt-1\") && ackd(\"pay:evt-1\")"), "did you mean acked?"},
		{ok("deliver pay", "[fualt]\ndeliver pay"), "did you mean [fault]?"},
	}
	for _, tt := range tests {
		_, err := Parse("f.txtar", []byte(tt.file))
		if tt.want == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v\nwant %q", err, tt.want)
			continue
		}
		// The same hint in Chinese.
		var fe *FileError
		if errors.As(err, &fe) && !strings.Contains(fe.Text(i18n.ZH), "是不是想写") {
			t.Errorf("zh: %s", fe.Text(i18n.ZH))
		}
	}
}
