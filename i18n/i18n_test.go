package i18n

import (
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCatalogueComplete: both languages hold exactly the same keys, and each
// translation takes the same arguments in the same order.
func TestCatalogueComplete(t *testing.T) {
	en, zh := Keys(EN), Keys(ZH)
	for _, k := range en {
		if !Has(ZH, k) {
			t.Errorf("key %q is in en but not in zh", k)
		}
	}
	for _, k := range zh {
		if !Has(EN, k) {
			t.Errorf("key %q is in zh but not in en", k)
		}
	}
	for _, k := range en {
		a, _ := lookup(EN, k)
		b, _ := lookup(ZH, k)
		if va, vb := args(a), args(b); !maps.Equal(va, vb) {
			t.Errorf("key %q: en takes %v, zh takes %v", k, va, vb)
		}
	}
}

// A precision is allowed: "%.0s" takes an argument and prints nothing, for
// a translation whose language says the argument's meaning in words.
var verb = regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*\d*(\.\d+)?([vdsqxXtTfeg%])`)

// args maps each argument a format consumes (1-based, as in %[n]d) to its
// verb, so a translation may reorder arguments with %[n] but not change
// them.
func args(format string) map[int]string {
	out := map[int]string{}
	next := 1
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		if m[4] == "%" {
			continue
		}
		if m[2] != "" {
			next, _ = strconv.Atoi(m[2])
		}
		out[next] = m[4]
		next++
	}
	return out
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{}, EN},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, ZH},
		{map[string]string{"LANG": "zh_TW"}, ZH},
		{map[string]string{"LANG": "en_US.UTF-8"}, EN},
		{map[string]string{"LANG": "C"}, EN},
		{map[string]string{"LC_MESSAGES": "zh_CN", "LANG": "en_US"}, ZH},
		{map[string]string{"LC_ALL": "en_US", "LC_MESSAGES": "zh_CN"}, EN},
		{map[string]string{"LC_ALL": "zh_HK.UTF-8", "LANG": "en"}, ZH},
	}
	for _, tt := range tests {
		if got := FromEnv(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("FromEnv(%v) = %s, want %s", tt.env, got, tt.want)
		}
	}
}

func TestParseAndFallback(t *testing.T) {
	if l, ok := Parse(" ZH "); !ok || l != ZH {
		t.Fatalf("Parse(ZH) = %q, %v", l, ok)
	}
	if _, ok := Parse("fr"); ok {
		t.Fatal("fr accepted")
	}
	if got := T(EN, "no.such.key"); got != "[no.such.key]" {
		t.Fatalf("missing key renders as %q", got)
	}
}

// TestProgramPrefix: a line that opens with the program's name opens with
// it in the same words in both languages, "archlab: " or "archlab serve: ",
// an ASCII colon as the errors print it: issue 34 found "archlab：" and
// "archlab:" mixed on one Chinese screen.
func TestProgramPrefix(t *testing.T) {
	prefix := regexp.MustCompile(`^archlab( [a-z]+)?[:：] ?`)
	for _, k := range Keys(EN) {
		en, _ := lookup(EN, k)
		zh, _ := lookup(ZH, k)
		if p := prefix.FindString(en); p != "" && !strings.HasPrefix(zh, p) {
			t.Errorf("key %q: en opens with %q, zh with %q", k, p, prefix.FindString(zh))
		}
		if p := prefix.FindString(zh); strings.ContainsRune(p, '：') {
			t.Errorf("key %q: zh opens with %q; the program's name takes an ASCII colon and a space", k, p)
		}
	}
}
