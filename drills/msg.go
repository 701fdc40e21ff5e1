package drills

import (
	"errors"
	"strconv"
	"strings"

	"archlab/i18n"
)

// A drill file's errors are said in the reader's language: each is a
// catalogue key ("file.err.…", i18n/file_en.go and file_zh.go) with its
// arguments, and the names in it (verbs, counters, parameters, Go names)
// stay as the file and the book write them. An argument that is itself a
// message is said in the same language, so a message can wrap another
// ("check once: unknown name …").

// msg is one message of a drill-file error.
type msg struct {
	key  string
	args []any
}

// bad builds a message; it is an error, so the parser's helpers return it
// like any other.
func bad(key string, args ...any) error { return &msg{key: key, args: args} }

// Error is the message in English.
func (m *msg) Error() string { return m.text(i18n.EN) }

func (m *msg) text(lang i18n.Lang) string {
	args := make([]any, len(m.args))
	for i, a := range m.args {
		args[i] = say(lang, a)
	}
	return i18n.T(lang, m.key, args...)
}

// names is a list of identifiers, said as the language lists them;
// namesAnd the same list with "and" before its last name, for a list that
// is all there is ("the parts are steps, …, en and zh").
type (
	names    []string
	namesAnd []string
)

// say renders one argument of a message in lang.
func say(lang i18n.Lang, a any) any {
	switch a := a.(type) {
	case names:
		if lang == i18n.ZH {
			return strings.Join(a, "、")
		}
		return strings.Join(a, ", ")
	case namesAnd:
		sep, and := ", ", " and "
		if lang == i18n.ZH {
			sep, and = "、", " 和 "
		}
		if len(a) < 2 {
			return strings.Join(a, sep)
		}
		return strings.Join(a[:len(a)-1], sep) + and + a[len(a)-1]
	case error:
		return errorText(lang, a)
	}
	return a
}

// errorText is err in lang when it is one of this package's messages, or
// carries one; any other error (a mechanism's, a broker's) as it is.
func errorText(lang i18n.Lang, err error) string {
	var m *msg
	if errors.As(err, &m) {
		return m.text(lang)
	}
	var se interface{ Text(i18n.Lang) string }
	if errors.As(err, &se) {
		return se.Text(lang)
	}
	return err.Error()
}

// didYouMean adds the nearest of candidates to m, when one is near name.
func didYouMean(m error, name string, candidates []string) error {
	if near := Nearest(name, candidates, 1); len(near) > 0 && near[0] != name {
		return bad("file.err.did-you-mean", m, near[0])
	}
	return m
}

// FileError is a bad drill file: where, what is wrong and what is allowed.
// The command prints it on one line, in the reader's language (Text), and
// exits 2.
type FileError struct {
	File string
	Line int
	Msg  string // the message in English
	msg  *msg
}

func (e *FileError) Error() string { return e.line(e.Msg) }

// Budget reports whether the file asked for more than a run's budget
// (budget.go), rather than getting its language wrong: a command gives
// the first a flag to raise, the second the list of verbs.
func (e *FileError) Budget() bool { return e.msg != nil && e.msg.budget() }

// budget reports whether m, or a message it holds (a parameter's maximum
// that asked for too much), is a budget's.
func (m *msg) budget() bool {
	if strings.HasPrefix(m.key, "file.err.budget.") {
		return true
	}
	for _, a := range m.args {
		if inner, ok := a.(*msg); ok && inner.budget() {
			return true
		}
	}
	return false
}

// Text is the error in lang: file:line: what is wrong.
func (e *FileError) Text(lang i18n.Lang) string {
	if e.msg == nil {
		return e.Error()
	}
	return e.line(e.msg.text(lang))
}

func (e *FileError) line(s string) string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + s
	}
	return e.File + ": " + s
}

// fileError places a message (or any error) at a line of a file.
func fileError(path string, line int, err error) *FileError {
	var m *msg
	if !errors.As(err, &m) {
		m = &msg{key: "file.err.as-is", args: []any{err}}
	}
	return &FileError{File: path, Line: line, Msg: m.Error(), msg: m}
}

// ErrorText is err in lang: a *FileError or a *ParamError said in the
// reader's language, any other error as it is. The command and the web
// page both print drill errors with it.
func ErrorText(lang i18n.Lang, err error) string {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe.Text(lang)
	}
	return errorText(lang, err)
}
