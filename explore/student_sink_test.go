package explore

import (
	"errors"
	"strings"
	"testing"

	"archlab/harness"
	"archlab/internal/shardjob"
)

// sinkLoop is a student's shard loop with the book's shape, fencing its
// takeover; onFail is what it does when the sink fails an item: "stop"
// returns the error (the book-like loop), "go-on" ignores it as the book's
// Runner.Run must, "retry" applies the item again (a sound design unlike
// the book's).
func sinkLoop(onFail string) func(*harness.Worker) error {
	return func(w *harness.Worker) error {
		items, every := w.Items(), w.CommitEvery()
		start, err := w.Fence()
		if err != nil {
			return err
		}
		for i := start; i < len(items); i++ {
			_, err := w.Apply(items[i])
			if errors.Is(err, harness.ErrSinkFailed) && onFail == "go-on" {
				err = nil
			}
			if errors.Is(err, harness.ErrSinkFailed) && onFail == "retry" {
				_, err = w.Apply(items[i])
			}
			if err != nil {
				return err
			}
			if every > 0 && (i+1-start)%every == 0 {
				if err := w.Commit(w.Epoch(), i+1); err != nil {
					return err
				}
			}
		}
		return w.Commit(w.Epoch(), len(items))
	}
}

// TestStudentScopeHasAFailingSink: the student's shard-loop scope strikes
// a failing sink at every item, as a fault class of its own; a loop that
// goes on past the failure loses the item (kafka-go issue #764), one that
// stops or retries is safe. The runner's scope has no such class: the
// book's Runner.Run cannot hear the failure.
func TestStudentScopeHasAFailingSink(t *testing.T) {
	sc := ShardjobScope{Keys: 8, Fails: true}
	for _, tc := range []struct {
		onFail string
		broken bool
	}{{"stop", false}, {"go-on", true}, {"retry", false}} {
		t.Run(tc.onFail, func(t *testing.T) {
			t.Parallel()
			rep, err := StudentShardjob(ctx, sc, &harness.Students{Shardjob: sinkLoop(tc.onFail)})
			if err != nil {
				t.Fatal(err)
			}
			st := rep.Strategies[0]
			fired := map[string]uint64{}
			for _, f := range st.Faults {
				fired[f.Name] = f.N
			}
			if fired["sink-fails-at"] == 0 {
				t.Fatalf("no schedule struck with sink-fails-at: %v", st.Faults)
			}
			if broken := st.Shortest != nil; broken != tc.broken {
				t.Fatalf("broken %v, want %v (%v)", broken, tc.broken, counts(st))
			}
			if tc.broken && (!strings.Contains(st.Shortest.Schedule, "sink-fails-at=") || counts(st)["not-exactly-once"] == 0) {
				t.Fatalf("shortest %q breaks %v; want a sink-fails-at schedule that loses an item", st.Shortest.Schedule, st.Shortest.Broken)
			}
		})
	}
	books := &harness.Students{Runner: &harness.ShardMechanism{
		NewCheckpoint: func() harness.Checkpoint { return shardjob.NewCheckpoint() },
		NewRunner: func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, every int) harness.ShardRunner {
			return &shardjob.Runner{Sink: sink, CP: cp, Epoch: epoch, CommitEvery: every}
		}}}
	rep, err := StudentRunner(ctx, sc, books)
	if err != nil {
		t.Fatal(err)
	}
	if st := rep.Strategies[0]; st.Shortest != nil {
		t.Fatalf("the book's Runner and Checkpoint break the runner's scope: %s", st.Shortest.Schedule)
	}
	for _, f := range rep.Strategies[0].Faults {
		if f.Name == "sink-fails-at" {
			t.Fatal("the runner's scope strikes a failing sink the book's Runner.Run cannot hear")
		}
	}
}
