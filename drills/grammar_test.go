package drills

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"archlab/harness"
)

// evalIn parses src and evaluates it with the given counters and
// parameters: what a counter or a check of a file computes.
func evalIn(t *testing.T, src string, counters map[string]any, params Values) (any, error) {
	t.Helper()
	x, err := parseExpr(src)
	if err != nil {
		return nil, err
	}
	return x.eval(&env{counters: counters, params: params, vars: map[string]int{}})
}

// TestGrammar pins the expression language's grammar by the values it
// computes, so a change of precedence, associativity or what a name is
// fails here: && binds tighter than || (Go's order), a dash is a minus
// except inside a parameter's name, and the operators group as Go's do.
func TestGrammar(t *testing.T) {
	counters := map[string]any{"applied": 5, "lost": 2, "t": true, "f": false}
	params := Values{"commit-every": 10, "deliveries": 4}
	tests := []struct {
		src  string
		want any
	}{
		// && before ||: with && looser these would be false.
		{"true || false && false", true},
		{"false && true || true", true},
		{"t || f && f", true},
		{"f && t || t", true},
		// Comparisons bind tighter than && and ||, looser than + and *.
		{"1 + 2 == 3 && 2 * 3 == 6", true},
		{"(1 < 2) == (2 < 3)", true},
		{"1 + 2 * 3", 7},
		{"(1 + 2) * 3", 9},
		// Left to right within a level.
		{"10 - 4 - 3", 3},
		{"7 / 2 * 2", 6},
		{"100 / 10 / 5", 2},
		{"17 % 5 * 2", 4},
		// Unary minus and not bind tightest.
		{"-2 * -3", 6},
		{"!f && f", false},
		{"!(f && f)", true},
		{"- - 3", 3},
		// ?: is the loosest and groups to the right.
		{"t ? 1 : 0 + 5", 1},
		{"f ? 1 : f ? 2 : 3", 3},
		{"t ? f ? 1 : 2 : 3", 2},
		// A dash is a minus between names: applied-lost is applied - lost,
		// never one name "applied-lost".
		{"applied-lost", 3},
		{"applied - lost", 3},
		{"applied-lost-1", 2},
		// ... and continues a parameter's name when a letter follows.
		{"$commit-every", 10},
		{"$deliveries-1", 3},
		{"$commit-every-$deliveries", 6},
		{"$commit-every*2", 20},
		// Equality compares text forms: a number equals its digits.
		{`3 == "3"`, true},
		{`"yes" != "no"`, true},
		// Built-ins.
		{"min(3, 1, 2)", 1},
		{"max(3, 1, 2)", 3},
		{"min(-5)", -5},
		{"yesno(applied > lost)", "yes"},
		{"yesno(f)", "no"},
		{"producer(0)", "checkout"},
		{"producer(1)", "refund"},
		{"producer(2)", "producer-3"},
		// Literals at the edge of int64.
		{"9223372036854775807", math.MaxInt},
		{"-9223372036854775807 - 1", math.MinInt},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := evalIn(t, tt.src, counters, params)
			if err != nil || got != tt.want {
				t.Fatalf("%s = %v (%v), want %v", tt.src, got, err, tt.want)
			}
		})
	}
	// split_size is the harness's count, not a second copy of it.
	for _, q := range [][3]int{{1000, 4, 0}, {1000, 4, 3}, {10, 3, 1}, {0, 1, 0}} {
		want, _ := harness.SplitSize(q[0], q[1], q[2])
		src := "split_size(" + strconv.Itoa(q[0]) + ", " + strconv.Itoa(q[1]) + ", " + strconv.Itoa(q[2]) + ")"
		if got, err := evalIn(t, src, nil, nil); err != nil || got != want {
			t.Errorf("%s = %v (%v), want %d", src, got, err, want)
		}
	}
}

// TestOverflow: 64-bit arithmetic that does not fit is an error naming
// the operation, never a wrap (9223372036854775807+1 used to be
// -9223372036854775808); the largest results that fit are computed.
func TestOverflow(t *testing.T) {
	bad := []string{
		"9223372036854775807 + 1",
		"-9223372036854775807 - 2",
		"0 - 9223372036854775807 - 2",
		"4611686018427387904 * 2",
		"-4611686018427387905 * 2",
		"3037000500 * 3037000500",
		"(-9223372036854775807 - 1) * -1",
		"-1 * (-9223372036854775807 - 1)",
		"(-9223372036854775807 - 1) / -1",
		"-(-9223372036854775807 - 1)",
		"9223372036854775808",
	}
	for _, src := range bad {
		_, err := evalIn(t, src, nil, nil)
		var m *msg
		if !errors.As(err, &m) || (m.key != "file.err.overflow" && m.key != "file.err.overflow.neg" && m.key != "file.err.expr.range") {
			t.Errorf("%s: %v, want an overflow error", src, err)
		}
	}
	good := map[string]int{
		"9223372036854775806 + 1":         math.MaxInt,
		"-9223372036854775807 - 1":        math.MinInt,
		"4611686018427387903 * 2":         math.MaxInt - 1,
		"-4611686018427387904 * 2":        math.MinInt,
		"3037000499 * 3037000499":         3037000499 * 3037000499,
		"(-9223372036854775807 - 1) % -1": 0,
		"-9223372036854775807 / -1":       math.MaxInt,
	}
	for src, want := range good {
		if got, err := evalIn(t, src, nil, nil); err != nil || got != want {
			t.Errorf("%s = %v (%v), want %d", src, got, err, want)
		}
	}
	for _, src := range []string{"1 / 0", "1 % 0"} {
		if _, err := evalIn(t, src, nil, nil); err == nil || !strings.Contains(err.Error(), "division by zero") {
			t.Errorf("%s: %v, want division by zero", src, err)
		}
	}
}

// TestParamRanges pins what a param line accepts: a default inside
// MIN..MAX, MAX not below MIN, MAX left out for no bound, and a negative
// range read as itself (a maximum of -1 used to read as "none", so
// param n 100 -5..-1 was accepted).
func TestParamRanges(t *testing.T) {
	tests := []struct {
		line   string
		ok     bool
		max    int
		hasMax bool
	}{
		{"param n 5 1..10", true, 10, true},
		{"param n 10 1..10", true, 10, true},
		{"param n 1 1..", true, 0, false},
		{"param n 1000000 1..", true, 0, false},
		{"param n -3 -5..-1", true, -1, true},
		{"param n 0 -5..0", true, 0, true},
		{"param n 11 1..10", false, 0, false},   // the default above its maximum
		{"param n 0 1..10", false, 0, false},    // below its minimum
		{"param n 100 -5..-1", false, 0, false}, // the planted bug of issue 25
		{"param n 3 -5..0", false, 0, false},
		{"param n 5 10..1", false, 0, false}, // the maximum below the minimum
		{"param n 05 1..10", false, 0, false},
		{"param n +5 1..10", false, 0, false},
		{"param n -0 -1..1", false, 0, false},
		{"param n 5 1..99999999999999999999", false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			src := strings.Replace(okFile, "section 8.2", "section 8.2\n"+tt.line, 1)
			d, err := Parse("f.txtar", []byte(src))
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
			if err != nil {
				var fe *FileError
				if !errors.As(err, &fe) || fe.Line != 4 {
					t.Fatalf("want a *FileError at line 4, got %v", err)
				}
				return
			}
			if p := d.Params[0]; p.Max != tt.max || p.HasMax != tt.hasMax {
				t.Fatalf("max %d (has %v), want %d (%v)", p.Max, p.HasMax, tt.max, tt.hasMax)
			}
		})
	}
	// A bounded negative range refuses a value above it at run time too.
	d, err := Parse("f.txtar", []byte(strings.Replace(okFile, "section 8.2", "section 8.2\nparam n -3 -5..-1", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var pe *ParamError
	if _, err := d.Run(Values{"n": 100}); !errors.As(err, &pe) || !pe.Bounded || pe.Max != -1 {
		t.Fatalf("--n 100 in -5..-1: %v", err)
	}
}
