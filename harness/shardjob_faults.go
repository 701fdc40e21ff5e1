package harness

import (
	"errors"
	"slices"

	"archlab/i18n"
)

// §11.2's fault table. Each row is one thing the environment may do to one
// worker's run of a shard, armed by the run's argument of the row's name
// with a count: where the worker dies or stalls (right after its Nth call
// of one kind to its sink or its checkpoint), what the previous epoch's
// zombie commits while this worker runs, and when (under the epoch before
// this worker's, or under this worker's own), or which item the sink
// fails. The book's Runner.Run
// never sees a row; the sink and the checkpoint it is handed (workerEnv)
// do what the row says.
//
// Every reader of §11.2's faults reads this table and nothing else: the
// run verb's arguments, `drill --verbs`, the explorer's schedules, its
// closed-form count and its fault classes, and the student's path. A new
// fault is a new row (with its words), and a drill that uses it.

// ShardCall is a kind of call a worker makes to its sink or its checkpoint.
type ShardCall string

// The calls of a worker's run, as the book's Runner.Run makes them: one
// Load, then an Apply per item and a Commit every few.
const (
	CallLoad   ShardCall = "load"   // Checkpoint.Load
	CallApply  ShardCall = "apply"  // Sink.Apply
	CallCommit ShardCall = "commit" // Checkpoint.Commit, or a takeover's Fence: a write of the checkpoint
)

// WorkerStop is what a row does to the worker itself.
type WorkerStop uint8

// A row stops the worker, or leaves it running (a zombie row).
const (
	NoStop WorkerStop = iota
	Crash             // it dies: every call after that one fails
	Stall             // it stops alive: its lease expires, it lives on as a zombie
)

// ZombieOffset is the offset a zombie row's zombie commits.
type ZombieOffset uint8

// The offsets a zombie may commit.
const (
	NoZombie      ZombieOffset = iota
	ZombieReached              // the offset its items took it to: what it applied
	ZombieAhead                // one past that: an item it handed out and never finished
	ZombieStale                // the offset its run started from, read long ago
)

// ShardFault is one row of §11.2's table.
type ShardFault struct {
	// Name is the run's argument that arms the row: crash-after=37.
	Name string
	// Stop and After: the worker dies or stalls right after its Nth call
	// of kind After, before anything else it would do.
	Stop  WorkerStop
	After ShardCall
	// Zombie: the previous epoch's zombie commits this offset at the
	// moment N names: right after this worker's first call to the
	// checkpoint (0), before it has written anything, or right after its
	// Nth commit that moved the checkpoint.
	Zombie ZombieOffset
	// Current: the zombie commits under this worker's own epoch, not the
	// one before: it lost the shard but holds the current epoch still, as
	// every member of a Kafka consumer group holds the group's generation.
	// No epoch fences it: the checkpoint cannot tell it from the owner.
	Current bool
	// Fails: the sink fails the worker's Nth item: its effect is not
	// done. The book's Sink.Apply answers only applied or suppressed, so
	// the book's Runner.Run hears false, counts a suppression and goes on,
	// and its next commit covers the item (kafka-go issue #764: a failed
	// write whose offset a later commit covers). The student's
	// Worker.Apply returns ErrSinkFailed.
	Fails bool
	// Explored: the explorer's default scope walks the row, and a pass
	// on the student's code counts it as a fault class. Stall is not:
	// there the crashed worker lives on as the zombie already. Nor is a
	// zombie in the current epoch: it does its harm under both takeovers
	// the scope compares, the book's fence included, and under any loop a
	// student may write, since it commits behind the loop's back; a drill
	// shows it (current-epoch-zombie). Nor is a failing sink: the book's
	// loop cannot hear it, so it loses the item under both takeovers
	// (sink-fails).
	Explored bool
	// Doc says what happens, in one line, for --verbs; Brief in a few
	// words.
	Doc, Brief Words
	// Step is how the trace names the stop, with the row's count and the
	// items done as arguments (%[1]d, %[2]d); a stop after an Apply is
	// the book's own crash, whose words are the trace's already.
	Step Words
}

// ShardFaults is the table, in its canonical order: the explorer tries a
// first worker's stop rows in this order (and, in the student's shard-loop
// scope, the failing sink's after them), then the rerun's zombie rows.
// Row 0 is a run with no fault.
var ShardFaults = [...]ShardFault{
	{Name: ""},
	{Name: "crash-after", Stop: Crash, After: CallApply, Explored: true,
		Doc:   Words{"the worker dies right after its Nth item, before that item's commit", "工作进程处理完第 N 项后立即崩溃，在这一项的提交之前"},
		Brief: Words{"dies after an item", "处理一项后崩溃"}},
	{Name: "crash-after-commit", Stop: Crash, After: CallCommit, Explored: true,
		Doc:   Words{"it dies right after its Nth commit, before its next item", "第 N 次提交之后、下一项之前崩溃"},
		Brief: Words{"dies after a commit", "提交后崩溃"},
		Step:  Words{"dies right after its commit #%[1]d, %[2]d items done", "第 %[1]d 次提交之后立即崩溃，已处理 %[2]d 项"}},
	{Name: "crash-after-load", Stop: Crash, After: CallLoad, Explored: true,
		Doc:   Words{"it dies right after its Nth read of the checkpoint (the book's loop reads it once, before any item)", "第 N 次读取检查点之后立即崩溃（书中的循环只在开头读一次，在任何一项之前）"},
		Brief: Words{"dies after reading the checkpoint", "读检查点后崩溃"},
		Step:  Words{"dies right after reading the checkpoint, %[2]d items done", "读完检查点后立即崩溃，已处理 %[2]d 项"}},
	{Name: "stall-after", Stop: Stall, After: CallApply,
		Doc:   Words{"it stops alive right after its Nth item: its lease expires, it lives on as a zombie", "处理完第 N 项后停顿，并未死去：租约过期，它成为僵尸"},
		Brief: Words{"stalls after an item", "处理一项后停顿"}},
	{Name: "zombie-at", Zombie: ZombieReached, Explored: true,
		Doc: Words{"the previous epoch's zombie commits the offset it reached, right after this worker's first call to the checkpoint (0) or its Nth commit",
			"上一纪元的僵尸提交它走到的偏移量：在本工作进程第一次调用检查点之后（0）或第 N 次提交之后"},
		Brief: Words{"a zombie commits what it applied", "僵尸提交它走到的位置"}},
	{Name: "zombie-ahead-at", Zombie: ZombieAhead, Explored: true,
		Doc: Words{"the zombie commits one past what it reached: an item it handed out and never finished (same moments)",
			"僵尸提交比它走到的位置多一项：已经领走却没做完的一项（时机同上）"},
		Brief: Words{"a zombie commits ahead of what it applied", "僵尸提交超前于它走到的位置"}},
	{Name: "zombie-stale-at", Zombie: ZombieStale, Explored: true,
		Doc: Words{"the zombie commits the offset its run started from, read long ago (same moments)",
			"僵尸提交它那次运行开始时读到的旧偏移量（时机同上）"},
		Brief: Words{"a zombie commits a stale offset", "僵尸提交陈旧的偏移量"}},
	{Name: "zombie-current-at", Zombie: ZombieAhead, Current: true,
		Doc: Words{"the previous owner, which lost the shard but holds this worker's epoch too (a group's generation covers every member), commits one past what it reached (same moments)",
			"上一任持有者失去了分片，却也持有本工作进程的纪元（消费组的代数覆盖每个成员），它提交比它走到的位置多一项（时机同上）"},
		Brief: Words{"a zombie in the current epoch commits ahead", "持有当前纪元的僵尸超前提交"}},
	{Name: "sink-fails-at", Fails: true,
		Doc: Words{"the sink fails the worker's Nth item: nothing applied; the book's Sink.Apply can only answer false, as for a key it suppressed",
			"下游让工作进程的第 N 项失败：什么都没有生效；书中的 Sink.Apply 只能回答 false，和拦下重复键时一样"},
		Brief: Words{"the sink fails an item", "下游让一项失败"},
		Step:  Words{"Apply %[2]s: the sink fails item #%[1]d, nothing applied", "Apply %[2]s：下游让第 %[1]d 项失败，什么都没有生效"}},
}

// ErrSinkFailed is what the student's Worker.Apply returns for an item
// the scenario's sink fails (sink-fails-at): nothing was applied. A loop
// that returns it stops there, before any commit could cover the item,
// and a rerun resumes from the checkpoint.
var ErrSinkFailed = errors.New("the sink failed this item, as the scenario asked: nothing was applied")

// Fault reports whether the row is a fault: every row but row 0.
func (f ShardFault) Fault() bool { return f.Name != "" }

// ShardFaultByName finds a row by its name.
func ShardFaultByName(name string) (int, bool) {
	i := slices.IndexFunc(ShardFaults[:], func(f ShardFault) bool { return f.Name == name })
	return max(i, 0), i > 0
}

// ShardStops and ShardZombies are the rows of each kind, by index, in the
// table's order: the explorer's choices for a first worker and a rerun.
func ShardStops(explored bool) []int {
	return shardRows(explored, func(f ShardFault) bool { return f.Stop != NoStop })
}
func ShardZombies(explored bool) []int {
	return shardRows(explored, func(f ShardFault) bool { return f.Zombie != NoZombie })
}

// ShardFails are the failing sink's rows: a first worker's choices in the
// student's shard-loop scope, whose Apply can say the sink failed.
func ShardFails() []int {
	return shardRows(false, func(f ShardFault) bool { return f.Fails })
}

func shardRows(explored bool, of func(ShardFault) bool) []int {
	var out []int
	for i, f := range ShardFaults {
		if f.Fault() && of(f) && (f.Explored || !explored) {
			out = append(out, i)
		}
	}
	return out
}

// DocKey is the key of the row's Doc; BriefKey of its Brief, StepKey of
// its Step.
func (f ShardFault) DocKey() string   { return "fault.11.2." + f.Name }
func (f ShardFault) BriefKey() string { return "fault.11.2." + f.Name + ".brief" }
func (f ShardFault) StepKey() string  { return "fault.11.2." + f.Name + ".step" }

// shardFaultArgs are the run verb's fault arguments, one per row: a count
// that arms it. A stop row's count is at least 1 (0 leaves it unarmed, as
// a drill has always written crash-after=0), and so is a failing sink's;
// a zombie row's at least 0.
func shardFaultArgs() []Arg {
	var out []Arg
	for _, f := range ShardFaults[1:] {
		f := f
		out = append(out, Arg{Name: f.Name, Kind: Number, Optional: true, DocKey: f.DocKey()})
	}
	return out
}

func init() {
	en, zh := map[string]string{}, map[string]string{}
	for _, f := range ShardFaults[1:] {
		en[f.DocKey()], zh[f.DocKey()] = f.Doc.En, f.Doc.Zh
		en[f.BriefKey()], zh[f.BriefKey()] = f.Brief.En, f.Brief.Zh
		if f.Step != (Words{}) {
			en[f.StepKey()], zh[f.StepKey()] = f.Step.En, f.Step.Zh
		}
	}
	i18n.Add(i18n.EN, en)
	i18n.Add(i18n.ZH, zh)
}

// armedShardFaults reads a run call's fault arguments into r: the stop
// row and its count, the zombie row and its moment (-1: none), the
// failing sink's row and its count. A run has at most one of each.
func armedShardFaults(c Call, r *Run) error {
	r.ZombieAt = -1
	for i, f := range ShardFaults[1:] {
		i++
		if !c.Has(f.Name) {
			continue
		}
		n := c.Int(f.Name, 0)
		switch {
		case f.Zombie == NoZombie && n <= 0:
			// unarmed, as crash-after=0 has always been
		case f.Stop != NoStop && r.Stop != 0:
			return errArg(c.Verb, f.Name, "harness.err.exclude", ShardFaults[r.Stop].Name)
		case f.Stop != NoStop:
			r.Stop, r.StopAt = i, n
		case f.Fails && r.Fail != 0:
			return errArg(c.Verb, f.Name, "harness.err.exclude", ShardFaults[r.Fail].Name)
		case f.Fails:
			r.Fail, r.FailAt = i, n
		case n < 0:
		case r.Zombie != 0:
			return errArg(c.Verb, f.Name, "harness.err.exclude", ShardFaults[r.Zombie].Name)
		default:
			r.Zombie, r.ZombieAt = i, n
		}
	}
	return nil
}
