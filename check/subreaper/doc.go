// Package subreaper makes a check's child a child subreaper before the
// student's code runs: before package init, not in main.
//
// A process the student's exercises package starts in its init, in a
// session of its own through a shell that exits at once, is orphaned
// before main runs; made a subreaper only in main, the child would never
// see it, and it would outlive check (issue 43). Go initializes the
// packages in the order of their import paths, each once the packages it
// imports are: this one imports only syscall, which any code that starts
// a process imports too, and archlab/check/subreaper sorts before
// archlab/exercises, so its init runs first.
//
// Out of reach: C code's constructors (cgo), which run before any Go
// init, and a package of the student's own whose path sorts before this
// one's.
package subreaper
