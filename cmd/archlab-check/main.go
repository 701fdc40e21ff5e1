// Command archlab-check checks one exercise and hands the result to the
// archlab that started it. It is what `archlab check --watch` rebuilds
// from the files on disk each time an exercise is saved: it links only the
// checker and the exercises (no command line, no tables, no colours), so
// the rebuild is a fraction of a full archlab's, and the student sees a
// verdict a moment after saving. Nobody needs to run it by hand:
//
//	archlab-check [--lang zh|en] EXERCISE
//
// writes the result on stdout for archlab to read, and stops when its
// stdin closes (archlab's "your time is up").
package main

import (
	"os"

	"archlab/check"
	"archlab/exercises"
)

func main() {
	// stdout carries the result; what the student's code prints while
	// debugging goes to stderr, which archlab shows apart.
	out := os.Stdout
	os.Stdout = os.Stderr
	os.Exit(check.ChildMain(os.Args[1:], exercises.Students(), os.Stdin, out, os.Stderr))
}
