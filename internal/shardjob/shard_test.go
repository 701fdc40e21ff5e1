package shardjob

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// orderKeys returns order-0 … order-(n-1), the book's job input.
func orderKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprint("order-", i)
	}
	return keys
}

// TestRunCrashResume: shard 0 dies after 37 items with its checkpoint at 30;
// the rerun replays the 7 items in between and the sink suppresses them, so
// every key is applied exactly once across all shards.
func TestRunCrashResume(t *testing.T) {
	const shardCount, crashAfter = 4, 37
	keys := orderKeys(1000)
	shards, err := Split(keys, shardCount)
	if err != nil {
		t.Fatal(err)
	}
	if len(shards) != shardCount {
		t.Fatalf("Split made %d shards, want %d", len(shards), shardCount)
	}
	for i, s := range shards {
		if len(s) != 250 {
			t.Fatalf("shard %d has %d keys, want 250", i, len(s))
		}
		t.Logf("shard=%d keys=%d", i, len(s))
	}

	sink, cp := NewSink(), NewCheckpoint()
	r := &Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: 10}

	crashed, err := r.Run("shard-0", shards[0], crashAfter)
	if !errors.Is(err, ErrInjectedCrash) {
		t.Fatalf("crash run: err=%v, want ErrInjectedCrash", err)
	}
	// The crash came after item 37's effect but before any commit past 30.
	if crashed.Attempts != crashAfter || crashed.Checkpoint != 30 || cp.Load("shard-0") != 30 {
		t.Fatalf("crash run = %+v, stored checkpoint %d; want 37 attempts, checkpoint 30", crashed, cp.Load("shard-0"))
	}
	resumed, err := r.Run("shard-0", shards[0], 0)
	if err != nil {
		t.Fatalf("rerun shard-0: %v", err)
	}
	replay := crashed.Attempts - crashed.Checkpoint
	if resumed.Attempts != len(shards[0])-30 || resumed.Suppressed != replay || resumed.Checkpoint != len(shards[0]) {
		t.Fatalf("rerun = %+v, want %d attempts from 30, %d suppressed", resumed, len(shards[0])-30, replay)
	}
	for i := 1; i < shardCount; i++ {
		name := fmt.Sprint("shard-", i)
		res, err := r.Run(name, shards[i], 0)
		if err != nil || res.Applied != len(shards[i]) || res.Suppressed != 0 || cp.Load(name) != len(shards[i]) {
			t.Fatalf("%s = %+v, %v; checkpoint %d", name, res, err, cp.Load(name))
		}
	}

	applied, suppressed := sink.Counts()
	if len(shards[0]) != 250 || crashed.Attempts != 37 || crashed.Checkpoint != 30 || replay != 7 ||
		applied != len(keys) || suppressed != replay {
		t.Fatalf("got shard0=%d crash_attempts=%d checkpoint=%d replay=%d applied=%d suppressed=%d",
			len(shards[0]), crashed.Attempts, crashed.Checkpoint, replay, applied, suppressed)
	}
	t.Logf("shard0=%d crash_attempts=%d checkpoint=%d replay=%d applied=%d suppressed=%d",
		len(shards[0]), crashed.Attempts, crashed.Checkpoint, replay, applied, suppressed)
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name    string
		keys    []string
		shards  int
		wantErr string
	}{
		{"zero shards", []string{"a"}, 0, "split 1 keys: shards must be positive, got 0"},
		{"negative shards", []string{"a", "b"}, -1, "split 2 keys: shards must be positive, got -1"},
		{"no keys", nil, 3, ""},
		{"one shard", []string{"c", "a", "b"}, 1, ""},
		{"more shards than keys", []string{"a", "b"}, 8, ""},
		{"book keys", orderKeys(100), 4, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Split(tt.keys, tt.shards)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || got != nil {
					t.Fatalf("Split = %v, %v; want nil, %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || len(got) != tt.shards {
				t.Fatalf("Split = %d shards, %v; want %d, nil", len(got), err, tt.shards)
			}
			// Inside a shard the keys keep their input order, so a shard's
			// offsets mean the same thing on every run.
			for i, shard := range got {
				want := slices.DeleteFunc(slices.Clone(tt.keys), func(k string) bool { return ShardOf(k, tt.shards) != i })
				if !slices.Equal(shard, want) {
					t.Fatalf("shard %d = %v, want %v", i, shard, want)
				}
			}
		})
	}
}

func TestCommit(t *testing.T) {
	type step struct {
		epoch   uint64
		offset  int
		wantErr error
	}
	tests := []struct {
		name       string
		steps      []step
		wantOffset int
		wantEpoch  uint64
	}{
		{"first commit", []step{{1, 10, nil}}, 10, 1},
		{"forward", []step{{1, 10, nil}, {1, 20, nil}}, 20, 1},
		{"equal offset is idempotent", []step{{1, 10, nil}, {1, 10, nil}}, 10, 1},
		{"lower offset same epoch", []step{{1, 20, nil}, {1, 10, ErrStaleOffset}}, 20, 1},
		// A zombie of epoch 1 must not move the offset the owner of epoch 2
		// committed, not even forwards.
		{"lower epoch", []step{{2, 20, nil}, {1, 30, ErrStaleEpoch}}, 20, 2},
		{"lower epoch lower offset", []step{{2, 20, nil}, {1, 10, ErrStaleEpoch}}, 20, 2},
		{"higher epoch may go back", []step{{1, 20, nil}, {2, 5, nil}}, 5, 2},
		{"epoch zero is the start", []step{{0, 0, nil}, {0, 3, nil}}, 3, 0},
		{"negative offset at start", []step{{0, -1, ErrStaleOffset}}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := NewCheckpoint()
			for i, s := range tt.steps {
				before := cp.Load("s")
				err := cp.Commit("s", s.epoch, s.offset)
				if !errors.Is(err, s.wantErr) || (s.wantErr == nil) != (err == nil) {
					t.Fatalf("step %d Commit(e%d, %d) = %v, want %v", i, s.epoch, s.offset, err, s.wantErr)
				}
				if err != nil && cp.Load("s") != before {
					t.Fatalf("step %d: rejected commit moved the offset %d -> %d", i, before, cp.Load("s"))
				}
			}
			if cp.Load("s") != tt.wantOffset || cp.Epoch("s") != tt.wantEpoch {
				t.Fatalf("offset=%d epoch=%d, want %d and %d", cp.Load("s"), cp.Epoch("s"), tt.wantOffset, tt.wantEpoch)
			}
		})
	}
}

func TestLoadUnknownShard(t *testing.T) {
	cp := NewCheckpoint()
	if err := cp.Commit("shard-1", 1, 7); err != nil {
		t.Fatal(err)
	}
	if got, epoch := cp.Load("shard-2"), cp.Epoch("shard-2"); got != 0 || epoch != 0 {
		t.Fatalf("unknown shard: offset=%d epoch=%d, want 0 and 0", got, epoch)
	}
}

func TestRunCases(t *testing.T) {
	items := orderKeys(10)
	tests := []struct {
		name        string
		prior       func(*Checkpoint) // state left by earlier owners
		epoch       uint64
		commitEvery int
		crashAfter  int
		wantErr     error
		want        Result
		wantStored  int
	}{
		{"clean run", nil, 1, 3, 0, nil, Result{Attempts: 10, Applied: 10, Checkpoint: 10}, 10},
		{"commit every 0 crash keeps 0", nil, 1, 0, 7, ErrInjectedCrash, Result{Attempts: 7, Applied: 7, Checkpoint: 0}, 0},
		{"commit every 0 commits at the end", nil, 1, 0, 0, nil, Result{Attempts: 10, Applied: 10, Checkpoint: 10}, 10},
		// Crashing on a commit boundary loses that commit: the effect of
		// item 6 happened, its checkpoint did not.
		{"crash on a commit boundary", nil, 1, 3, 6, ErrInjectedCrash, Result{Attempts: 6, Applied: 6, Checkpoint: 3}, 3},
		{"crash on the last item", nil, 1, 3, 10, ErrInjectedCrash, Result{Attempts: 10, Applied: 10, Checkpoint: 9}, 9},
		{"crashAfter beyond the items", nil, 1, 3, 50, nil, Result{Attempts: 10, Applied: 10, Checkpoint: 10}, 10},
		{"resumes from the checkpoint", func(cp *Checkpoint) { _ = cp.Commit("s", 1, 4) }, 1, 3, 0, nil,
			Result{Attempts: 6, Applied: 6, Checkpoint: 10}, 10},
		{"already done", func(cp *Checkpoint) { _ = cp.Commit("s", 1, 10) }, 1, 3, 0, nil,
			Result{Checkpoint: 10}, 10},
		// The lease moved to epoch 2; the old worker is fenced at its first
		// commit, having done 3 effects the sink must deduplicate later.
		{"stale epoch stops at first commit", func(cp *Checkpoint) { _ = cp.Commit("s", 2, 0) }, 1, 3, 0, ErrStaleEpoch,
			Result{Attempts: 3, Applied: 3, Checkpoint: 0}, 0},
		// With no intermediate commits the zombie is only fenced at the end.
		{"stale epoch commit every 0", func(cp *Checkpoint) { _ = cp.Commit("s", 2, 0) }, 1, 0, 0, ErrStaleEpoch,
			Result{Attempts: 10, Applied: 10, Checkpoint: 0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := NewCheckpoint()
			if tt.prior != nil {
				tt.prior(cp)
			}
			r := &Runner{Sink: NewSink(), CP: cp, Epoch: tt.epoch, CommitEvery: tt.commitEvery}
			got, err := r.Run("s", items, tt.crashAfter)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want || cp.Load("s") != tt.wantStored {
				t.Fatalf("Run = %+v, stored %d; want %+v, stored %d", got, cp.Load("s"), tt.want, tt.wantStored)
			}
		})
	}
}

func TestSinkSuppressesRepeats(t *testing.T) {
	s := NewSink()
	for i, k := range []string{"a", "b", "a", "a", "c"} {
		want := i != 2 && i != 3
		if got := s.Apply(k); got != want {
			t.Fatalf("Apply #%d (%s) = %v, want %v", i, k, got, want)
		}
	}
	if applied, suppressed := s.Counts(); applied != 3 || suppressed != 2 {
		t.Fatalf("applied=%d suppressed=%d, want 3 and 2", applied, suppressed)
	}
}

// TestRunShardsInParallel: shards share one Sink and one Checkpoint from
// many goroutines, some crashing and resuming; -race must stay quiet and
// every key lands once.
func TestRunShardsInParallel(t *testing.T) {
	const shardCount = 8
	keys := orderKeys(2000)
	shards, err := Split(keys, shardCount)
	if err != nil {
		t.Fatal(err)
	}
	sink, cp := NewSink(), NewCheckpoint()
	replays := make([]int, shardCount) // one slot per goroutine: no shared write
	var wg sync.WaitGroup
	for i, items := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: 7}
			name := fmt.Sprint("shard-", i)
			if i%2 == 0 { // every other shard crashes once
				crashed, err := r.Run(name, items, 11+i)
				if !errors.Is(err, ErrInjectedCrash) {
					t.Errorf("%s crash run: %v", name, err)
					return
				}
				replays[i] = crashed.Attempts - crashed.Checkpoint
			}
			if _, err := r.Run(name, items, 0); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	wg.Wait()
	want := 0
	for i, items := range shards {
		if got := cp.Load(fmt.Sprint("shard-", i)); got != len(items) {
			t.Fatalf("shard-%d checkpoint = %d, want %d", i, got, len(items))
		}
		want += replays[i]
	}
	if applied, suppressed := sink.Counts(); applied != len(keys) || suppressed != want {
		t.Fatalf("applied=%d suppressed=%d, want %d and %d", applied, suppressed, len(keys), want)
	}
}

// TestSplitIsAStablePartition: every key lands in exactly one shard, the
// one ShardOf names, in input order, and a second Split agrees.
func TestSplitIsAStablePartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfDistinct(rapid.String(), rapid.ID).Draw(t, "keys")
		n := rapid.IntRange(1, 16).Draw(t, "shards")
		got, err := Split(keys, n)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Split(keys, n)
		if len(got) != n || len(again) != n {
			t.Fatalf("got %d and %d shards, want %d", len(got), len(again), n)
		}
		var flat []string
		for i := range got {
			if !slices.Equal(got[i], again[i]) {
				t.Fatalf("shard %d differs between calls: %q vs %q", i, got[i], again[i])
			}
			for _, k := range got[i] {
				if ShardOf(k, n) != i {
					t.Fatalf("key %q in shard %d, ShardOf says %d", k, i, ShardOf(k, n))
				}
			}
			flat = append(flat, got[i]...)
		}
		// Same multiset: sorted copies match, so nothing lost or doubled.
		want := slices.Clone(keys)
		slices.Sort(want)
		slices.Sort(flat)
		if !slices.Equal(flat, want) {
			t.Fatalf("shards hold %q, input was %q", flat, want)
		}
	})
}

// TestCrashAnywhereAppliesOnce is the central claim of 11.2: whatever item
// the worker dies on and however often it commits, the rerun replays
// exactly the items between the checkpoint and the crash, and the sink
// turns every replay into a suppression.
func TestCrashAnywhereAppliesOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(t, "items")
		items := orderKeys(n)
		every := rapid.IntRange(0, n+1).Draw(t, "commitEvery")
		crashAt := rapid.IntRange(1, n).Draw(t, "crashAt")

		sink, cp := NewSink(), NewCheckpoint()
		r := &Runner{Sink: sink, CP: cp, Epoch: 1, CommitEvery: every}
		crashed, err := r.Run("s", items, crashAt)
		if !errors.Is(err, ErrInjectedCrash) || crashed.Attempts != crashAt {
			t.Fatalf("crash run = %+v, %v; want %d attempts and ErrInjectedCrash", crashed, err, crashAt)
		}
		// Item crashAt is never committed, so the checkpoint is the last
		// multiple of every strictly below crashAt.
		wantCP := 0
		if every > 0 {
			wantCP = (crashAt - 1) / every * every
		}
		if crashed.Checkpoint != wantCP || cp.Load("s") != wantCP {
			t.Fatalf("checkpoint = %d (stored %d), want %d", crashed.Checkpoint, cp.Load("s"), wantCP)
		}

		resumed, err := r.Run("s", items, 0)
		if err != nil {
			t.Fatalf("rerun: %v", err)
		}
		replay := crashed.Attempts - crashed.Checkpoint
		if resumed.Attempts != n-wantCP || resumed.Suppressed != replay || resumed.Applied != n-crashAt {
			t.Fatalf("rerun = %+v, want %d attempts, %d suppressed, %d applied", resumed, n-wantCP, replay, n-crashAt)
		}
		if applied, suppressed := sink.Counts(); applied != n || suppressed != replay || cp.Load("s") != n {
			t.Fatalf("applied=%d suppressed=%d checkpoint=%d, want %d, %d, %d", applied, suppressed, cp.Load("s"), n, replay, n)
		}
	})
}
