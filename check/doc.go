// Package check is archlab's checker for the student's exercises (package
// exercises): for each exercise it runs the section's drills with the
// student's code as strategy student, then every schedule of the
// explorer's scope on the same code (package explore), and reports whether
// the exercise is done, which lesson failed, and the shortest schedule that
// breaks it, which replays as a drill file.
//
// The checker takes the student's code as a value (a *harness.Students),
// so its tests pass in the book's logic and known-wrong variants without
// touching exercises/.
//
// The one rule it teaches: done means that no drill and no schedule in the
// scope breaks the code, not that one run went well.
package check
