package drills

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// file82, file83 and file112 build a small drill file of a section around
// steps, counters and checks.
func file82(steps, counters, checks string) string {
	return "drill hostile\nsection 8.2\n-- steps --\n" + steps + "\n-- counters --\n" + counters + "\n-- checks --\n" + checks + "\n"
}

func file83(steps, counters, checks string) string {
	return strings.Replace(file82(steps, counters, checks), "section 8.2", "section 8.3", 1)
}

func file112(steps, counters, checks string) string {
	return strings.Replace(file82(steps, counters, checks), "section 8.2", "section 11.2", 1)
}

// hostile are the drill files of issue 25's attack pass, one per class,
// and what each must give: the error's key (the budget or the mistake it
// names) and its line. None may panic, exhaust the memory, run for long
// or print a result that is silently wrong.
var hostile = []struct {
	name, file string
	key        string
	line       int
	parse      bool // refused when parsed, before any run
}{
	{"route -1 (makeslice panic)", file83("route -1 4", "used", "ok: used >= 0"), "file.err.size.negative", 4, true},
	{"route 1e12 (out of memory)", file83("route 1000000000000 4", "used", "ok: used >= 0"), "file.err.budget.keys", 4, true},
	{"route 1e12 written as 1e12", file83("route 1e12 4", "used", "ok: used >= 0"), "file.err.expr.trailing", 4, true},
	{"route 10000000 (minutes, gigabytes)", file83("route 10000000 4", "used", "ok: used >= 0"), "file.err.budget.keys", 4, true},
	{"route within the size budget, past the timeline's", file83("route 200000 4", "used", "ok: used >= 0"), "file.err.budget.trace", 4, false},
	{"route by a parameter past the budget", "drill hostile\nsection 8.3\nparam n 2000000 1..\n-- steps --\nroute $n 4\n-- counters --\nused\n-- checks --\nok: used >= 0\n", "file.err.budget.keys", 5, false},
	{"split 1000000000 (out of memory)", file112("split 1000000000 4", "applied", "ok: applied >= 0"), "file.err.budget.keys", 4, true},
	{"split into a billion shards", file112("split 10 1000000000", "applied", "ok: applied >= 0"), "file.err.budget.keys", 4, true},
	{"split_size of ten million keys in a counter loop", file112("split 10 1", "x{i} = split_size(10000000, 1, 0) for i < 10", "ok: true"), "file.err.budget.keys", 6, false},
	{"500 counter loops", file112("split 10 1", strings.Repeat("", 0)+loops(500, 100000), "ok: true"), "file.err.budget.loop", 6, true},
	{"500 short counter loops past the counter budget", file112("split 10 1", loops(500, 30), "ok: true"), "file.err.budget.counters", 339, false},
	{"a counter loop of a million (silently cut at 100,000)", file112("split 10 1", "x{i} = i for i < 1000000", "ok: true"), "file.err.budget.loop", 6, true},
	{"a counter loop past the budget by a parameter", "drill hostile\nsection 11.2\nparam n 20000 1..\n-- steps --\nsplit 10 1\n-- counters --\nx{i} = i for i < $n\n-- checks --\nok: true\n", "file.err.budget.loop", 7, false},
	{"240 KB of nested parentheses", file82("message pay:evt-1", "effects", "ok: "+strings.Repeat("(", 120_000)+"true"+strings.Repeat(")", 120_000)), "file.err.expr.deep", 8, true},
	{"a long chain of operators", file82("message pay:evt-1", "effects", "ok: "+strings.Repeat("1 + ", 20_000)+"1 > 0"), "file.err.expr.deep", 8, true},
	{"repeat 2 repeat 3 (ran twice)", file82("message pay:evt-1\nrepeat 2 repeat 3 deliver pay:evt-1", "effects", "ok: true"), "file.err.repeat.nested", 5, true},
	{"repeat past the step budget", file82("message pay:evt-1\nrepeat 1000000 deliver pay:evt-1", "effects", "ok: true"), "file.err.budget.repeat", 5, true},
	{"repeats that add up past the step budget", file82("message pay:evt-1\nrepeat 9000 deliver pay:evt-1\nrepeat 9000 deliver pay:evt-1", "effects", "ok: true"), "file.err.budget.steps", 6, false},
	{"a negative repeat", file82("message pay:evt-1\nrepeat 0-3 deliver pay:evt-1", "effects", "ok: true"), "file.err.repeat.negative", 5, true},
	{"9223372036854775807+1 (wrapped)", file82("message pay:evt-1", "x = 9223372036854775807 + 1", "ok: true"), "file.err.overflow", 6, false},
	{"a counter that overflows from the run", file82("message pay:evt-1", "x = amounts * 9223372036854775807", "ok: true"), "file.err.overflow", 6, false},
	{"two maximum amounts (balance -2)", file82("message pay:evt-1 amount=9223372036854775807\nmessage pay:evt-2 amount=9223372036854775807\ndeliver pay:evt-1\ndeliver pay:evt-2", "balance = balance(\"o-1\")", "ok: true"), "file.err.verb.limit", 4, true},
	{"an amount past the limit from an expression", "drill hostile\nsection 8.2\nparam a 1 1..\n-- steps --\nmessage pay:evt-1 amount={$a*10000000000000}\n-- counters --\neffects\n-- checks --\nok: true\n", "file.err.verb.limit", 5, false},
	{"param n 100 -5..-1 (accepted)", strings.Replace(file82("message pay:evt-1", "effects", "ok: true"), "section 8.2", "section 8.2\nparam n 100 -5..-1", 1), "file.err.param.default-outside", 3, true},
	{"two drill lines (the last won)", strings.Replace(file82("message pay:evt-1", "effects", "ok: true"), "section 8.2", "section 8.2\ndrill other", 1), "file.err.header.twice", 3, true},
	{"two section lines", strings.Replace(file82("message pay:evt-1", "effects", "ok: true"), "section 8.2", "section 8.2\nsection 8.2", 1), "file.err.header.twice", 3, true},
	{"two strategy lines", strings.Replace(file82("message pay:evt-1", "effects", "ok: true"), "section 8.2", "section 8.2\nstrategy naive\nstrategy naive", 1), "file.err.header.twice", 4, true},
	{"an endless retry (60 MB/s, for ever)", file83("event e1 o-1 v3 fulfill\nconsumer max-attempts=9223372036854775807\npublish e1\ndispatch", "deliveries", "ok: deliveries >= 0"), "file.err.budget.deliveries", 7, false},
	{"a file past the size limit", file82("message pay:evt-1", "effects", "ok: true") + "# " + strings.Repeat("x", MaxFileBytes), "file.err.too-large", 1, true},
	{"steps past the step budget, one a line", file82(strings.Repeat("read o-1\n", 10_001), "effects", "ok: true"), "file.err.budget.steps", 10_004, false},
}

// loops is n counter loops of k iterations each.
func loops(n, k int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "c%d-{i} = i for i < %d\n", i, k)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestHostileFiles: each class of issue 25's hostile files ends, with the
// error that names its budget or its mistake, at its line; the sizes a
// file states as constants are refused when it is parsed.
func TestHostileFiles(t *testing.T) {
	for _, tt := range hostile {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("h.txtar", []byte(tt.file))
			if tt.parse != (err != nil) {
				t.Fatalf("parse error %v, want one: %v", err, tt.parse)
			}
			if err == nil {
				_, err = d.Run(d.Defaults())
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.msg == nil {
				t.Fatalf("want a *FileError, got %v", err)
			}
			if fe.msg.key != tt.key && !wraps(fe.msg, tt.key) {
				t.Errorf("%s: key %s, want %s", err, fe.msg.key, tt.key)
			}
			if fe.Line != tt.line {
				t.Errorf("%s: line %d, want %d", err, fe.Line, tt.line)
			}
			if strings.Contains(fe.Error(), "\n") {
				t.Errorf("more than one line: %q", fe.Error())
			}
		})
	}
}

// wraps reports whether m holds a message of key, at any depth.
func wraps(m *msg, key string) bool {
	if m.key == key {
		return true
	}
	for _, a := range m.args {
		var inner *msg
		if err, ok := a.(error); ok && errors.As(err, &inner) && wraps(inner, key) {
			return true
		}
	}
	return false
}

// TestRunStopsWhenCancelled: a run stops between two steps, two counters
// or two deliveries once its context is cancelled, and says so with the
// context's error, not a result; its time budget stops it with a
// *FileError naming the budget.
func TestRunStopsWhenCancelled(t *testing.T) {
	// Seconds of work: split_size of a million keys, with a new shard
	// count each time.
	slow := file112("split 10 1", "x{i} = split_size(1000000, i+1, 0) for i < 5000", "ok: true")
	d, err := Parse("slow.txtar", []byte(slow))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := d.RunContext(ctx, d.Defaults(), RunOptions{})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v, want context.Canceled", err)
	}
	_, err = d.RunContext(context.Background(), d.Defaults(), RunOptions{Budget: Budget{Time: 50 * time.Millisecond}})
	var fe *FileError
	if !errors.As(err, &fe) || fe.msg.key != "file.err.budget.time" || fe.Line != 6 {
		t.Fatalf("time budget: %v", err)
	}
}

// TestBuiltinDrillsFitTheBudget: every built-in drill, each parameter at
// the largest value its file allows, runs inside DefaultBudget. A budget a
// class can reach from the book's own drills would be a bug, not a bound.
func TestBuiltinDrillsFitTheBudget(t *testing.T) {
	if testing.Short() || raceOn {
		// A million keys, one goroutine: -race adds half a minute and
		// finds nothing the plain run does not.
		t.Skip("runs the largest splits")
	}
	for _, d := range All() {
		for _, p := range d.Params {
			if !p.HasMax {
				continue
			}
			v := d.Defaults()
			v[p.Name] = p.Max
			if _, err := d.Run(v); err != nil {
				var pe *ParamError
				if errors.As(err, &pe) {
					continue // a bound another parameter sets (crash-after)
				}
				t.Errorf("%s --%s %d: %v", d.Name, p.Name, p.Max, err)
			}
		}
	}
}

// TestRaisedBudget: a budget raised for the run (--max-keys) is the one
// the run checks, whatever the file was parsed under; a constant past the
// parse's budget is refused when parsed.
func TestRaisedBudget(t *testing.T) {
	src := "drill big\nsection 11.2\nparam n 1500000 1..\n-- steps --\nsplit $n 1\n-- counters --\nshard_keys(0)\n-- checks --\nall: shard_keys(0) == $n\n"
	src = strings.Replace(src, "shard_keys(0)\n-- checks", "k = shard_keys(0)\n-- checks", 1)
	d, err := Parse("big.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var fe *FileError
	if _, err := d.Run(d.Defaults()); !errors.As(err, &fe) || fe.msg.key != "file.err.budget.keys" {
		t.Fatalf("under the default budget: %v", err)
	}
	res, err := d.RunContext(context.Background(), d.Defaults(), RunOptions{Budget: Budget{Keys: 2_000_000}})
	if err != nil || !res.Pass {
		t.Fatalf("with --max-keys 2000000: %v %+v", err, res)
	}
	constant := strings.Replace(src, "split $n 1", "split 1500000 1", 1)
	if _, err := ParseBudget("big.txtar", []byte(constant), Budget{}); !errors.As(err, &fe) || fe.msg.key != "file.err.budget.keys" {
		t.Fatalf("a constant past the default budget: %v", err)
	}
	if _, err := ParseBudget("big.txtar", []byte(constant), Budget{Keys: 2_000_000}); err != nil {
		t.Fatalf("a constant inside a raised budget: %v", err)
	}
}
