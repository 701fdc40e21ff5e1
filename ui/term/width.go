package term

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"archlab/ui/wrap"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	xterm "golang.org/x/term"
)

// Every screen fits the width of a projector: 80 columns, or the
// terminal's own width when stdout is a terminal, never below 60. Width is
// measured in display columns: a CJK character takes two.
const (
	DefaultWidth = 80
	minWidth     = 60
	maxWidth     = 160
)

// TerminalWidth is stdout's width when it is a terminal; else $COLUMNS
// when it holds a number (a pager, tmux's pipe-pane, a script that wants 60
// columns); else 0.
func TerminalWidth(getenv func(string) string) int {
	if w, _, err := xterm.GetSize(int(os.Stdout.Fd())); err == nil {
		return w
	}
	if w, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && w > 0 {
		return w
	}
	return 0
}

// StderrWidth is stderr's width when it is a terminal; else $COLUMNS when
// it holds a number (a class piping archlab's output through tee or less
// sets it to the projector's width); else 0: a log or a pipe keeps one
// error on one line, to grep.
func StderrWidth(getenv func(string) string) int {
	if w, _, err := xterm.GetSize(int(os.Stderr.Fd())); err == nil {
		return w
	}
	if w, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && w > 0 {
		return w
	}
	return 0
}

// columns measures text the way a terminal draws it. go-runewidth and
// tablewriter both read LANG and LC_ALL when the program starts and, under
// a CJK locale (zh_CN.UTF-8, how a Chinese teacher's machine is usually
// set), count every "ambiguous" character as two columns: the box-drawing
// characters of a table's border, "·", "→", "◆". No terminal a class uses
// draws them that wide; a table measured so is too wide for the screen and
// loses its borders. Ideographs (汉字) are two columns in every locale, so
// nothing is lost by measuring ambiguous characters as one.
var columns = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

func init() { narrowAmbiguous() }

// narrowAmbiguous makes the libraries that measure text for archlab
// (tablewriter, the progress bar, go-runewidth's own functions) agree with
// columns, whatever the locale said when they started.
func narrowAmbiguous() {
	runewidth.EastAsianWidth = false
	runewidth.DefaultCondition = columns
	twwidth.SetOptions(twwidth.Options{EastAsianWidth: false})
}

// ScreenWidth is the width output may take on a terminal w columns wide (0:
// not a terminal).
func ScreenWidth(w int) int {
	if w == 0 {
		return DefaultWidth
	}
	return min(max(w, minWidth), maxWidth)
}

// DisplayWidth is the terminal width of s: CJK characters take two columns.
func DisplayWidth(s string) int { return columns.StringWidth(s) }

// WrapText breaks s into lines of at most width columns: at spaces, and
// between two words of Chinese, which need no space to break (package
// wrap); a closing punctuation mark stays with the word before it. A word
// longer than width gets a line of its own.
func WrapText(s string, width int) []string {
	var lines []string
	line, lineW := "", 0
	for _, tok := range splitLong(tokens(s), width) {
		space := tok.space && line != ""
		w := DisplayWidth(StripANSI(tok.text))
		if space {
			w++
		}
		if line != "" && lineW+w > width {
			lines = append(lines, line)
			line, lineW, space = "", 0, false
			w = DisplayWidth(StripANSI(tok.text))
		}
		if space {
			line += " "
		}
		line += tok.text
		lineW += w
	}
	return append(lines, line)
}

// splitLong breaks a token wider than width after each "|" in it, so that
// a list of choices (crash-before|crash-mid|…) wraps instead of running
// past the edge.
func splitLong(toks []token, width int) []token {
	var out []token
	for _, t := range toks {
		if DisplayWidth(StripANSI(t.text)) <= width || !strings.Contains(t.text, "|") {
			out = append(out, t)
			continue
		}
		parts := strings.SplitAfter(t.text, "|")
		for i, p := range parts {
			out = append(out, token{text: p, space: t.space && i == 0})
		}
	}
	return out
}

type token struct {
	text  string
	space bool // a space came before it
}

// tokens splits s into the pieces a line may break between: at spaces,
// and where package wrap allows a break with no space (between two words
// of Chinese, never before closing punctuation, never inside 《…》).
func tokens(s string) []token {
	var out []token
	for _, f := range strings.Fields(s) {
		for i, p := range wrap.Pieces(f) {
			out = append(out, token{text: p, space: i == 0})
		}
	}
	return out
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || columns.RuneWidth(r) == 2
}

func isClosingPunct(r rune) bool {
	return strings.ContainsRune("，。、；：！？）」』】》”’,.;:!?)", r)
}

// WriteHanging writes text wrapped to width, the first line after first,
// the others indented by rest.
func WriteHanging(w io.Writer, first, rest, text string, width int) {
	lines := WrapText(text, width-max(DisplayWidth(StripANSI(first)), DisplayWidth(rest)))
	for i, l := range lines {
		prefix := first
		if i > 0 {
			prefix = rest
		}
		fmt.Fprintln(w, strings.TrimRight(prefix+l, " "))
	}
}

// Reflow re-wraps prose to width: paragraphs (lines separated by blank
// lines) are joined and wrapped again; a line indented by two spaces (a
// command, an example) keeps its own line and wraps under its indent.
func Reflow(s string, width int) string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, WrapText(JoinLines(para), width)...)
			para = nil
		}
	}
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			flush()
			out = append(out, "")
		case strings.HasPrefix(l, "  "):
			flush()
			indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
			var b strings.Builder
			switch m := columnGap.FindStringSubmatch(l); {
			case strings.HasPrefix(strings.TrimSpace(l), "archlab "):
				WriteCommand(&b, indent, indent+"  ", strings.TrimSpace(l), width)
			case m != nil:
				// "  3    could not run: …": a row of two columns, its
				// text wrapped under the second one.
				WriteHanging(&b, m[1], strings.Repeat(" ", DisplayWidth(m[1])), m[2], width)
			default:
				WriteHanging(&b, indent, indent+"  ", strings.TrimSpace(l), width)
			}
			out = append(out, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
		case len(para) == 0 && (strings.HasSuffix(l, ":") || strings.HasSuffix(l, "：")):
			out = append(out, WrapText(l, width)...) // a heading
		default:
			para = append(para, strings.TrimSpace(l))
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// columnGap is an indented line of two columns: a short first cell, two
// spaces or more, the text.
var columnGap = regexp.MustCompile(`^( +[^ ]{1,24} {2,})([^ ].*)$`)

// JoinLines joins the lines of a paragraph: with a space, except between
// two CJK characters, where Chinese needs none.
func JoinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := []rune(lines[i-1])
			next := []rune(l)
			// No space between two CJK characters, nor after Chinese
			// punctuation: Chinese needs none.
			cjkJoin := len(prev) > 0 && len(next) > 0 && isCJK(prev[len(prev)-1]) && isCJK(next[0])
			afterPunct := len(prev) > 0 && isClosingPunct(prev[len(prev)-1]) && isCJK(prev[len(prev)-1])
			if !cjkJoin && !afterPunct {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// Fits reports whether every line of s is at most width columns.
func Fits(s string, width int) bool {
	for _, l := range strings.Split(s, "\n") {
		if DisplayWidth(StripANSI(l)) > width {
			return false
		}
	}
	return true
}

// StripANSI removes colour escapes, to measure what the reader sees.
func StripANSI(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < '@' || s[j] > '~') {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// WriteCommand writes a shell command wrapped to width the way a shell
// reads it back: each continued line ends in " \\", so a reader can copy
// the lines as they are.
func WriteCommand(w io.Writer, first, rest, cmd string, width int) {
	lines := WrapText(cmd, width-max(DisplayWidth(StripANSI(first)), DisplayWidth(rest))-2)
	for i, l := range lines {
		prefix := first
		if i > 0 {
			prefix = rest
		}
		if i < len(lines)-1 {
			l += " \\"
		}
		fmt.Fprintln(w, prefix+l)
	}
}

// StderrWriter wraps every line written to stderr that is wider than the
// screen: errors, hints, explore's timing line, --rewrite's report. A
// line is wrapped only when it is written whole (it ends in a newline);
// a prompt or a progress bar redrawn with "\r" passes as it is.
type StderrWriter struct {
	w     io.Writer
	width int
}

// NewStderrWriter wraps w's whole lines to width columns.
func NewStderrWriter(w io.Writer, width int) *StderrWriter { return &StderrWriter{w: w, width: width} }

func (s *StderrWriter) Write(p []byte) (int, error) {
	text := string(p)
	if !strings.HasSuffix(text, "\n") || strings.ContainsAny(text, "\r") {
		return s.w.Write(p)
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if DisplayWidth(StripANSI(l)) <= s.width {
			b.WriteString(l + "\n")
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		WriteHanging(&b, indent, indent+"  ", strings.TrimLeft(l, " "), s.width)
	}
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// StderrFile is the file behind stderr, when it is one: the progress bar
// draws only on a terminal.
func StderrFile(w io.Writer) (*os.File, bool) {
	if s, ok := w.(*StderrWriter); ok {
		w = s.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

// Cut shortens s to n columns, with "…" where it was cut.
func Cut(s string, n int) string {
	if DisplayWidth(s) <= n {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && DisplayWidth(string(r))+1 > n {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
