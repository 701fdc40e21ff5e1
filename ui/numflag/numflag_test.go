package numflag

import (
	"strconv"
	"testing"

	"archlab/drills"
)

// TestParseDecimal: decimal digits only. Before issue 11, pflag's int flags
// read "010" as 8 and "0x10" as 16.
func TestParseDecimal(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"10", 10, true}, {"-3", -3, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"-9223372036854775808", -9223372036854775808, true},
		{"010", 0, false}, {"08", 0, false}, {"0x10", 0, false}, {"0o7", 0, false},
		{"0b1", 0, false}, {"1_000", 0, false}, {"+5", 0, false}, {" 5", 0, false},
		{"5 ", 0, false}, {"", 0, false}, {"-", 0, false}, {"-0", 0, false}, {"--1", 0, false},
		{"1e3", 0, false}, {"١٢", 0, false}, {"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false}, {"99999999999999999999999", 0, false},
	}
	for _, tt := range tests {
		got, err := parseDecimalInt(tt.in, minInt, maxInt)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseDecimalInt(%q) = %d, %v; want %d, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// FuzzParseDecimal: whatever the bytes, parseDecimalInt accepts exactly the
// canonical decimal text of a number (strconv.FormatInt round-trips it) and
// never panics.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "10", "-3", "010", "0x10", "08", "+1", "-0", "1_0", "", "-",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseDecimalInt(s, minInt, maxInt)
		canonical := false
		if m, perr := strconv.ParseInt(s, 10, 64); perr == nil && strconv.FormatInt(m, 10) == s {
			canonical = true
		}
		if (err == nil) != canonical {
			t.Fatalf("parseDecimalInt(%q) = %d, %v; canonical decimal: %v", s, n, err, canonical)
		}
		if err == nil && strconv.FormatInt(n, 10) != s {
			t.Fatalf("parseDecimalInt(%q) = %d", s, n)
		}
		var u uint64
		if err := (uint64Value{&u}).Set(s); err == nil && strconv.FormatUint(u, 10) != s {
			t.Fatalf("uint64 flag read %q as %d", s, u)
		}
		if err == nil && !decimalForm(s) {
			t.Fatalf("decimalForm(%q) = false for an accepted number", s)
		}
		// The drill files' and the web page's numbers follow the same
		// rule (drills.ParseDecimal).
		if m, ok := drills.ParseDecimal(s); ok != (err == nil) || (ok && int64(m) != n) {
			t.Fatalf("drills.ParseDecimal(%q) = %d, %v; the flags read %d, %v", s, m, ok, n, err)
		}
	})
}
