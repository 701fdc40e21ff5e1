package check

import "archlab/harness"

// What the external tests (package check_test) take from this package's
// tests: the known-wrong variants, and whether -race is on.

// Variant is a known-wrong variant of an exercise.
type Variant struct {
	Name, Exercise string
	Students       *harness.Students
}

// WrongVariants are the known-wrong variants: the students_test.go ones,
// then one per clause of the mechanism exercises (clauses_test.go).
func WrongVariants() []Variant {
	var out []Variant
	for _, v := range wrong {
		out = append(out, Variant{v.name, v.exercise, v.students})
	}
	for _, v := range clauseVariants {
		out = append(out, Variant{v.name, v.exercise, v.students})
	}
	return out
}

// Checked is Run, once per exercise and code for the whole test binary
// (checked_test.go).
func Checked(e *Exercise, code string, s *harness.Students) *Result { return checked(e, code, s) }

// RaceOn says the test binary was built with -race.
const RaceOn = raceOn
