// Command archlab-check checks one exercise and hands the result to the
// archlab that started it. It is what `archlab check --watch` rebuilds
// from the files on disk each time an exercise is saved: it links only the
// checker and the exercises (no command line, no tables, no colours), so
// the rebuild is a fraction of a full archlab's, and the student sees a
// verdict a moment after saving. Nobody needs to run it by hand:
//
//	archlab-check [--lang zh|en] EXERCISE
//
// writes the result on the pipe archlab gave it as fd 3 (stdout and
// stderr are the student's code's), and stops when its stdin closes
// (archlab's "your time is up").
package main

import (
	"os"

	"archlab/check"
	"archlab/exercises"
)

func main() {
	os.Exit(check.ChildMain(os.Args[1:], exercises.Students(), os.Stdin, os.Stderr))
}
