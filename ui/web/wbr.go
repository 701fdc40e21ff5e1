package web

import (
	"bytes"
	"html/template"
	"strings"
	"unicode"

	breaks "archlab/ui/wrap"
)

// Chinese is written without spaces, and a browser breaks a line of it
// between any two characters: 生 at the end of a line, 效 at the start of
// the next. A Chinese page is styled word-break: keep-all (style.css), so
// that the browser breaks only where the page says it may, and withBreaks
// says where: a <wbr> between two words of its text, found by package
// wrap as the terminal finds them. The diagram's SVG is wrapped by svg.go
// with the same package; the text of <script>, <style>, <title>,
// <textarea> and <svg> is left as it is.

// rawElements are the elements whose text withBreaks leaves alone.
var rawElements = []string{"script", "style", "title", "textarea", "svg"}

// withBreaks is page, its text with a <wbr> between two words of Chinese.
func withBreaks(page []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(page) + len(page)/8)
	s := string(page)
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			lt = len(s)
		}
		breakText(&out, s[:lt])
		s = s[lt:]
		if s == "" {
			break
		}
		gt := strings.IndexByte(s, '>')
		if gt < 0 {
			out.WriteString(s)
			break
		}
		tag := s[:gt+1]
		out.WriteString(tag)
		s = s[gt+1:]
		// An element whose text stays whole: copied up to its end tag.
		if strings.HasPrefix(tag, "</") || strings.HasSuffix(tag, "/>") {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(strings.TrimSuffix(tag[1:], ">")), " ")
		for _, raw := range rawElements {
			if name == raw {
				end := strings.Index(strings.ToLower(s), "</"+raw)
				if end < 0 {
					end = len(s)
				}
				out.WriteString(s[:end])
				s = s[end:]
				break
			}
		}
	}
	return out.Bytes()
}

// breakText writes text with a <wbr> between the pieces package wrap cuts
// each of its words into.
func breakText(out *bytes.Buffer, text string) {
	start := 0
	for i, r := range text {
		if r == ' ' || r == '\n' || r == '\t' {
			writePieces(out, text[start:i])
			out.WriteRune(r)
			start = i + 1
		}
	}
	writePieces(out, text[start:])
}

func writePieces(out *bytes.Buffer, word string) {
	for i, p := range breaks.Pieces(word) {
		if i > 0 {
			out.WriteString("<wbr>")
		}
		out.WriteString(p)
	}
}

// identBreaks is an identifier or a value of the counters' table, escaped,
// with a <wbr> after each underscore and slash and before each capital
// that follows a small letter (equal_<wbr>moved, v3/<wbr>FULFILLED,
// Err<wbr>Stale<wbr>Offset): the narrow
// column breaks a long one there, never inside a word (suppresse|d, the
// walk of the first hour again, issue 42).
func identBreaks(s string) template.HTML {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteString("<wbr>")
		}
		b.WriteString(template.HTMLEscapeString(string(r)))
		if r == '_' || r == '/' {
			b.WriteString("<wbr>")
		}
		prev = r
	}
	return template.HTML(b.String())
}
