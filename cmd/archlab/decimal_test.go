package main

import (
	"strconv"
	"strings"
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

// TestDecimalFlagErrors: every refused number says what is allowed, in one
// line, exit 2, for drill parameters and explore's flags alike.
func TestDecimalFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		line string
	}{
		{[]string{"drill", "ack-lost", "--deliveries", "010"}, `archlab: --deliveries takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got "010"`},
		{[]string{"drill", "ack-lost", "--deliveries", "0x10"}, `archlab: --deliveries takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got "0x10"`},
		{[]string{"drill", "ack-lost", "--deliveries", "08"}, `archlab: --deliveries takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got "08"`},
		{[]string{"explore", "shardjob", "--keys", "010"}, `archlab: --keys takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got "010"`},
		{[]string{"explore", "inbox", "--messages", "0x2"}, `archlab: --messages takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got "0x2"`},
		{[]string{"explore", "inbox", "--random", "3", "--seed", "-1"}, `archlab: --seed takes a whole number from 0 to 18446744073709551615, got "-1"`},
		{[]string{"explore", "inbox", "--random", "3", "--seed", "0x1"}, `archlab: --seed takes a whole number in decimal digits, such as 10 (no leading zero, no 0x), got "0x1"`},
		{[]string{"explore", "inbox", "--workers", "99999999999999999999"}, `archlab: --workers takes a whole number from -9223372036854775808 to 9223372036854775807, got "99999999999999999999"`},
		{[]string{"drill", "ack-lost", "--json=maybe"}, `archlab: --json takes true or false, got "maybe"`},
		{[]string{"drill", "ack-lost", "--trace=2"}, `archlab: --trace takes true or false, got "2"`},
		{[]string{"explore", "ordering", "--poison=maybe"}, `archlab: --poison takes true or false, got "maybe"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runCLI(t, nil, tt.args...)
			first, _, _ := strings.Cut(stderr, "\n")
			if code != exitUsage || first != tt.line {
				t.Fatalf("exit %d, stderr %q; want exit 2, first line %q", code, stderr, tt.line)
			}
		})
	}
}

// TestDecimalFlagReadsDecimal: "10" is ten, not eight; the flag still reads
// back with GetInt, as the drills do.
func TestDecimalFlagReadsDecimal(t *testing.T) {
	out, _, code := runCLI(t, nil, "drill", "ack-lost", "--deliveries", "10", "--json")
	if code != exitOK || !strings.Contains(out, `"name": "deliveries",`+"\n"+`      "value": 10`) {
		t.Fatalf("exit %d:\n%s", code, out)
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
