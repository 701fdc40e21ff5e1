package shardjob_test

import (
	"errors"
	"fmt"

	"archlab/internal/shardjob"
)

// A worker commits every 4 items and dies after its 6th: the checkpoint
// says 4, so the rerun replays items 4 and 5, and the idempotent sink
// suppresses them instead of charging twice.
func Example() {
	items := []string{"order-0", "order-1", "order-2", "order-3", "order-4", "order-5", "order-6", "order-7"}
	sink, cp := shardjob.NewSink(), shardjob.NewCheckpoint()
	r := &shardjob.Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: 4}

	res, err := r.Run("shard-0", items, 6)
	fmt.Printf("crash: %+v crashed=%v\n", res, errors.Is(err, shardjob.ErrInjectedCrash))

	res, err = r.Run("shard-0", items, 0)
	fmt.Printf("rerun: %+v err=%v\n", res, err)

	applied, suppressed := sink.Counts()
	fmt.Println("applied:", applied, "suppressed:", suppressed, "checkpoint:", cp.Load("shard-0"))
	// Output:
	// crash: {Attempts:6 Applied:6 Suppressed:0 Checkpoint:4} crashed=true
	// rerun: {Attempts:4 Applied:2 Suppressed:2 Checkpoint:8} err=<nil>
	// applied: 8 suppressed: 2 checkpoint: 8
}
