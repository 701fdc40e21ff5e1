package shardjob

import (
	"errors"
	"testing"
)

// TestZombieWindow: the book's Runner.Run writes the new owner's epoch only
// at its first commit. A zombie's commit between the owner's Load and that
// first commit is accepted, and the owner's first commit, carrying the
// higher epoch, then moves the checkpoint back below it. Fencing holds only
// from the owner's first commit on.
func TestZombieWindow(t *testing.T) {
	const shard = "shard-0"
	cp := NewCheckpoint()
	if err := cp.Commit(shard, 1, 20); err != nil { // the zombie's last commit before it stalled
		t.Fatal(err)
	}
	resume := cp.Load(shard) // the owner's Runner.Run, epoch 2, loads 20
	if err := cp.Commit(shard, 1, 50); err != nil {
		t.Fatalf("zombie commit inside the window: %v, want accepted", err)
	}
	if err := cp.Commit(shard, 2, resume+10); err != nil { // the owner's first commit
		t.Fatalf("owner's first commit: %v", err)
	}
	if got := cp.Load(shard); got != 30 {
		t.Fatalf("checkpoint = %d, want 30: the owner's commit moves the zombie's 50 back", got)
	}
	if err := cp.Commit(shard, 1, 60); err == nil {
		t.Fatal("zombie commit after the owner's first commit was accepted")
	}
	t.Logf("zombie-window: resume=%d zombie_commit=50 owner_commit=30 checkpoint=%d", resume, cp.Load(shard))
}

// TestCompareAndCommit: the lab's conditional commit. A zombie's commit
// between a fence's read and its write makes the write fail instead of
// moving the zombie's offset back; read again, the fence succeeds.
func TestCompareAndCommit(t *testing.T) {
	const shard = "shard-0"
	cp := NewCheckpoint()
	if err := cp.Commit(shard, 1, 20); err != nil {
		t.Fatal(err)
	}
	epoch, offset := cp.Epoch(shard), cp.Load(shard) // the fence reads (1, 20)
	if err := cp.Commit(shard, 1, 25); err != nil {  // the zombie commits in between
		t.Fatal(err)
	}
	if err := cp.CompareAndCommit(shard, epoch, offset, 2, offset); !errors.Is(err, ErrCheckpointMoved) {
		t.Fatalf("fence over a moved checkpoint: %v, want ErrCheckpointMoved", err)
	}
	if cp.Load(shard) != 25 || cp.Epoch(shard) != 1 {
		t.Fatalf("a failed compare-and-commit changed the checkpoint to (%d, %d)", cp.Epoch(shard), cp.Load(shard))
	}
	epoch, offset = cp.Epoch(shard), cp.Load(shard)
	if err := cp.CompareAndCommit(shard, epoch, offset, 2, offset); err != nil {
		t.Fatalf("fence read again: %v", err)
	}
	if err := cp.Commit(shard, 1, 30); !errors.Is(err, ErrStaleEpoch) {
		t.Fatalf("zombie after the fence: %v, want ErrStaleEpoch", err)
	}
}
