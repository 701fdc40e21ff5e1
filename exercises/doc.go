// Package exercises is where a student writes the book's code: one Go file
// per exercise, in the book's order. Each file holds a stub that compiles
// and returns ErrNotImplemented; the student replaces its body, then runs
//
//	go run ./cmd/archlab check
//
// which compiles this package in, runs the section's drills and every
// schedule of the explorer's scope on the student's code, and says which
// exercises are done. No solution ships here: the checker's tests pass the
// book's logic in as a value, from their own _test.go files.
//
// 本包是学生写书中代码的地方：每个练习一个 Go 文件，按书的顺序排列。每个文件里
// 有一个能编译、返回 ErrNotImplemented 的桩函数；学生改写它的函数体，然后运行
// go run ./cmd/archlab check：它把本包编译进来，在学生的代码上运行本节的演练和
// 探索器范围内的每一种故障序列，并告诉你哪些练习已经完成。这里不附带答案。
//
// The one rule it teaches: a design is right when no schedule breaks it,
// not when one run looks fine.
package exercises

import (
	"errors"

	"archlab/harness"
)

// ErrNotImplemented is what every stub returns until the student writes
// it; the checker reports the exercise as "not started".
var ErrNotImplemented = errors.New("not implemented yet")

// Students is the student's code as the harness takes it: one function per
// exercise. archlab check and `archlab drill --file` with "strategy
// student" run these.
func Students() *harness.Students {
	return &harness.Students{Inbox: ConsumerHandler, Recover: ConsumerRecover, Ledger: newLedger, Ordering: ProjectionDecision, Shardjob: ShardLoop, Runner: runner(),
		Projection: &harness.ProjectionMechanism{
			NewProjection: func() harness.StudentProjection { return NewProjection() },
			NewConsumer: func(p harness.StudentProjection, maxAttempts int) harness.StudentConsumer {
				return consumerPlug{NewConsumer(p.(*Projection), maxAttempts)}
			},
		}}
}

// newLedger is NewLedger as the harness takes it: a fresh ledger of yours
// for every run.
func newLedger() harness.Ledger {
	return NewLedger()
}

// consumerPlug is the student's Consumer as the harness takes it: the
// book's Consumer keeps its budget in a field, MaxAttempts, which an
// interface cannot name.
type consumerPlug struct{ *Consumer }

func (c consumerPlug) Budget() int { return c.MaxAttempts }
