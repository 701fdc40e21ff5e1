package check

import (
	"strings"
	"testing"

	"archlab/harness"
	"archlab/internal/ordering"
	"archlab/internal/shardjob"
)

// panicRunner is a student's Runner.Run that panics.
type panicRunner struct{}

func (panicRunner) Run(string, []string, int) (shardjob.Result, error) { panic("student runner") }

// TestPanicIsAFailureNotACrash pins what check must never stop doing: a
// student's code that panics, in any section, is an exercise that failed
// with "the code panicked" (a mechanism's: not done, with the calls that
// make it panic), and the checker (and archlab serve, which shares the
// process) lives on. It fails if safely stops recovering.
func TestPanicIsAFailureNotACrash(t *testing.T) {
	boom := &harness.Students{
		Inbox:    func(*harness.Delivery) error { panic("student inbox") },
		Ledger:   func() harness.Ledger { panic("student ledger") },
		Ordering: func(*harness.EventDelivery) (ordering.Outcome, error) { panic("student ordering") },
		Shardjob: func(*harness.Worker) error { panic("student shard loop") },
		Runner: &harness.ShardMechanism{
			NewCheckpoint: runner2(runnerFlaws{}).Runner.NewCheckpoint, // the student's, not the book's
			NewRunner: func(shardjob.Effects, shardjob.Progress, uint64, int) harness.ShardRunner {
				return panicRunner{}
			},
		},
		Projection: &harness.ProjectionMechanism{
			NewProjection: func() harness.StudentProjection { return boomProjection{} },
			NewConsumer:   func(harness.StudentProjection, int) harness.StudentConsumer { panic("student consumer") },
		},
	}
	for _, e := range Exercises {
		t.Run(e.Name, func(t *testing.T) {
			r := Run(ctx, e, boom)
			if e.model != nil && e.Name != "ledger" { // boom's Ledger panics in NewLedger, before any call
				// A mechanism's panic in a call is an answer that
				// differs, with the calls that lead to it.
				if r.Status != NotDone || r.Calls == nil || !strings.HasPrefix(r.Calls.Last().Yours[0].Value, "panic: student") {
					t.Fatalf("status %s, err %v, calls %v; want not done, the calls ending in the panic", r.Status, r.Err, r.Calls)
				}
				return
			}
			if r.Status != Failed || r.Err == nil || !strings.Contains(r.Err.Error(), "the code panicked") {
				t.Fatalf("status %s, err %v; want error, the code panicked", r.Status, r.Err)
			}
		})
	}
}

// boomProjection is a student's projection whose gate panics.
type boomProjection struct{ harness.StudentProjection }

func (boomProjection) Apply(ordering.Event) (bool, error) { panic("student projection") }
