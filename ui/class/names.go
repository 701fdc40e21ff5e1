package class

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A student's name is a file's name, chosen by whoever handed it in: two
// names that read the same on the projector must be one student, or a
// student could hand in twice (issue 43: a zero-width space, a Cyrillic
// а, an é in two Unicode forms each made a student of their own). So a
// name is held in NFC; a name with a character that does not show (a
// zero-width space, a direction override) is refused, and so is one that
// mixes the Latin alphabet with a look-alike one; and names that look the
// same (lookAlike), or differ only in case, are the same student.

// studentName is a file's name as the class names its student, or a
// refusal.
func studentName(raw string) (string, error) {
	name := norm.NFC.String(raw)
	if strings.ContainsFunc(name, invisible) {
		return "", refuse("class.err.name-invisible")
	}
	if len(scripts(name)) > 1 {
		return "", refuse("class.err.name-mixed")
	}
	return name, nil
}

// invisible is a character that changes nothing a reader sees, or changes
// the order they see the others in: the format characters (zero-width
// spaces and joiners, direction marks and overrides, the BOM) and the
// fillers that show as blanks.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || r == '\u115f' || r == '\u1160' || r == '\u3164' || r == '\uffa0' || r == '\u2800'
}

// lookAlikeScripts are the alphabets whose letters pass for Latin ones.
var lookAlikeScripts = []struct {
	name  string
	table *unicode.RangeTable
}{{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}}

// scripts are the look-alike alphabets name's letters come from.
func scripts(name string) []string {
	var out []string
	for _, s := range lookAlikeScripts {
		if strings.ContainsFunc(name, func(r rune) bool { return unicode.Is(s.table, r) }) {
			out = append(out, s.name)
		}
	}
	return out
}

// confusables are the Cyrillic and Greek letters that read as Latin ones.
var confusables = strings.NewReplacer(
	"а", "a", "в", "b", "е", "e", "к", "k", "м", "m", "н", "h", "о", "o", "р", "p", "с", "c", "т", "t", "у", "y", "х", "x",
	"А", "A", "В", "B", "Е", "E", "К", "K", "М", "M", "Н", "H", "О", "O", "Р", "P", "С", "C", "Т", "T", "Х", "X",
	"і", "i", "ј", "j", "ѕ", "s", "ԁ", "d", "ԛ", "q", "ԝ", "w", "І", "I", "Ј", "J", "Ѕ", "S",
	"α", "a", "ο", "o", "ρ", "p", "ν", "v", "τ", "t", "ι", "i", "κ", "k", "χ", "x",
	"Α", "A", "Β", "B", "Ε", "E", "Ζ", "Z", "Η", "H", "Ι", "I", "Κ", "K", "Μ", "M", "Ν", "N", "Ο", "O", "Ρ", "P", "Τ", "T", "Υ", "Y", "Χ", "X",
)

// stem is an entry's name without .json: the name as typed.
func stem(entry string) string { return strings.TrimSuffix(entry, ".json") }

// lookAlike is what a name reads as: in NFKC, where fullwidth and
// mathematical letters are the plain ones they show (ｚｏｅ, 𝐚𝐧𝐧𝐚), with
// its letters of another alphabet that pass for Latin ones read as those,
// and in lower case: Anna and anna are one student, as one login (a
// Git host's logins ignore case) and on a disk that does too.
func lookAlike(name string) string {
	return strings.ToLower(confusables.Replace(norm.NFKC.String(name)))
}
