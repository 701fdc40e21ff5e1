package harness

import (
	"testing"

	"archlab/i18n"
)

// TestOpsAreRecordedKeys: every key the tables of op.go read is a key the
// catalogue words, so a key renamed where a step is recorded, and not in
// the tables, fails here rather than leaving its steps without their call
// or outcome (and a student's mistake unnamed).
func TestOpsAreRecordedKeys(t *testing.T) {
	var keys []string
	for k := range ops {
		keys = append(keys, k)
	}
	for k := range outcomes {
		keys = append(keys, k)
	}
	for _, k := range keys {
		for _, lang := range i18n.Langs {
			if !i18n.Has(lang, k) {
				t.Errorf("%s: op.go reads key %q, which has no text", lang, k)
			}
		}
	}
}

// TestStepSaysItsOp: a recorded step carries its call and its outcome,
// whichever way it is recorded.
func TestStepSaysItsOp(t *testing.T) {
	r := &Recorder{}
	r.Step("consumer", "ledger", M("step.apply-once", "m"), M("res.applied", 1), Good)
	r.Fault("consumer", "broker", M("step.ack", "m"), M("res.ack-lost"))
	r.ZombieStep("worker-e1", "checkpoint", M("step.commit", "shard-0", 3), M("res.zombie-moved", 1, 3, 2), Harm)
	want := []struct {
		op  Op
		out Outcome
	}{{ApplyOnce, Applied}, {Ack, NoOutcome}, {Commit, ZombieMoved}}
	for i, s := range r.Steps {
		if s.Op != want[i].op || s.Outcome != want[i].out {
			t.Errorf("step %d: op %d, outcome %d, want %d, %d", i+1, s.Op, s.Outcome, want[i].op, want[i].out)
		}
	}
}
