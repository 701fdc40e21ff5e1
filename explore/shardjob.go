package explore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"archlab/harness"
)

// This scope asks §11.2's question of every crash: one shard of Keys items
// (order-0 …) is worked by a Runner under lease epoch 1 that commits its
// checkpoint every C items and crashes right after K items, before their
// commit (K = 0: no crash). A new owner takes the lease under epoch 2 and
// reruns the shard from the checkpoint. The crashed worker is not dead but
// a zombie: it wakes and commits the offset it reached, K, at one moment of
// the new owner's run: right after the owner's first call to the
// checkpoint, before it has written anything (zombie step 0), or right
// after the owner's j-th commit that moved the checkpoint. Every K in
// 0..Keys, every C in 1..Keys and every zombie step is a schedule. A
// schedule breaks an invariant only where something is harmed: a key
// applied twice or never; the checkpoint moved back; a zombie moving the
// checkpoint (a zombie commit that changes nothing is harmless); the rerun
// replaying other than the items between where it resumed and the crash.
//
// Two ways to take over run each schedule through the §11.2 harness
// (harness.Shardjob, whose Run, Fence and zombie commit are the drills'):
// fence-at-takeover raises the fence as it takes over (harness Fence: the
// new epoch committed at the resume offset, conditionally), fence-at-
// first-commit just runs the book's Runner.Run, so the checkpoint only
// learns the new epoch at the owner's first commit. The zombie step before
// that commit is the window the enumeration finds.

// ShardjobScope bounds the §11.2 exploration.
type ShardjobScope struct {
	Keys int // items in the shard
	// Fails adds the failing sink (sink-fails-at, at every item) to the
	// first worker's faults. The book's loop cannot hear it (Sink.Apply
	// has no error) and loses the item under either takeover, so the
	// default scope, which compares the takeovers, leaves it out; the
	// student's shard loop, whose Apply returns harness.ErrSinkFailed, is
	// checked with it (StudentShardjobScope).
	Fails bool
}

// DefaultShardjob is the scope `archlab explore shardjob` explores by
// default.
var DefaultShardjob = ShardjobScope{Keys: 30}

// Bounds of the shardjob scope: keys up to MaxShardjobKeys when sampling;
// enumeration stops at ShardjobEnumerateLimit schedules (about 220 keys),
// because each schedule runs the whole shard.
const (
	MaxShardjobKeys               = 10_000
	ShardjobEnumerateLimit uint64 = 250_000
)

var shardjobInvariants = []string{"not-exactly-once", "replay-mismatch", "moved-back", "zombie-moved"}

const (
	brokeNotOnce uint8 = 1 << iota
	brokeReplay
	brokeCheckpointBack
	brokeZombie
)

const (
	fenceAtTakeover = iota
	fenceAtFirstCommit
)

var shardjobStrategies = []bookStrategy{
	{"fence-at-takeover", true},
	{"fence-at-first-commit", false},
}

const shardName = "shard-0"

// strategyName names strategy k: the student's loop, or the book's with
// one of the fences.
func (sp *shardSpace) strategyName(k int) string {
	if sp.students != nil {
		return harness.Student
	}
	return shardjobStrategies[k].name
}

// shardSchedule is one commit interval, a stop of the first worker (a row
// of §11.2's fault table, harness.ShardFaults, and its count; row 0: no
// stop) and, after a stop, the zombie row and step of the rerun.
type shardSchedule struct {
	c, k, z      int32
	stop, zombie uint8
}

// String is the schedule's canonical one-line form, in the run verb's
// words: "commit-every=2 crash-after-commit=1 zombie-ahead-at=0".
func (s *shardSchedule) String() string {
	if s.stop == 0 {
		return fmt.Sprintf("commit-every=%d no-crash", s.c)
	}
	return fmt.Sprintf("commit-every=%d %s=%d %s=%d", s.c, harness.ShardFaults[s.stop].Name, s.k,
		harness.ShardFaults[s.zombie].Name, s.z)
}

// The explorer's rows of the table: the stops it gives the first worker,
// the zombies it gives the rerun.
var (
	shardStops   = harness.ShardStops(true)
	shardZombies = harness.ShardZombies(true)
)

// stopPoints is how many counts a stop row has in a run of the book's
// Runner.Run over n items from offset 0, committing every c: one per
// call of the row's kind it makes (n applies; a commit every c items and
// one at the end; one load). A failing sink's row strikes an apply.
func stopPoints(row uint8, n, c int) int {
	switch harness.ShardFaults[row].After {
	case harness.CallCommit:
		return n/c + 1
	case harness.CallLoad:
		return 1
	}
	return n
}

// resumeAt is where a rerun after the first worker's stop resumes and how
// many commits that move the checkpoint it makes: the checkpoint the stop
// left. After its k-th Apply, before that item's commit: the last multiple
// of c below k; so too after the sink fails its k-th item, for a loop that
// stops there (one that goes on has no rerun). After its k-th commit: k·c, or n after the last. After its
// load: 0.
func resumeAt(n, c int, row uint8, k int) (checkpoint, commits int) {
	switch harness.ShardFaults[row].After {
	case harness.CallCommit:
		checkpoint = min(k*c, n)
	case harness.CallLoad:
		checkpoint = 0
	default:
		checkpoint = (k - 1) / c * c
	}
	return checkpoint, (n - checkpoint + c - 1) / c
}

type shardSpace struct {
	// students, when set, runs the student's shard loop instead of
	// shardjob.Runner (archlab check).
	students *harness.Students
	n        int
	stops    []int     // the first worker's rows: shardStops, and the failing sink's with Fails
	perC     []uint64  // schedules per commit interval, index c
	wC       []float64 // the same, for sample
}

func newShardSpace(sc ShardjobScope) *shardSpace {
	sp := &shardSpace{n: sc.Keys, stops: shardStops, perC: make([]uint64, sc.Keys+1), wC: make([]float64, sc.Keys+1)}
	if sc.Fails {
		sp.stops = append(slices.Clone(shardStops), harness.ShardFails()...)
	}
	for c := 1; c <= sp.n; c++ {
		total := uint64(1) // no crash
		for _, row := range sp.stops {
			for k := 1; k <= stopPoints(uint8(row), sp.n, c); k++ {
				_, j := resumeAt(sp.n, c, uint8(row), k)
				total += uint64(len(shardZombies)) * uint64(j+1)
			}
		}
		sp.perC[c], sp.wC[c] = total, float64(total)
	}
	return sp
}

func (sp *shardSpace) size() uint64 {
	var total uint64
	for _, n := range sp.perC {
		total = addSat(total, n)
	}
	return total
}

// each enumerates by commit interval, then stop row and count, then zombie
// row and step.
func (sp *shardSpace) each(yield func(shardSchedule) bool) {
	for c := 1; c <= sp.n; c++ {
		if !yield(shardSchedule{c: int32(c)}) {
			return
		}
		for _, row := range sp.stops {
			for k := 1; k <= stopPoints(uint8(row), sp.n, c); k++ {
				_, j := resumeAt(sp.n, c, uint8(row), k)
				for _, zr := range shardZombies {
					for z := 0; z <= j; z++ {
						if !yield(shardSchedule{c: int32(c), stop: uint8(row), k: int32(k), zombie: uint8(zr), z: int32(z)}) {
							return
						}
					}
				}
			}
		}
	}
}

// sample draws c weighted by its schedules, then one of them uniformly.
func (sp *shardSpace) sample(r *rand.Rand) shardSchedule {
	c := pick(r, sp.wC)
	u := r.Uint64N(sp.perC[c])
	if u == 0 {
		return shardSchedule{c: int32(c)}
	}
	u--
	zr := uint64(len(shardZombies))
	for _, row := range sp.stops {
		for k := 1; k <= stopPoints(uint8(row), sp.n, c); k++ {
			_, j := resumeAt(sp.n, c, uint8(row), k)
			block := zr * uint64(j+1)
			if u < block {
				return shardSchedule{c: int32(c), stop: uint8(row), k: int32(k),
					zombie: uint8(shardZombies[u/uint64(j+1)]), z: int32(u % uint64(j+1))}
			}
			u -= block
		}
	}
	panic("shardSpace.sample: u past the schedules of c")
}

// length is a schedule's length, by which the shortest counterexample is
// chosen: the stop's count and the zombie's step.
func (s *shardSchedule) length() int { return int(s.k + s.z) }

// ReplayPoint is one commit interval's cost, measured on fence-at-takeover:
// the commits of a run without a crash, and the items a rerun replays after
// a crash after each K-th item (for the zombie's first row and step only,
// so each crash counts once).
type ReplayPoint struct {
	CommitEvery int
	Commits     int    // commits of a clean run; -1 when a sample missed it
	Crashes     uint64 // crash points measured
	ReplaySum   uint64
	ReplayMax   int
}

// Shardjob runs every (commit interval, crash point, zombie step) of the
// scope, or a sample, against both ways to take over a shard.
func Shardjob(ctx context.Context, sc ShardjobScope, o Options) (*Report, error) {
	if err := checkParam("keys", sc.Keys, 1, MaxShardjobKeys); err != nil {
		return nil, err
	}
	if err := enumerateOnly(o); err != nil {
		return nil, err
	}
	sp := newShardSpace(sc)
	if err := checkSize(o, sp.size(), ShardjobEnumerateLimit); err != nil {
		return nil, err
	}
	t, n, err := walk(ctx, sp, sp.size(), o, func() *shardTally { return newShardTally(sp) })
	if err != nil {
		return nil, err
	}
	rep, err := assemble(&harness.ShardjobSection, walked[shardSchedule]{scope: []Param{{"keys", sc.Keys}}, o: o, engine: EngineEnumerate,
		space: sp.size(), n: n, how: section[shardSchedule]{invariants: shardjobInvariants, schedule: (*shardSchedule).String, file: shardjobFile()},
		runs: numbered(shardjobStrategies, t.st[:], sp.outcome, sp.run)})
	if err != nil {
		return nil, err
	}
	rep.Replay = t.replay[1:]
	return rep, nil
}

type shardTally struct {
	sp     *shardSpace
	st     [2]strategyTally[shardSchedule]
	replay []ReplayPoint // index c
}

func newShardTally(sp *shardSpace) *shardTally {
	t := &shardTally{sp: sp, replay: make([]ReplayPoint, sp.n+1)}
	for c := range t.replay {
		t.replay[c] = ReplayPoint{CommitEvery: c, Commits: -1}
	}
	return t
}

func (t *shardTally) add(index uint64, s *shardSchedule) error {
	for k := range t.st {
		res, err := t.sp.run(k, s, nil, nil)
		if err != nil {
			return err
		}
		t.st[k].record(s.length(), index, s, res.broken)
		if k != fenceAtTakeover {
			continue
		}
		p := &t.replay[s.c]
		switch {
		case s.stop == 0:
			p.Commits = res.commits
		case s.z == 0 && s.stop == uint8(shardStops[0]) && s.zombie == uint8(shardZombies[0]):
			p.Crashes++
			p.ReplaySum += uint64(res.replay)
			p.ReplayMax = max(p.ReplayMax, res.replay)
		}
	}
	return nil
}

func (t *shardTally) merge(o *shardTally) {
	for k := range t.st {
		t.st[k].merge(&o.st[k])
	}
	for c := range t.replay {
		p, op := &t.replay[c], o.replay[c]
		p.Commits = max(p.Commits, op.Commits)
		p.Crashes += op.Crashes
		p.ReplaySum += op.ReplaySum
		p.ReplayMax = max(p.ReplayMax, op.ReplayMax)
	}
}

// shardResult is what one run observed.
type shardResult struct {
	broken           uint8
	replay           int // items the rerun found already applied
	reached, resumed int // where the crashed worker got, where the rerun resumed
	commits          int // the first worker's commits
	applied          int
	zombieFrom       int // the checkpoint a zombie moved, and where to
	zombieTo         int
}

// shardjobFile is how a §11.2 counterexample is written as a drill file:
// its counters and one check per invariant.
func shardjobFile() drillFile {
	return drillFile{counters: []string{"applied", "keys", "moved_back", "zombie_moved"},
		checks: []check{{"exactly-once", "applied == keys", "not-exactly-once"},
			{"replay-matches", "rerun.suppressed == max(0, first.reached - rerun.from)", "replay-mismatch"},
			{"never-back", "!moved_back", "moved-back"}, {"zombie-never-moves", "zombie_moved == 0", "zombie-moved"}}}
}

// outcome is the end of a counterexample: "zombie commit 1 accepted,
// replayed 0, not 1−0".
func (sp *shardSpace) outcome(strategy int, s *shardSchedule) ([]harness.Msg, error) {
	res, err := sp.run(strategy, s, nil, nil)
	if err != nil {
		return nil, err
	}
	var out []harness.Msg
	if res.broken&brokeZombie != 0 {
		out = append(out, harness.M("explore.outcome.zombie-moved", res.zombieFrom, res.zombieTo))
	}
	if res.broken&brokeReplay != 0 {
		out = append(out, harness.M("explore.outcome.replay-mismatch", res.replay, res.reached, res.resumed))
	}
	if res.broken&brokeCheckpointBack != 0 {
		out = append(out, harness.M("explore.outcome.checkpoint-back"))
	}
	if res.broken&brokeNotOnce != 0 {
		out = append(out, harness.M("explore.outcome.not-exactly-once", res.applied, sp.n))
	}
	if len(out) == 0 {
		out = append(out, harness.M("explore.outcome.ok"))
	}
	return out, nil
}

// run plays one schedule through the harness: split the keys into one
// shard, run it under epoch 1 with the schedule's crash; after a crash,
// fence the takeover (fence-at-takeover only) and rerun under epoch 2 while
// the epoch-1 zombie commits at the schedule's step. The harness checks the
// checkpoint after every commit.
func (sp *shardSpace) run(strategy int, s *shardSchedule, rec *harness.Recorder, tp *tape) (shardResult, error) {
	var res shardResult
	c, k, z := int(s.c), int(s.k), int(s.z)
	stop, zombie := harness.ShardFaults[s.stop].Name, harness.ShardFaults[s.zombie].Name
	h := harness.NewShardjob(rec)
	if sp.students != nil { // the student's loop as both workers; no harness fence
		h = harness.NewStudentShardjob(sp.students, rec)
	}
	if tp != nil {
		tp.h = h
		tp.say("split %d 1", sp.n)
	}
	if err := h.Split(sp.n, 1); err != nil {
		return res, err
	}
	if tp != nil {
		if s.stop != 0 {
			tp.say("run %s epoch=1 every=%d %s=%d -> first", shardName, c, stop, k)
		} else {
			tp.say("run %s epoch=1 every=%d -> first", shardName, c)
		}
	}
	r := harness.Run{Shard: shardName, Epoch: 1, Every: c, Stop: int(s.stop), StopAt: k, Named: true}
	if harness.ShardFaults[s.stop].Fails {
		r.Stop, r.StopAt, r.Fail, r.FailAt = 0, 0, int(s.stop), k
	}
	first, err := h.Run(r)
	if err != nil {
		return res, drift(sp.strategyName(strategy), fmt.Errorf("%s: first run: %w", s, err))
	}
	if sp.students == nil && first.Crashed != (s.stop != 0) {
		return res, drift(sp.strategyName(strategy), fmt.Errorf("%s: first run crashed=%v", s, first.Crashed))
	}
	res.commits, res.reached = first.Commits, first.Reached
	if first.Crashed {
		if strategy == fenceAtTakeover {
			if tp != nil {
				tp.say("fence %s epoch=2", shardName)
			}
			if err := h.Fence(shardName, 2); err != nil {
				return res, drift(sp.strategyName(strategy), fmt.Errorf("%s: take-over fence: %w", s, err))
			}
		}
		if tp != nil {
			tp.say("run %s epoch=2 every=%d %s=%d -> rerun", shardName, c, zombie, z)
		}
		rerun, err := h.Run(harness.Run{Shard: shardName, Epoch: 2, Every: c, Zombie: int(s.zombie), ZombieAt: z, Named: true})
		if err != nil {
			return res, drift(sp.strategyName(strategy), fmt.Errorf("%s: rerun: %w", s, err))
		}
		// The rerun replays what the crashed worker applied past where
		// the rerun resumed: no more (it resumed too early), no fewer.
		res.replay, res.resumed = rerun.Suppressed, rerun.From
		if res.replay != max(0, first.Reached-rerun.From) {
			res.broken |= brokeReplay
		}
	} else if tp != nil {
		tp.skip["replay-matches"] = true // no rerun, no replay to check
	}
	res.applied = h.Applied()
	if res.applied != sp.n {
		res.broken |= brokeNotOnce
	}
	if h.MovedBack() {
		res.broken |= brokeCheckpointBack
	}
	if from, to, moved := h.ZombieMove(); moved {
		res.broken |= brokeZombie
		res.zombieFrom, res.zombieTo = from, to
	}
	if rec != nil {
		rec.Phase(harness.Verdict)
		h.Count()
		h.ReadCheckpoint(shardName)
	}
	if tp != nil {
		tp.say("[verdict]")
		tp.say("count")
		tp.say("read-checkpoint %s", shardName)
	}
	return res, nil
}
