package term

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	xterm "golang.org/x/term"
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
		rate = fmt.Sprintf(" (%s %s/s)", GroupDigits(uint64(float64(done)/s)), p.unit)
	}
	var b strings.Builder
	b.WriteString("\r\x1b[2K" + p.desc + " ")
	if all := p.total(); all > 0 {
		n := min(uint64(all), done)
		full := int(n * barCells / uint64(all))
		fmt.Fprintf(&b, "%3d%% |%s%s| %s/%s %s", n*100/uint64(all), strings.Repeat("█", full), strings.Repeat(" ", barCells-full),
			GroupDigits(n), GroupDigits(uint64(all)), p.unit)
	} else {
		p.frame++
		fmt.Fprintf(&b, "%c %s %s", `|/-\`[p.frame%4], GroupDigits(done), p.unit)
	}
	b.WriteString(rate)
	io.WriteString(p.w, b.String())
}

// clear erases the line.
func (p *progressLine) clear() { io.WriteString(p.w, "\r\x1b[2K") }

// gatedWriter drops what is written until it is opened: the progress bar
// is measured from the start but shown only when the work is slow.
type gatedWriter struct {
	w    io.Writer
	open atomic.Bool
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	if !g.open.Load() {
		return len(p), nil
	}
	return g.w.Write(p)
}

// Meter is a wait shown on a terminal: what is being done, what is
// counted, and how far it is.
type Meter struct {
	Desc  string        // "exploring inbox"
	Unit  string        // what is counted, in the reader's words
	Total func() int64  // -1 while the total is not known (a spinner)
	Done  func() uint64 // how many units are done so far
	// Shown, if set, is called once, when the line first shows, with how
	// long the work has run (explore says its estimate then).
	Shown func(elapsed time.Duration)
}

// WithProgress runs fn and, when it takes more than a second and w is a
// terminal, keeps m's line on w until it returns, then erases it. Piped,
// in a log or in CI (not a terminal) it shows nothing.
func WithProgress(w io.Writer, m Meter, fn func()) {
	f, ok := StderrFile(w)
	if !ok || !xterm.IsTerminal(int(f.Fd())) {
		fn()
		return
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	// The line starts with the work, so its rate is measured from the
	// start, but it shows only once the work has taken a second.
	gate := &gatedWriter{w: w}
	start := time.Now()
	wg.Go(func() {
		bar := &progressLine{w: gate, desc: m.Desc, unit: m.Unit, total: m.Total, start: start}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				bar.clear()
				return
			case <-tick.C:
				bar.draw(m.Done())
				if !gate.open.Load() && time.Since(start) >= time.Second {
					if m.Shown != nil {
						m.Shown(time.Since(start))
					}
					gate.open.Store(true)
				}
			}
		}
	})
	fn()
	close(stop)
	wg.Wait()
}
