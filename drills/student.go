package drills

import (
	"bytes"
	"strings"

	"archlab/harness"
)

// A built-in drill can run with the student's code in place of the book's
// (package exercises, checked by `archlab check`): the same file, with the
// header line "strategy student".

// ForExercise returns a copy of d that runs the student's code: the same
// steps, counters, checks and expected counters, under strategy student.
// exercise is one of the section's mechanism exercises ("ledger"), the
// student's mechanism under the book's own functions, or "" for the
// section's protocol exercise. RunIn's Env carries the code.
func ForExercise(d *Drill, exercise string) *Drill {
	f := *d.file
	f.strategy, f.exercise = harness.Student, exercise
	c := *d
	c.Strategy, c.Exercise, c.file = harness.Student, exercise, &f
	return &c
}

// ExerciseSource is d's file with its header naming strategy student (and
// the mechanism exercise, "exercise ledger", when there is one): the drill
// file that replays, with `archlab drill --file`, what ForExercise runs.
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
