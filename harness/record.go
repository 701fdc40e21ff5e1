package harness

import "fmt"

// Phase is the part of a drill a step belongs to; --step pauses between
// phases.
type Phase int

// The phases of a drill. Setup, fault, recovery and verdict are every
// drill's; a story that needs one more says so with its marker: [zombie]
// for a worker that wakes after it lost its lease.
const (
	Setup    Phase = iota // build the mechanism, deliver the first messages
	Fault                 // the injected failure and what it does
	Recovery              // redelivery, retry, rerun, reconciliation
	Zombie                // an old owner wakes and acts on a lease it lost
	Verdict               // read the state back
	// Damage is a harm that shows itself in setup or recovery, one step
	// long: a redelivery that no fault struck dropped as a duplicate, or
	// applied again. It is not a fault of its own, and the trace says so:
	// [the harm], then recovery goes on. No drill file writes it.
	Damage
)

// Phases lists the phases in order.
var Phases = []Phase{Setup, Fault, Recovery, Zombie, Damage, Verdict}

// Key is the phase's catalogue key.
func (p Phase) Key() string {
	return [...]string{"phase.setup", "phase.fault", "phase.recovery", "phase.zombie", "phase.verdict", "phase.damage"}[p]
}

// Tone says how a step's result should look: neutral, good (the mechanism
// protected something), bad (a fault, a rejection) or harm (the damage the
// lesson is about: a message lost, a payment doubled, a zombie's commit
// accepted, a row left diverged), which the trace names as the harm.
type Tone int

// Step tones.
const (
	Neutral Tone = iota
	Good
	Bad
	Harm
)

// Msg is a catalogue key with its arguments, rendered in the reader's
// language by the command.
type Msg struct {
	Key  string
	Args []any
}

// M builds a Msg.
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// Plural picks the catalogue's singular form, key.one, when n is 1: "1 key
// forgotten", not "1 key(s) forgotten".
func Plural(key string, n int) string {
	if n == 1 {
		return key + ".one"
	}
	return key
}

// Step is one thing that happened in a drill: Actor did Action to Target and
// got Result. Actor and Target are role names ("broker", "ledger"); their
// display names are the catalogue's "actor.<role>". Op and Outcome say
// the same as values (op.go), for a reader that decides on them: the
// words are for people.
type Step struct {
	Phase   Phase
	Actor   string
	Target  string
	Action  Msg
	Result  Msg
	Tone    Tone
	Op      Op
	Outcome Outcome
}

// Counter is one counter as the book prints it: name and value as text.
type Counter struct {
	Name  string
	Value string
}

// Check is a lesson that must hold for any parameters; Key names it in the
// catalogue ("check.<drill>.<lesson>"). A check that Shows demonstrates a
// failure (the message is lost): it holds when the harm happens, and reads
// as "shows: …", never as a green tick beside a loss.
type Check struct {
	Key   string
	OK    bool
	Shows bool
}

// Recorder collects one drill run: its steps, counters and checks. The
// trace, the diagram and the table are all rendered from it, so they cannot
// disagree with each other.
type Recorder struct {
	phase    Phase
	Steps    []Step
	Counters []Counter
	Checks   []Check
	// Harms are the harms the run did at its end, the worst first, by
	// the names of the checks they break: its section's Harms whose
	// value counts one (RecordHarms).
	Harms []string
	// MaxSteps, when above 0, is how many steps the recording keeps; the
	// steps past it are counted in Dropped, not kept, so a run that
	// records without end (a route of a million orders) cannot fill the
	// memory before its driver sees Dropped and stops it.
	MaxSteps int
	Dropped  int
}

// RecordHarms reads sec's Harms off h at the end of a run.
func (r *Recorder) RecordHarms(sec *Section, h Harness) {
	r.Harms = nil
	for _, harm := range sec.Harms {
		if harm.Observable == "" {
			continue
		}
		v, err := h.Observe(harm.Observable, nil)
		if err != nil {
			continue
		}
		if n, ok := v.(int); ok && n > 0 || v == true {
			r.Harms = append(r.Harms, harm.Check)
		}
	}
}

// Phase starts phase p: later steps belong to it, as a drill file's
// marker says ([fault] after [recovery] is a new fault phase).
func (r *Recorder) Phase(p Phase) { r.phase = p }

// Step records a step in the current phase. A harm recorded in the setup
// or in recovery (a redelivery applied again, a duplicate taken for a
// handled message) is an earlier fault showing itself, not a new one: it
// gets a phase of its own, Damage, and recovery goes on after it. The
// trace never shows the damage under [setup] or [recovery], nor a second
// [the fault] over a step no fault struck.
func (r *Recorder) Step(actor, target string, action, result Msg, tone Tone) {
	s := Step{Actor: actor, Target: target, Action: action, Result: result, Tone: tone}
	if tone == Harm && (r.phase == Setup || r.phase == Recovery) {
		r.phase = Damage
		r.add(s)
		r.phase = Recovery
		return
	}
	r.add(s)
}

func (r *Recorder) add(s Step) {
	if r.MaxSteps > 0 && len(r.Steps) >= r.MaxSteps {
		r.Dropped++
		return
	}
	s.Phase = r.phase
	said(&s)
	r.Steps = append(r.Steps, s)
}

// Fault records the fault itself: the step opens a fault phase, with the
// bad tone, and whatever follows is recovery. A fault that strikes again
// during recovery (a second lost ack, a second poison event) opens a fault
// phase of its own, so the trace tells the story as it happened; after a
// zombie woke or the verdict began, it stays where it is.
func (r *Recorder) Fault(actor, target string, action, result Msg) {
	r.FaultSteps(Step{Actor: actor, Target: target, Action: action, Result: result, Tone: Bad})
}

// FaultSteps records one fault that takes several steps (a kill, and the
// ack it swallowed) in one fault phase.
func (r *Recorder) FaultSteps(steps ...Step) {
	if r.phase <= Recovery {
		r.phase = Fault
	}
	for _, s := range steps {
		r.add(s)
	}
	if r.phase == Fault {
		r.phase = Recovery
	}
}

// ZombieStep records a step of a worker acting on a lease it lost: in the
// zombie phase, wherever it happens (a zombie can commit in the middle of
// its successor's run); the steps after it go on in the phase before.
func (r *Recorder) ZombieStep(actor, target string, action, result Msg, tone Tone) {
	was := r.phase
	if was < Zombie {
		r.phase = Zombie
	}
	r.add(Step{Actor: actor, Target: target, Action: action, Result: result, Tone: tone})
	r.phase = was
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

// Shows records a check that demonstrates a failure.
func (r *Recorder) Shows(key string, ok bool) {
	r.Checks = append(r.Checks, Check{Key: key, OK: ok, Shows: true})
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

// CheckPhases holds a trace to what its phases claim: the verdict comes
// last, every fault phase holds a fault (a bad or harmful step), every
// harm is inside a fault, zombie or damage phase, and a damage phase
// holds only harm. It returns the first step that
// breaks one, for the tests of every drill and counterexample.
func CheckPhases(steps []Step) error {
	for i, s := range steps {
		switch {
		case i > 0 && steps[i-1].Phase == Verdict && s.Phase != Verdict:
			return fmt.Errorf("step %d is in phase %v after the verdict", i+1, s.Phase)
		case s.Tone == Harm && s.Phase != Fault && s.Phase != Zombie && s.Phase != Damage:
			return fmt.Errorf("step %d is a harm in phase %v", i+1, s.Phase)
		case s.Phase == Damage && s.Tone != Harm:
			return fmt.Errorf("step %d is in the damage phase but does no harm", i+1)
		case s.Phase == Fault && (i == 0 || steps[i-1].Phase != Fault):
			bad := false
			for _, f := range steps[i:] {
				if f.Phase != Fault {
					break
				}
				bad = bad || f.Tone == Bad || f.Tone == Harm
			}
			if !bad {
				return fmt.Errorf("the fault phase at step %d holds no fault", i+1)
			}
		}
	}
	return nil
}
