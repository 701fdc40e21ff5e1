package harness

import "fmt"

// Phase is the part of a drill a step belongs to; --step pauses between
// phases.
type Phase int

// The four phases of every drill.
const (
	Setup    Phase = iota // build the mechanism, deliver the first messages
	Fault                 // the injected failure and what it does
	Recovery              // redelivery, retry, rerun, reconciliation
	Verdict               // read the state back
)

// Phases lists the phases in order.
var Phases = []Phase{Setup, Fault, Recovery, Verdict}

// Key is the phase's catalogue key.
func (p Phase) Key() string {
	return [...]string{"phase.setup", "phase.fault", "phase.recovery", "phase.verdict"}[p]
}

// Tone says how a step's result should look: neutral, good (the mechanism
// protected something) or bad (a fault, a loss, a rejection).
type Tone int

// Step tones.
const (
	Neutral Tone = iota
	Good
	Bad
)

// Msg is a catalogue key with its arguments, rendered in the reader's
// language by the command.
type Msg struct {
	Key  string
	Args []any
}

// M builds a Msg.
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// Step is one thing that happened in a drill: Actor did Action to Target and
// got Result. Actor and Target are role names ("broker", "ledger"); their
// display names are the catalogue's "actor.<role>".
type Step struct {
	Phase  Phase
	Actor  string
	Target string
	Action Msg
	Result Msg
	Tone   Tone
}

// Counter is one counter as the book prints it: name and value as text.
type Counter struct {
	Name  string
	Value string
}

// Check is a lesson that must hold for any parameters; Key names it in the
// catalogue ("check.<drill>.<lesson>").
type Check struct {
	Key string
	OK  bool
}

// Recorder collects one drill run: its steps, counters and checks. The
// trace, the diagram and the table are all rendered from it, so they cannot
// disagree with each other.
type Recorder struct {
	phase    Phase
	Steps    []Step
	Counters []Counter
	Checks   []Check
}

// Phase starts a new phase; later steps belong to it. Phases only move
// forward: a fault that strikes again during recovery (a second lost ack, a
// retry that conflicts again) stays in recovery, with its bad tone.
func (r *Recorder) Phase(p Phase) { r.phase = max(r.phase, p) }

// Step records a step in the current phase.
func (r *Recorder) Step(actor, target string, action, result Msg, tone Tone) {
	r.Steps = append(r.Steps, Step{Phase: r.phase, Actor: actor, Target: target, Action: action, Result: result, Tone: tone})
}

// Fault records the fault itself: the step moves the run into the fault
// phase, with the bad tone, and whatever follows is recovery.
func (r *Recorder) Fault(actor, target string, action, result Msg) {
	r.Phase(Fault)
	r.Step(actor, target, action, result, Bad)
	r.Phase(Recovery)
}

// Count records a counter. Counters come out in the order they are recorded,
// which each drill keeps equal to the book's.
func (r *Recorder) Count(name string, value any) {
	r.Counters = append(r.Counters, Counter{Name: name, Value: Format(value)})
}

// Check records a lesson check.
func (r *Recorder) Check(key string, ok bool) {
	r.Checks = append(r.Checks, Check{Key: key, OK: ok})
}

// Format prints a value the way the book's logs do: booleans as true/false,
// everything else with its String method or %v.
func Format(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case interface{ String() string }:
		return v.String()
	}
	return fmt.Sprint(v)
}
