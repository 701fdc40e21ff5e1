package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressLine is the line explore keeps on stderr while it works: how far
// it is (a bar when the total is known, a spinner when it is not), the
// count and the rate. It redraws itself in place and erases itself at the
// end, so the screen holds only the report. (It replaces a progress-bar
// library that linked net/http into every archlab command, issue 27.)
type progressLine struct {
	w     io.Writer
	desc  string
	unit  string       // what is counted, in the reader's words
	total func() int64 // -1 while the total is not known
	start time.Time
	frame int
}

const barCells = 20

// draw redraws the line for done units.
func (p *progressLine) draw(done uint64) {
	rate := ""
	if s := time.Since(p.start).Seconds(); s > 0 {
		rate = fmt.Sprintf(" (%s %s/s)", groupDigits(uint64(float64(done)/s)), p.unit)
	}
	var b strings.Builder
	b.WriteString("\r\x1b[2K" + p.desc + " ")
	if all := p.total(); all > 0 {
		n := min(uint64(all), done)
		full := int(n * barCells / uint64(all))
		fmt.Fprintf(&b, "%3d%% |%s%s| %s/%s %s", n*100/uint64(all), strings.Repeat("█", full), strings.Repeat(" ", barCells-full),
			groupDigits(n), groupDigits(uint64(all)), p.unit)
	} else {
		p.frame++
		fmt.Fprintf(&b, "%c %s %s", `|/-\`[p.frame%4], groupDigits(done), p.unit)
	}
	b.WriteString(rate)
	io.WriteString(p.w, b.String())
}

// clear erases the line.
func (p *progressLine) clear() { io.WriteString(p.w, "\r\x1b[2K") }
