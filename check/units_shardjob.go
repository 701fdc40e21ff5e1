package check

import (
	"errors"
	"fmt"

	"archlab/exercises"
	"archlab/harness"
	"archlab/internal/shardjob"
)

// The book's §11.2 test, run on the student's Runner and Checkpoint
// (exercise runner). The book prints its log and not its code; this is the
// test its log describes, as internal/shardjob's TestRunCrashResume
// reconstructs it: the keys order-0 … order-999 split into 4 shards, shard
// 0 committing every 10 items and crashing after its 37th, then rerun, then
// the other shards.

// runnerUnits are exercise runner's units, in the book's order.
var runnerUnits = []Unit{{Name: "TestRunCrashResume", Run: unitRunCrashResume}}

// The book's test's parameters; its log prints what they come to.
const (
	unitKeys, unitShards, unitEvery, unitCrashAfter = 1000, 4, 10, 37
)

// unitRunCrashResume is TestRunCrashResume: "shard0=250 crash_attempts=37
// checkpoint=30 replay=7 applied=1000 suppressed=7". The sink is the
// book's; the checkpoint and the runner are the student's.
func unitRunCrashResume(s *harness.Students) error {
	m := s.Runner
	shards, err := shardjob.Split(harness.JobKeys(unitKeys), unitShards)
	if err != nil {
		return err
	}
	sink, cp := shardjob.NewSink(), m.NewCheckpoint()
	r := m.NewRunner(sink, cp, 1, unitEvery)
	// The book's numbers follow from the parameters: the crash comes after
	// the 37th item, before any commit past 30.
	wantCP := (unitCrashAfter - 1) / unitEvery * unitEvery

	crashed, err := r.Run("shard-0", shards[0], unitCrashAfter)
	switch {
	case errors.Is(err, exercises.ErrNotImplemented):
		return err
	case !errors.Is(err, shardjob.ErrInjectedCrash):
		return &UnitFailure{Key: "check.unit.runner.crash-err", Args: []any{unitCrashAfter, fmt.Sprint(err)}}
	case crashed.Attempts != unitCrashAfter || crashed.Checkpoint != wantCP || cp.Load("shard-0") != wantCP:
		return &UnitFailure{Key: "check.unit.runner.crash", Args: []any{crashed.Attempts, crashed.Checkpoint, cp.Load("shard-0"), unitCrashAfter, wantCP}}
	}

	resumed, err := r.Run("shard-0", shards[0], 0)
	replay := crashed.Attempts - crashed.Checkpoint
	n := len(shards[0])
	switch {
	case errors.Is(err, exercises.ErrNotImplemented):
		return err
	case err != nil:
		return &UnitFailure{Key: "check.unit.runner.rerun-err", Args: []any{err.Error()}}
	case resumed.Attempts != n-wantCP || resumed.Suppressed != replay || resumed.Checkpoint != n || cp.Load("shard-0") != n:
		return &UnitFailure{Key: "check.unit.runner.rerun", Args: []any{resumed.Attempts, resumed.Suppressed, resumed.Checkpoint, cp.Load("shard-0"), n - wantCP, wantCP, replay, n}}
	}

	for i := 1; i < unitShards; i++ {
		name := harness.ShardName(i)
		res, err := r.Run(name, shards[i], 0)
		if errors.Is(err, exercises.ErrNotImplemented) {
			return err
		}
		if err != nil || res.Applied != len(shards[i]) || res.Suppressed != 0 || cp.Load(name) != len(shards[i]) {
			return &UnitFailure{Key: "check.unit.runner.shard", Args: []any{name, res.Applied, res.Suppressed, cp.Load(name), fmt.Sprint(err), len(shards[i])}}
		}
	}

	if applied, suppressed := sink.Counts(); applied != unitKeys || suppressed != replay {
		return &UnitFailure{Key: "check.unit.runner.totals", Args: []any{applied, suppressed, unitKeys, replay}}
	}
	return nil
}
