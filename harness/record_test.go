package harness

import (
	"fmt"
	"testing"
)

// TestPhasesAreTrue: a drill file's marker sets the phase it names, even
// backwards ([fault] after [recovery]); a harm outside a fault is a
// damage phase of its own, not a second fault (issue 34: mark-before-
// effect showed [the fault] over a redelivery no fault struck); a
// zombie's step is in the zombie phase wherever it falls.
func TestPhasesAreTrue(t *testing.T) {
	r := &Recorder{}
	step := func(tone Tone) { r.Step("a", "b", M("x"), M("y"), tone) }
	r.Phase(Recovery)
	r.Phase(Fault)
	step(Bad)
	step(Harm) // in a fault phase already: stays there
	r.Phase(Recovery)
	step(Neutral)
	step(Harm) // the redelivery applied again: the damage, then recovery
	step(Neutral)
	r.ZombieStep("a", "b", M("x"), M("y"), Harm)
	step(Neutral)
	r.Phase(Verdict)
	r.Fault("a", "b", M("x"), M("y")) // in the verdict, stays there
	var got []Phase
	for _, s := range r.Steps {
		got = append(got, s.Phase)
	}
	want := []Phase{Fault, Fault, Recovery, Damage, Recovery, Zombie, Recovery, Verdict}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("phases %v, want %v", got, want)
	}
	if err := CheckPhases(r.Steps); err != nil {
		t.Fatal(err)
	}
	r.Steps[3].Phase = Recovery
	if err := CheckPhases(r.Steps); err == nil {
		t.Fatal("CheckPhases accepts a harm in recovery")
	}
	r.Steps[3].Phase, r.Steps[2].Phase = Damage, Damage
	if err := CheckPhases(r.Steps); err == nil {
		t.Fatal("CheckPhases accepts a damage phase over a step that does no harm")
	}
}
