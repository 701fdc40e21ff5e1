package shardjob

import (
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
)

var (
	// ErrStaleEpoch means a worker of a superseded lease term tried to commit.
	ErrStaleEpoch = errors.New("shardjob: stale shard epoch")
	// ErrStaleOffset means a commit would move a checkpoint backwards within
	// one lease term.
	ErrStaleOffset = errors.New("shardjob: stale checkpoint offset")
	// ErrInjectedCrash marks the deterministic crash a caller asks Run for.
	ErrInjectedCrash = errors.New("shardjob: injected crash")
)

// Split assigns each key to shard FNV-1a(key) mod shards. A key always lands
// on the same shard, and each shard keeps the keys in input order, so a
// shard's item list (and with it every offset) is reproducible.
func Split(keys []string, shards int) ([][]string, error) {
	if shards <= 0 {
		return nil, fmt.Errorf("split %d keys: shards must be positive, got %d", len(keys), shards)
	}
	// Count first, then fill shards allocated to their exact size. Hashing
	// twice is cheaper than letting append grow the shards: a growing slice
	// of a million keys is copied about four times over, and that copying
	// cost Split five times what the hashing did (BenchmarkSplit).
	sizes := make([]int, shards)
	for _, k := range keys {
		sizes[ShardOf(k, shards)]++
	}
	out := make([][]string, shards)
	for i, n := range sizes {
		if n > 0 {
			out[i] = make([]string, 0, n)
		}
	}
	for _, k := range keys {
		i := ShardOf(k, shards)
		out[i] = append(out[i], k)
	}
	return out, nil
}

// ShardOf is the shard Split puts key in; shards must be at least 1.
func ShardOf(key string, shards int) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key)) // a hash.Hash never returns an error
	return int(h.Sum32() % uint32(shards))
}

// Checkpoint stores the committed offset of each shard together with the
// lease epoch that committed it.
type Checkpoint struct {
	mu      sync.Mutex
	offsets map[string]int
	epochs  map[string]uint64
}

// NewCheckpoint returns an empty checkpoint store.
func NewCheckpoint() *Checkpoint {
	return &Checkpoint{offsets: make(map[string]int), epochs: make(map[string]uint64)}
}

// Load returns the committed offset of shard, 0 when nothing is committed.
func (c *Checkpoint) Load(shard string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offsets[shard]
}

// Epoch returns the lease epoch of shard's last commit, 0 when none.
func (c *Checkpoint) Epoch(shard string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epochs[shard]
}

// Commit moves shard to offset under epoch. A lower epoch than the last
// commit's is ErrStaleEpoch (fencing); a lower offset within the same epoch
// is ErrStaleOffset; an equal offset is an idempotent no-op. A higher epoch
// may set any offset: the new owner decides where it resumed.
func (c *Checkpoint) Commit(shard string, epoch uint64, offset int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.commit(shard, epoch, offset)
}

// commit is Commit's body; the caller holds c.mu.
func (c *Checkpoint) commit(shard string, epoch uint64, offset int) error {
	cur := c.epochs[shard]
	if epoch < cur {
		return fmt.Errorf("commit %s epoch %d: %w", shard, epoch, ErrStaleEpoch)
	}
	if epoch == cur && offset < c.offsets[shard] {
		return fmt.Errorf("commit %s offset %d < %d: %w", shard, offset, c.offsets[shard], ErrStaleOffset)
	}
	c.epochs[shard] = epoch
	c.offsets[shard] = offset
	return nil
}

// ErrCheckpointMoved is CompareAndCommit finding the checkpoint elsewhere
// than the caller last read it. The lab's, with CompareAndCommit.
var ErrCheckpointMoved = errors.New("shardjob: checkpoint moved since it was read")

// CompareAndCommit is the lab's, not the book's: Commit, only if the shard
// still holds (fromEpoch, fromOffset) — what the caller read. A takeover
// fence reads the checkpoint and commits the same offset under its new
// epoch; as two calls, a zombie's commit can land between them and be
// moved back by the fence. With this the fence's write fails instead
// (ErrCheckpointMoved) and the fence reads again.
func (c *Checkpoint) CompareAndCommit(shard string, fromEpoch uint64, fromOffset int, epoch uint64, offset int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epochs[shard] != fromEpoch || c.offsets[shard] != fromOffset {
		return fmt.Errorf("commit %s: %w", shard, ErrCheckpointMoved)
	}
	return c.commit(shard, epoch, offset)
}

// Sink is the side-effect boundary. It remembers every business key it has
// applied, so an item replayed after a crash is suppressed, not repeated.
type Sink struct {
	mu         sync.Mutex
	seen       map[string]bool
	applied    int
	suppressed int
}

// NewSink returns an empty idempotent sink.
func NewSink() *Sink {
	return &Sink{seen: make(map[string]bool)}
}

// NewSinkFor returns an empty idempotent sink with room for keys keys: the
// same sink, whose map does not grow (and rehash) as it fills. The lab's
// addition: the explorer builds one per schedule, and growing the map was
// a third of a §11.2 schedule's time.
func NewSinkFor(keys int) *Sink {
	return &Sink{seen: make(map[string]bool, keys)}
}

// Apply performs the effect for key once and reports whether it did.
func (s *Sink) Apply(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[key] {
		s.suppressed++
		return false
	}
	s.seen[key] = true
	s.applied++
	return true
}

// Counts returns how many effects were applied and how many suppressed.
func (s *Sink) Counts() (applied, suppressed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applied, s.suppressed
}

// Effects and Progress are the lab's, not the book's: the book's Runner
// holds a *Sink and a *Checkpoint; the lab's holds these interfaces, which
// both satisfy as they are, so that a scenario can hand Run a sink and a
// checkpoint with a fault around them (a worker stopped after its Nth
// effect, a zombie's commit between two of the owner's calls) while Run
// itself stays the book's.
type (
	Effects interface {
		Apply(key string) bool
	}
	Progress interface {
		Load(shard string) int
		Commit(shard string, epoch uint64, offset int) error
	}
)

var (
	_ Effects  = (*Sink)(nil)
	_ Progress = (*Checkpoint)(nil)
)

// Runner works through one shard as the holder of lease Epoch.
type Runner struct {
	Sink        Effects
	CP          Progress
	Epoch       uint64
	CommitEvery int // commit after every CommitEvery items; 0 commits only at the end
}

// Result reports one Run. Attempts counts the items this run touched,
// replays included; Checkpoint is the last offset this run committed (or the
// one it started from).
type Result struct {
	Attempts   int
	Applied    int
	Suppressed int
	Checkpoint int
}

// Run processes items from the shard's committed offset. With crashAfter > 0
// it dies right after its crashAfter-th item, before that item's checkpoint:
// the effect happened, the offset did not move, which is exactly the window
// a rerun must replay. A commit rejected by the checkpoint (a stale epoch)
// stops the run with that error. The commit interval is counted from the
// offset the run resumed at.
func (r *Runner) Run(shard string, items []string, crashAfter int) (Result, error) {
	start := r.CP.Load(shard)
	res := Result{Checkpoint: start}
	for i := start; i < len(items); i++ {
		res.Attempts++
		if r.Sink.Apply(items[i]) {
			res.Applied++
		} else {
			res.Suppressed++
		}
		if crashAfter > 0 && res.Attempts == crashAfter {
			return res, fmt.Errorf("crash after %d attempts at offset %d: %w", res.Attempts, i, ErrInjectedCrash)
		}
		if r.CommitEvery > 0 && (i+1-start)%r.CommitEvery == 0 {
			if err := r.CP.Commit(shard, r.Epoch, i+1); err != nil {
				return res, err
			}
			res.Checkpoint = i + 1
		}
	}
	if err := r.CP.Commit(shard, r.Epoch, len(items)); err != nil {
		return res, err
	}
	res.Checkpoint = len(items)
	return res, nil
}
