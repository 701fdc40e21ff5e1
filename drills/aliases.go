package drills

import "archlab/harness"

// The recording vocabulary lives in package harness, which records; these
// names let the drills and their renderers keep saying drills.Step.
type (
	Step    = harness.Step
	Counter = harness.Counter
	Check   = harness.Check
)

// The tones a renderer colours a step by.
const (
	Good = harness.Good
	Bad  = harness.Bad
	Harm = harness.Harm
)
