// Package numflag is the command line's number flags: decimal only.
// pflag's own int flags read "010" as octal 8 and "0x10" as 16
// (strconv.ParseInt with base 0), so `--deliveries 010` ran 8 deliveries:
// a reader who types a number means the number they see. Anything but
// plain decimal digits is refused, with what is allowed.
package numflag

import (
	"strconv"
	"strings"

	"archlab/i18n"

	"github.com/spf13/pflag"
)

// Error is a flag value that is not a decimal whole number in range.
// Message says it in the reader's language.
type Error struct {
	value    string
	min, max int64 // the allowed range, for the message
	unsigned bool  // a uint64 flag: 0 to max uint64
}

func (e *Error) Error() string {
	return "not a decimal whole number: " + strconv.Quote(e.value)
}

// parseDecimal reads s as an optional '-' and decimal digits, without a
// '+', spaces, underscores, a base prefix or a leading zero (so that "010"
// cannot be taken for octal by the reader either). It reports the sign and
// the magnitude; ok is false for any other form or a magnitude that does
// not fit in a uint64.
func parseDecimal(s string) (neg bool, mag uint64, ok bool) {
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if s == "" || len(s) > 20 || (s[0] == '0' && len(s) > 1) {
		return false, 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false, 0, false
		}
	}
	mag, err := strconv.ParseUint(s, 10, 64)
	if err != nil || (neg && mag == 0) { // "-0" is not a form anyone means
		return false, 0, false
	}
	return neg, mag, true
}

// parseDecimalInt is parseDecimal into an int between min and max.
func parseDecimalInt(s string, min, max int64) (int64, error) {
	neg, mag, ok := parseDecimal(s)
	if !ok {
		return 0, &Error{value: s, min: min, max: max}
	}
	var v int64
	switch {
	case !neg && mag <= uint64(max):
		v = int64(mag)
	case neg && min < 0 && mag <= uint64(-(min+1))+1:
		v = -int64(mag-1) - 1
	default:
		return 0, &Error{value: s, min: min, max: max}
	}
	if v < min || v > max {
		return 0, &Error{value: s, min: min, max: max}
	}
	return v, nil
}

// intValue is a pflag.Value for an int read as decimal. Its Type is "int",
// so cobra's help and FlagSet.GetInt treat it as pflag's own int flag.
type intValue struct{ p *int }

func (v intValue) String() string { return strconv.Itoa(*v.p) }
func (v intValue) Type() string   { return "int" }
func (v intValue) Set(s string) error {
	n, err := parseDecimalInt(s, minInt, maxInt)
	if err != nil {
		return err
	}
	*v.p = int(n)
	return nil
}

const (
	maxInt = int64(^uint(0) >> 1)
	minInt = -maxInt - 1
)

// uint64Value is a pflag.Value for a uint64 read as decimal; a '-' is
// refused (pflag's own uint64 flag says only `cannot be "-1"`).
type uint64Value struct{ p *uint64 }

func (v uint64Value) String() string { return strconv.FormatUint(*v.p, 10) }
func (v uint64Value) Type() string   { return "uint64" }
func (v uint64Value) Set(s string) error {
	neg, mag, ok := parseDecimal(s)
	if !ok || neg {
		return &Error{value: s, unsigned: true}
	}
	*v.p = mag
	return nil
}

// IntVar registers a decimal int flag: pflag's IntVar, decimal only.
func IntVar(f *pflag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	f.Var(intValue{p}, name, usage)
}

// boundedInt is a decimal int flag that must lie in [lo, hi]: a budget,
// which 0 or a negative number would turn into "no run at all".
type boundedInt struct {
	p      *int
	lo, hi int64
}

func (v boundedInt) String() string { return strconv.Itoa(*v.p) }
func (v boundedInt) Type() string   { return "int" }
func (v boundedInt) Set(s string) error {
	n, err := parseDecimalInt(s, v.lo, v.hi)
	if err != nil {
		return err
	}
	*v.p = int(n)
	return nil
}

// BoundedIntVar registers a decimal int flag between lo and hi.
func BoundedIntVar(f *pflag.FlagSet, p *int, name string, value, lo, hi int, usage string) {
	*p = value
	f.Var(boundedInt{p, int64(lo), int64(hi)}, name, usage)
}

// IntFlag registers a decimal int flag read back with FlagSet.GetInt.
func IntFlag(f *pflag.FlagSet, name string, value int, usage string) {
	IntVar(f, new(int), name, value, usage)
}

// Uint64Var registers a decimal uint64 flag.
func Uint64Var(f *pflag.FlagSet, p *uint64, name string, value uint64, usage string) {
	*p = value
	f.Var(uint64Value{p}, name, usage)
}

// Message says what a decimal flag allows: the form when the value
// is not written in plain decimal digits, the range when it is but does not
// fit.
func Message(lang i18n.Lang, flag string, e *Error) string {
	switch {
	case !decimalForm(e.value):
		return i18n.T(lang, "err.flag.decimal", flag, e.value)
	case e.unsigned:
		return i18n.T(lang, "err.flag.decimal-range-u", flag, e.value)
	}
	return i18n.T(lang, "err.flag.decimal-range", flag, e.min, e.max, e.value)
}

// decimalForm reports whether s is written as parseDecimal reads numbers,
// whatever its size.
func decimalForm(s string) bool {
	s, neg := strings.CutPrefix(s, "-")
	if s == "" || (neg && s == "0") || (s[0] == '0' && len(s) > 1) {
		return false
	}
	return strings.Trim(s, "0123456789") == ""
}
