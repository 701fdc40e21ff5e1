package exercises

import (
	"fmt"
	"sync"

	"archlab/harness"
	"archlab/internal/shardjob"
)

// Runner and Checkpoint are the book's, written with a countdown to the
// next commit: a right answer written apart from the book's.
type Runner struct {
	Sink        shardjob.Effects
	CP          shardjob.Progress
	Epoch       uint64
	CommitEvery int
}

func (r *Runner) Run(shard string, items []string, crashAfter int) (shardjob.Result, error) {
	start := r.CP.Load(shard)
	res := shardjob.Result{Checkpoint: start}
	next := r.CommitEvery
	for i := start; i < len(items); i++ {
		res.Attempts++
		if r.Sink.Apply(items[i]) {
			res.Applied++
		} else {
			res.Suppressed++
		}
		if crashAfter > 0 && res.Attempts == crashAfter {
			return res, fmt.Errorf("crash at offset %d: %w", i, shardjob.ErrInjectedCrash)
		}
		if next--; r.CommitEvery > 0 && next == 0 {
			if err := r.CP.Commit(shard, r.Epoch, i+1); err != nil {
				return res, err
			}
			res.Checkpoint, next = i+1, r.CommitEvery
		}
	}
	if err := r.CP.Commit(shard, r.Epoch, len(items)); err != nil {
		return res, err
	}
	res.Checkpoint = len(items)
	return res, nil
}

type Checkpoint struct {
	mu      sync.Mutex
	offsets map[string]int
	epochs  map[string]uint64
}

func NewCheckpoint() *Checkpoint {
	return &Checkpoint{offsets: map[string]int{}, epochs: map[string]uint64{}}
}

func (c *Checkpoint) Load(shard string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offsets[shard]
}

func (c *Checkpoint) Epoch(shard string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epochs[shard]
}

func (c *Checkpoint) Commit(shard string, epoch uint64, offset int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch cur := c.epochs[shard]; {
	case epoch < cur:
		return fmt.Errorf("epoch %d < %d: %w", epoch, cur, shardjob.ErrStaleEpoch)
	case epoch == cur && offset < c.offsets[shard]:
		return fmt.Errorf("offset %d < %d: %w", offset, c.offsets[shard], shardjob.ErrStaleOffset)
	}
	c.epochs[shard], c.offsets[shard] = epoch, offset
	return nil
}

func runner() *harness.ShardMechanism {
	return &harness.ShardMechanism{
		NewCheckpoint: func() harness.Checkpoint { return NewCheckpoint() },
		NewRunner: func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, commitEvery int) harness.ShardRunner {
			return &Runner{Sink: sink, CP: cp, Epoch: epoch, CommitEvery: commitEvery}
		},
	}
}
