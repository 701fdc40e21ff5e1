package web

import (
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/mattn/go-runewidth"

	"archlab/ui/view"
)

// The diagram's geometry, in SVG user units (CSS pixels at full size). A
// cell is half an em: a Latin letter takes one, a Chinese character two.
const (
	cell      = 7.9 // px per terminal cell at the label's 16px font (Latin averages under half an em)
	headH     = 44  // participant boxes
	noteH     = 30
	msgH      = 56 // two lines of label and the arrow
	margin    = 16
	minGap    = 150 // between lifelines
	maxLabel  = 44  // cells of a label line before it is cut (the caption shows it all)
	selfLoopW = 34
)

// textWidth is the width of s in px, by its terminal cells.
func textWidth(s string) float64 { return float64(runewidth.StringWidth(s)) * cell }

// clip shortens a label line for the diagram; the full text is in the
// caption and in the element's title.
func clip(s string) string {
	if runewidth.StringWidth(s) <= maxLabel {
		return s
	}
	return runewidth.Truncate(s, maxLabel, "…")
}

// SVG draws a sequence diagram: lifelines, a note per phase, an arrow per
// step with its action above and its result below. Each step is a <g
// class="step" data-step="N">, each note a <g class="note" data-step="N">,
// so the page can show the run growing one step at a time. Text is
// escaped; the layout widens the gap between two lifelines until every
// label between them fits.
func SVG(d view.Diagram) template.HTML {
	n := len(d.Participants)
	if n == 0 {
		return ""
	}
	gaps := make([]float64, max(n-1, 0))
	for i := range gaps {
		gaps[i] = minGap
	}
	boxW := make([]float64, n)
	for i, p := range d.Participants {
		boxW[i] = textWidth(p.Name) + 28
	}
	for i := range gaps {
		gaps[i] = max(gaps[i], (boxW[i]+boxW[i+1])/2+24)
	}
	lastRoom := 0.0 // room right of the last lifeline, for its self-messages
	for _, it := range d.Items {
		if it.Note != "" {
			continue
		}
		w := max(textWidth(clip(action(it))), textWidth(clip(it.Result))) + 24
		lo, hi := min(it.From, it.To), max(it.From, it.To)
		if lo == hi {
			w += selfLoopW
			if hi == n-1 {
				lastRoom = max(lastRoom, w)
				continue
			}
			hi = lo + 1
		}
		sum := 0.0
		for g := lo; g < hi; g++ {
			sum += gaps[g]
		}
		if sum < w {
			extra := (w - sum) / float64(hi-lo)
			for g := lo; g < hi; g++ {
				gaps[g] += extra
			}
		}
	}
	x := make([]float64, n)
	x[0] = margin + max(boxW[0]/2, 0)
	for i := 1; i < n; i++ {
		x[i] = x[i-1] + gaps[i-1]
	}
	width := x[n-1] + max(boxW[n-1]/2, lastRoom) + margin
	height := float64(headH + 2*margin)
	for _, it := range d.Items {
		if it.Note != "" {
			height += noteH
		} else {
			height += msgH
		}
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
		fmt.Fprintf(&heads, `<g class="actor" data-actor="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="6"/><text x="%.1f" y="%.1f">%s</text></g>`,
			esc(p.ID), x[i]-boxW[i]/2, top, boxW[i], headH-8, x[i], top+(headH-8)/2+6, esc(p.Name))
	}
	heads.WriteString(`</g>`)
	y := top + headH
	for _, it := range d.Items {
		if it.Note != "" {
			fmt.Fprintf(&b, `<g class="note" data-step="%d"><rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="4"/><text x="%.1f" y="%.1f">%s</text></g>`,
				it.Step, margin/2.0, y+5, width-margin, noteH-10, width/2, y+noteH/2+5, esc(it.Note))
			y += noteH
			continue
		}
		cls := "step"
		if it.Fault {
			cls += " fault"
		}
		fmt.Fprintf(&b, `<g class="%s" data-step="%d"><title>%s</title>`, cls, it.Step, esc(it.Label))
		ay := y + 30 // the arrow, between the action above and the result below
		x1, x2 := x[it.From], x[it.To]
		var tx float64
		anchor := "middle"
		if it.From == it.To {
			fmt.Fprintf(&b, `<path class="arrow" d="M%.1f,%.1f h%d v14 h%d" marker-end="url(#arrow)" fill="none"/>`, x1, ay-7, selfLoopW, -selfLoopW+2)
			tx, anchor = x1+selfLoopW+8, "start"
			fmt.Fprintf(&b, `<text class="action" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, tx, ay-12, anchor, esc(clip(action(it))))
			fmt.Fprintf(&b, `<text class="result %s" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, it.Tone, tx, ay+22, anchor, esc(clip(it.Result)))
		} else {
			dir := 1.0
			if x2 < x1 {
				dir = -1
			}
			if it.Fault {
				// A message that does not arrive: it stops short, with a cross (Mermaid's -x).
				end := x2 - dir*18
				fmt.Fprintf(&b, `<line class="arrow" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x1, ay, end, ay)
				fmt.Fprintf(&b, `<path class="cross" d="M%.1f,%.1f l10,10 m0,-10 l-10,10"/>`, end-5, ay-5)
			} else {
				fmt.Fprintf(&b, `<line class="arrow" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" marker-end="url(#arrow)"/>`, x1, ay, x2-dir*2, ay)
			}
			tx = (x1 + x2) / 2
			fmt.Fprintf(&b, `<text class="action" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, tx, ay-9, anchor, esc(clip(action(it))))
			fmt.Fprintf(&b, `<text class="result %s" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, it.Tone, tx, ay+20, anchor, esc(clip(it.Result)))
		}
		b.WriteString(`</g>`)
		y += msgH
	}
	b.WriteString(heads.String())
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// action is a message's first line: its number and action.
func action(it view.Item) string { return fmt.Sprintf("%d. %s", it.Step, it.Action) }

func esc(s string) string { return html.EscapeString(s) }
