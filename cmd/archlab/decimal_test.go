package main

import (
	"strings"
	"testing"
)

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
