package shardjob

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fnv1a is FNV-1a, 32 bits, from its definition (XOR, then multiply).
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// TestShardOfPinned pins ShardOf and Split to exact shards (issue 11: FNV-1
// or a salted hash still passed, and so did the book's shard sizes).
func TestShardOfPinned(t *testing.T) {
	if fnv1a("a") != 0xe40c292c {
		t.Fatalf("fnv1a(\"a\") = %#x, not FNV-1a", fnv1a("a"))
	}
	want3 := []int{0, 1, 2, 0, 2, 0, 1, 2, 1, 2} // key-0..key-9 mod 3, computed outside Go
	want5 := []int{2, 3, 4, 0, 3, 4, 0, 1, 4, 0}
	var keys []string
	for i := range 10 {
		k := fmt.Sprintf("key-%d", i)
		keys = append(keys, k)
		if got := ShardOf(k, 3); got != want3[i] {
			t.Errorf("ShardOf(%q, 3) = %d, want %d", k, got, want3[i])
		}
		if got := ShardOf(k, 5); got != want5[i] {
			t.Errorf("ShardOf(%q, 5) = %d, want %d", k, got, want5[i])
		}
	}
	got, err := Split(keys, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"key-0", "key-3", "key-5"}, {"key-1", "key-6", "key-8"}, {"key-2", "key-4", "key-7", "key-9"}}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("Split shard %d = %v, want %v", i, got[i], want[i])
		}
	}
	for i := range 1000 {
		k := fmt.Sprintf("item-%d", i)
		if ShardOf(k, 11) != int(fnv1a(k)%11) {
			t.Fatalf("ShardOf(%q, 11) is not FNV-1a mod 11", k)
		}
	}
}

// TestCommitBoundariesAfterResume pins the offsets Run commits when it
// resumes from a non-zero checkpoint (issue 11: a run that counted its
// commit interval from offset 0 instead of from where it resumed passed
// every test). Commits come every CommitEvery items of this run, then at
// the end.
func TestCommitBoundariesAfterResume(t *testing.T) {
	items := make([]string, 20)
	for i := range items {
		items[i] = fmt.Sprintf("k%02d", i)
	}
	tests := []struct {
		name        string
		from        int
		every       int
		crashAfter  int
		commits     []int
		checkpoint  int
		attempts    int
		errContains string
	}{
		{"resume at 7, every 5", 7, 5, 0, []int{12, 17, 20}, 20, 13, ""},
		{"resume at 10, every 5", 10, 5, 0, []int{15, 20}, 20, 10, ""},
		{"resume at 3, every 4", 3, 4, 0, []int{7, 11, 15, 19, 20}, 20, 17, ""},
		{"resume at 7, only at the end", 7, 0, 0, []int{20}, 20, 13, ""},
		{"resume at 7, every 5, crash after 8", 7, 5, 8, []int{12}, 12, 8, "at offset 14"},
		{"resume at 19, every 5", 19, 5, 0, []int{20}, 20, 1, ""},
		{"resume at the end", 20, 5, 0, nil, 20, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := NewCheckpoint()
			if tt.from > 0 {
				if err := cp.Commit("s", 1, tt.from); err != nil {
					t.Fatal(err)
				}
			}
			rec := &recording{Checkpoint: cp, from: tt.from}
			r := &Runner{Sink: NewSink(), CP: rec, Epoch: 1, CommitEvery: tt.every}
			res, err := r.Run("s", items, tt.crashAfter)
			if tt.errContains == "" && err != nil {
				t.Fatal(err)
			}
			if tt.errContains != "" && (err == nil || !strings.Contains(err.Error(), tt.errContains)) {
				t.Fatalf("err = %v, want one containing %q", err, tt.errContains)
			}
			commits := rec.moved
			if !slices.Equal(commits, tt.commits) || res.Checkpoint != tt.checkpoint || cp.Load("s") != tt.checkpoint || res.Attempts != tt.attempts {
				t.Fatalf("commits %v checkpoint %d (stored %d) attempts %d; want %v %d %d",
					commits, res.Checkpoint, cp.Load("s"), res.Attempts, tt.commits, tt.checkpoint, tt.attempts)
			}
		})
	}
}

// recording is a checkpoint that notes each commit that moved the offset:
// the final commit repeats the last one when a shard ends on a boundary.
type recording struct {
	*Checkpoint
	from  int
	moved []int
}

func (r *recording) Commit(shard string, epoch uint64, offset int) error {
	if err := r.Checkpoint.Commit(shard, epoch, offset); err != nil {
		return err
	}
	if offset != r.from {
		r.moved = append(r.moved, offset)
		r.from = offset
	}
	return nil
}
