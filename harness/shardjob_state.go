package harness

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A §11.2 run seen from outside, between two steps: what a state page of
// archlab serve shows, and what tells a step that changed something from
// one that changed nothing.

// Shards are the shards of the split, by name, in order.
func (s *Shardjob) Shards() []string {
	out := make([]string, len(s.shards))
	for i := range out {
		out[i] = ShardName(i)
	}
	return out
}

// ShardKeys is how many keys shard i holds.
func (s *Shardjob) ShardKeys(i int) int { return len(s.shards[i]) }

// Checkpoint is a shard's committed offset and the epoch that committed
// it.
func (s *Shardjob) Checkpoint(shard string) (offset int, epoch uint64) {
	return s.cp.Load(shard), s.cp.Epoch(shard)
}

// Owner is the highest epoch that ran or fenced: the lease holder. An
// older epoch's worker is a zombie.
func (s *Shardjob) Owner() uint64 { return s.maxEpoch }

// Reached is the offset epoch's worker reached, which its zombie commits;
// ok is false when that epoch never ran.
func (s *Shardjob) Reached(epoch uint64) (offset int, ok bool) {
	offset, ok = s.reached[epoch]
	return offset, ok
}

// Crashed reports whether a run of shard crashed: a later run without an
// epoch of its own resumes it (the trace says so).
func (s *Shardjob) Crashed(shard string) bool { return s.crashed[shard] }

// Snapshot is the run's state as one canonical text: each shard's
// checkpoint (offset and epoch), the keys the sink applied, the lease
// holder, where each epoch's worker got, the shards whose worker crashed
// and the invariants broken so far; not the counts of attempts or
// suppressed duplicates, which a step that changes nothing still raises.
func (s *Shardjob) Snapshot() string {
	var b strings.Builder
	for _, shard := range s.Shards() {
		off, ep := s.Checkpoint(shard)
		fmt.Fprintf(&b, "%s=%d@e%d ", shard, off, ep)
	}
	fmt.Fprintf(&b, "applied=%d owner=e%d reached=", s.Applied(), s.maxEpoch)
	for _, e := range slices.Sorted(maps.Keys(s.reached)) {
		fmt.Fprintf(&b, "e%d:%d,", e, s.reached[e])
	}
	b.WriteString(" crashed=")
	for _, shard := range slices.Sorted(maps.Keys(s.crashed)) {
		if s.crashed[shard] {
			b.WriteString(shard + ",")
		}
	}
	fmt.Fprintf(&b, " moved-back=%v zombie-moved=%v", s.movedBack, s.zombieMoved > 0)
	return b.String()
}
