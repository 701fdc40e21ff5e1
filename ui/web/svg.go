package web

import (
	"fmt"
	"html"
	"html/template"
	"strings"
	"unicode"
	"unicode/utf8"

	"archlab/explore"
	"archlab/ui/view"
	breaks "archlab/ui/wrap"
)

// The diagram is drawn for a projector: the page scales the SVG to the
// width of its panel, never wider, so nothing scrolls sideways, and its
// text is sized so that at 1280×720 a line of it is as tall as the page's
// own text. A diagram is at least minWidth units wide; one with many
// lifelines is wider, and its text shrinks with it only as far as its
// lifelines need. Labels are never cut: a label runs from its arrow across
// the lifelines beside it (on a halo of the panel's colour) and wraps onto
// as many lines as it needs.
const (
	minWidth  = 1000 // units; the panel at 1280×720 is about 900 px
	margin    = 14
	actorFont = 22
	noteFont  = 21
	textFont  = 26 // the action, and the result under its arrow
	resFont   = 24
	lineGap   = 1.3 // line height, in fonts
	headH     = 52  // a participant's box
	noteH     = 36
	selfLoopW = 34
	minGap    = 96 // between two lifelines
)

// textWidth estimates the width of s at font size f: an ideograph is one
// em, anything else about 0.55 em (Noto Sans averages under half an em; an
// estimate too small would cut a label at the panel's edge, which
// TestProjector would see).
func textWidth(s string, f float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case wide(r):
			w += f
		case r == ' ':
			w += 0.3 * f
		default:
			w += 0.55 * f
		}
	}
	return w
}

func wide(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x30ff) || (r >= 0xff00 && r <= 0xffef)
}

// wrap breaks s into lines at most room units wide at font f: at spaces,
// and between two words of Chinese; a word wider than room is broken where
// it must be, never cut.
func wrap(s string, f, room float64) []string {
	var lines []string
	line := ""
	for _, tok := range wrapTokens(s) {
		next := line + tok
		if line == "" {
			next = strings.TrimLeft(tok, " ")
		}
		if line != "" && textWidth(next, f) > room {
			lines = append(lines, strings.TrimRight(line, " "))
			next = strings.TrimLeft(tok, " ")
		}
		for textWidth(next, f) > room && utf8.RuneCountInString(next) > 1 {
			// A word wider than the line: as much of it as fits.
			cut := 0
			for i := range next {
				if i > 0 && textWidth(next[:i], f) > room {
					break
				}
				cut = i
			}
			if cut == 0 {
				break
			}
			lines = append(lines, next[:cut])
			next = next[cut:]
		}
		line = next
	}
	return append(lines, strings.TrimRight(line, " "))
}

// wrapTokens splits s into the pieces a line may break between, each
// with the space before it: at spaces, and in Chinese between two words,
// never inside one (package wrap, as the terminal), so a label never ends
// a line with 生 and starts the next with 效.
func wrapTokens(s string) []string {
	var toks []string
	for i, f := range strings.Fields(s) {
		for j, p := range breaks.Pieces(f) {
			if j == 0 && i > 0 {
				p = " " + p
			}
			toks = append(toks, p)
		}
	}
	return toks
}

// label is a step's text block: where it starts, which way it runs, its
// lines.
type label struct {
	x      float64
	anchor string // "start" or "end"
	action []string
	result []string
}

func (l label) height() float64 {
	return float64(len(l.action))*textFont*lineGap + float64(len(l.result))*resFont*lineGap + 18
}

// SVG draws a sequence diagram: lifelines, a note per phase, an arrow per
// step with its action above and its result below. Each step is a <g
// class="step" data-step="N">, each note a <g class="note" data-step="N">,
// so the page can show the run growing one step at a time. Text is
// escaped, and every line of it is a <tspan class="line">.
func SVG(d view.Diagram) template.HTML { return svgIn(d, minWidth) }

// svgIn is SVG laid out for a panel minWidth units wide: a state page's
// diagram panel is narrower than a drill page's, and its text keeps the
// same size on the screen.
func svgIn(d view.Diagram, minWidth float64) template.HTML {
	n := len(d.Participants)
	if n == 0 {
		return ""
	}
	boxW := make([]float64, n)
	for i, p := range d.Participants {
		boxW[i] = textWidth(p.Name, actorFont) + 24
	}
	// Lifelines as close as their boxes allow, then spread over the
	// minimum width.
	x := make([]float64, n)
	x[0] = margin + boxW[0]/2
	for i := 1; i < n; i++ {
		x[i] = x[i-1] + max(minGap, (boxW[i-1]+boxW[i])/2+12)
	}
	width := x[n-1] + boxW[n-1]/2 + margin
	if width < minWidth && n > 1 {
		// The outer boxes keep their margin; the room left is shared.
		spread := (minWidth - width) / float64(n-1)
		for i := 1; i < n; i++ {
			x[i] += spread * float64(i)
		}
		width = minWidth
	}
	width = max(width, minWidth)
	right := width - margin

	labels := make([]label, len(d.Items))
	height := float64(headH + 2*margin)
	for i, it := range d.Items {
		if it.Note != "" {
			height += noteH
			continue
		}
		lo, hi := min(x[it.From], x[it.To]), max(x[it.From], x[it.To])
		var l label
		if it.From == it.To {
			lo, hi = x[it.From]+selfLoopW, x[it.From]-selfLoopW
		}
		// The text runs right from the arrow's left end, or left from its
		// right end when that takes fewer lines.
		roomR, roomL := right-(lo+10), (hi-10)-margin
		l.x, l.anchor = lo+10, "start"
		l.action, l.result = wrap(action(it), textFont, roomR), wrap(it.Result, resFont, roomR)
		if a, r := wrap(action(it), textFont, roomL), wrap(it.Result, resFont, roomL); len(a)+len(r) < len(l.action)+len(l.result) {
			l.x, l.anchor, l.action, l.result = hi-10, "end", a, r
		}
		labels[i] = l
		height += l.height()
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="seq" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img">`, width, height, width, height)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head"/></marker></defs>`)
	top := float64(margin)
	for i := range d.Participants {
		fmt.Fprintf(&b, `<line class="life" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x[i], top+headH, x[i], height-margin)
	}
	// The participants are drawn last, over a band of background, so the
	// page can keep them at the top while a long run scrolls under them.
	var heads strings.Builder
	fmt.Fprintf(&heads, `<g class="heads"><rect class="band" x="0" y="0" width="%.0f" height="%.0f"/>`, width, top+headH-4)
	for i, p := range d.Participants {
		fmt.Fprintf(&heads, `<g class="actor" data-actor="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="6"/><text x="%.1f" y="%.1f" font-size="%d"><tspan class="line">%s</tspan></text></g>`,
			esc(p.ID), x[i]-boxW[i]/2, top, boxW[i], headH-8, x[i], top+(headH-8)/2+8, actorFont, esc(p.Name))
	}
	heads.WriteString(`</g>`)
	y := top + headH
	for i, it := range d.Items {
		if it.Note != "" {
			fmt.Fprintf(&b, `<g class="note" data-step="%d"><rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="4"/><text x="%.1f" y="%.1f" font-size="%d"><tspan class="line">%s</tspan></text></g>`,
				it.Step, margin/2.0, y+4, width-margin, noteH-8, width/2, y+noteH/2+7, noteFont, esc(it.Note))
			y += noteH
			continue
		}
		l := labels[i]
		cls := "step"
		if it.Fault {
			cls += " fault"
		}
		fmt.Fprintf(&b, `<g class="%s" data-step="%d"><title>%s</title>`, cls, it.Step, esc(it.Label))
		ay := y + float64(len(l.action))*textFont*lineGap + 8 // the arrow, between the action and the result
		x1, x2 := x[it.From], x[it.To]
		switch {
		case it.From == it.To:
			fmt.Fprintf(&b, `<path class="arrow" d="M%.1f,%.1f h%d v14 h%d" marker-end="url(#arrow)" fill="none"/>`, x1, ay-7, selfLoopW, -selfLoopW+2)
		case it.Fault:
			// A message that does not arrive: it stops short, with a cross (Mermaid's -x).
			dir := 1.0
			if x2 < x1 {
				dir = -1
			}
			end := x2 - dir*18
			fmt.Fprintf(&b, `<line class="arrow" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x1, ay, end, ay)
			fmt.Fprintf(&b, `<path class="cross" d="M%.1f,%.1f l10,10 m0,-10 l-10,10"/>`, end-5, ay-5)
		default:
			dir := 1.0
			if x2 < x1 {
				dir = -1
			}
			fmt.Fprintf(&b, `<line class="arrow" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" marker-end="url(#arrow)"/>`, x1, ay, x2-dir*2, ay)
		}
		lines := func(cls string, font float64, text []string, first float64) {
			fmt.Fprintf(&b, `<text class="%s" x="%.1f" y="%.1f" font-size="%.0f" text-anchor="%s">`, cls, l.x, first, font, l.anchor)
			for j, line := range text {
				dy := 0.0
				if j > 0 {
					dy = font * lineGap
				}
				fmt.Fprintf(&b, `<tspan class="line" x="%.1f" dy="%.1f">%s</tspan>`, l.x, dy, esc(line))
			}
			b.WriteString(`</text>`)
		}
		lines("action", textFont, l.action, y+textFont)
		lines("result "+string(it.Tone), resFont, l.result, ay+resFont+4)
		b.WriteString(`</g>`)
		y += l.height()
	}
	b.WriteString(heads.String())
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// action is a message's first line: its number and action.
func action(it view.Item) string { return fmt.Sprintf("%d. %s", it.Step, it.Action) }

func esc(s string) string { return html.EscapeString(s) }

// brokenText says what a counterexample broke, in the page's language:
// "m1 生效 2 次", not the invariant's identifier.
func brokenText(p *page, c *explore.Counterexample) string {
	parts := make([]string, len(c.Outcome))
	for i, m := range c.Outcome {
		parts[i] = p.T(m.Key, m.Args...)
	}
	return strings.Join(parts, p.T("explore.line.sep"))
}
