package drills

import (
	"bytes"
	"strings"

	"archlab/harness"
)

// A built-in drill can run with the student's code in place of the book's
// (package exercises, checked by `archlab check`): the same file, with the
// header line "strategy student".

// ForStudent returns a copy of d that runs the student's code: the same
// steps, counters, checks and expected counters, under strategy student.
// RunIn's Env carries the code.
func ForStudent(d *Drill) *Drill {
	f := *d.file
	f.strategy = harness.Student
	c := *d
	c.Strategy, c.file = harness.Student, &f
	return &c
}

// ForMechanism is ForStudent for a mechanism exercise: the run takes the
// student's mechanism name (harness.Students.For) where the book's sits.
func ForMechanism(d *Drill, name string) *Drill {
	c := ForStudent(d)
	c.file.mechanism, c.Mechanism = name, name
	return c
}

// StudentSource is d's file with its header naming strategy student (and
// the mechanism exercise, for a drill of ForMechanism): the drill file that
// replays, with `archlab drill --file`, what d runs.
func StudentSource(d *Drill) ([]byte, error) {
	src, err := Source(d)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	header := true
	for _, line := range strings.SplitAfter(string(src), "\n") {
		switch {
		case header && strings.HasPrefix(line, "-- "):
			header = false
		case header && strings.HasPrefix(line, "strategy "):
			continue // replaced below, after the section line
		case header && strings.HasPrefix(line, "section "):
			out.WriteString(line)
			out.WriteString(strings.TrimSpace("strategy "+harness.Student+" "+d.Mechanism) + "\n")
			continue
		}
		out.WriteString(line)
	}
	return out.Bytes(), nil
}
