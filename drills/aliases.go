package drills

import "archlab/harness"

// The recording vocabulary lives in package harness, which records; these
// names let the command keep saying drills.Step.
type (
	Step     = harness.Step
	Msg      = harness.Msg
	Phase    = harness.Phase
	Tone     = harness.Tone
	Counter  = harness.Counter
	Check    = harness.Check
	Recorder = harness.Recorder
)

// Phases and tones.
const (
	Setup    = harness.Setup
	Fault    = harness.Fault
	Recovery = harness.Recovery
	Verdict  = harness.Verdict
	Neutral  = harness.Neutral
	Good     = harness.Good
	Bad      = harness.Bad
)

// Phases lists the phases in order.
var Phases = harness.Phases

// M builds a Msg.
func M(key string, args ...any) Msg { return harness.M(key, args...) }
