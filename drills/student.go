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

// StudentSource is d's file with its header naming strategy student: the
// drill file that replays, with `archlab drill --file`, what ForStudent(d)
// runs.
func StudentSource(d *Drill) ([]byte, error) { return ExerciseSource(d, "") }

// ExerciseSource is StudentSource naming one exercise too, when exercise
// is not "": the header line "exercise NAME" runs that exercise's code
// alone, and the book's everywhere else in the section (§11.2's shard-loop
// and runner both take Runner.Run's place).
func ExerciseSource(d *Drill, exercise string) ([]byte, error) {
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
		case header && (strings.HasPrefix(line, "strategy ") || strings.HasPrefix(line, "exercise ")):
			continue // replaced below, after the section line
		case header && strings.HasPrefix(line, "section "):
			out.WriteString(line)
			out.WriteString("strategy " + harness.Student + "\n")
			if exercise != "" {
				out.WriteString("exercise " + exercise + "\n")
			}
			continue
		}
		out.WriteString(line)
	}
	return out.Bytes(), nil
}
