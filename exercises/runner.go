package exercises

import (
	"archlab/harness"
	"archlab/internal/shardjob"
)

// Runner and Checkpoint are exercise runner, §11.2 (job sharding,
// idempotent reruns and progress checkpoints), the mechanism itself: write
// the book's Runner.Run and Checkpoint, with the book's names.
//
// The task:
//
//   - Checkpoint keeps, per shard, the committed offset and the lease epoch
//     that committed it. Load returns the offset (0 when none), Epoch the
//     epoch (0 when none). Commit(shard, epoch, offset): an epoch lower than
//     the stored one is refused with an error wrapping
//     shardjob.ErrStaleEpoch, whatever the offset; in the same epoch, a
//     lower offset is refused with shardjob.ErrStaleOffset; an equal offset
//     is accepted and changes nothing; a higher epoch may set any offset
//     (the new owner decides where it resumed). A refused commit changes
//     nothing.
//   - Runner.Run(shard, items, crashAfter) works through items from the
//     shard's committed offset (r.CP.Load), applying each item to r.Sink,
//     and commits under r.Epoch every r.CommitEvery items counted from
//     where it resumed (0: only at the end), then once at the end. With
//     crashAfter > 0 it stops right after its crashAfter-th item, before
//     that item's commit, returning an error that wraps
//     shardjob.ErrInjectedCrash: the effect happened, the offset did not
//     move. A refused commit stops the run with the checkpoint's error.
//     The Result counts this run's items (Attempts, replays included),
//     Applied and Suppressed as the sink answered, and Checkpoint, the
//     last offset it committed (or the one it resumed from).
//
// What you may call: r.Sink.Apply(key) (the idempotent sink: false for a
// key it has applied before), r.CP.Load and r.CP.Commit (your Checkpoint,
// with the scenario's faults around it), the sentinels of package
// shardjob, and fmt.Errorf with %w.
//
// What is checked: first your Runner and Checkpoint beside the book's,
// call by call: random sequences of Run and Commit on two shards (resumed
// runs, every CommitEvery from 0 to 4, crashes in fresh and resumed runs,
// lower, equal and higher epochs and offsets, a zombie that commits ahead),
// every Result, error (by errors.Is), call the run makes to the sink and
// the checkpoint, Load and Epoch compared with the book's, then Commit,
// Load and Epoch from two goroutines at once; then the book's test
// TestRunCrashResume on your Runner and Checkpoint; the drills
// crash-resume, rerun-commit, zombie-window, stale-epoch, commit-cadence,
// current-epoch-zombie and sink-fails with yours where the book's sit; then
// every schedule of `archlab explore shardjob` (30 keys: every commit
// interval, crash point and moment a zombie of the previous epoch commits)
// with the lab's takeover fence raised around your Runner
// (fence-at-takeover): every key applied exactly once, the rerun replays
// exactly the items between where it resumed and the crash, the checkpoint
// never moves back, no zombie moves it. Without that fence the book's
// Runner.Run lets a zombie move the checkpoint before the owner's first
// commit: that is the shard-loop exercise's lesson, not this one's, so
// write Run as the book does, with no commit before the first CommitEvery
// items (zombie-window and commit-cadence hold you to it).
//
// 练习 runner，§11.2（任务分片、幂等重跑与进度检查点），写机制本身：用书中的名
// 字写出书中的 Runner.Run 与 Checkpoint。
//
// 任务：Checkpoint 为每个分片保存已提交的偏移量，以及提交它的租约纪元。Load 返
// 回偏移量（没有时为 0），Epoch 返回纪元（没有时为 0）。Commit：纪元低于已保存
// 的，无论偏移量是多少，都以包装了 shardjob.ErrStaleEpoch 的错误拒绝；同一纪元
// 内，更小的偏移量以 shardjob.ErrStaleOffset 拒绝；相等的偏移量被接受，且不改
// 变任何东西；更高的纪元可以设置任意偏移量（新的持有者决定从哪里恢复）。被拒绝
// 的提交不改变任何东西。Runner.Run 从分片已提交的偏移量（r.CP.Load）开始处理各
// 项，把每一项交给 r.Sink，从恢复处算起每 r.CommitEvery 项以 r.Epoch 提交一次
// （0 表示只在结束时提交），结束时再提交一次。crashAfter > 0 时，它在第
// crashAfter 项之后、这一项的提交之前停下，返回包装了 shardjob.ErrInjectedCrash
// 的错误：效果已经发生，偏移量没有前进。提交被拒绝时，运行带着检查点的错误停
// 下。Result 记录这次运行处理的项数（Attempts，含重放）、下游回答的 Applied 与
// Suppressed，以及 Checkpoint：它最后提交的偏移量（或它恢复时的偏移量）。
//
// 可以调用的：r.Sink.Apply(key)（幂等的下游：已应用过的键返回 false）、
// r.CP.Load 与 r.CP.Commit（你的 Checkpoint，外面包着场景的故障）、shardjob 包
// 的哨兵错误，以及带 %w 的 fmt.Errorf。
//
// 检查什么：先把你的 Runner 与 Checkpoint 与书中的逐次调用对照：两个分片上随机的
// Run 与 Commit 调用序列（恢复后的运行、从 0 到 4 的每种 CommitEvery、新运行和恢复
// 后运行中的崩溃、更低、相等和更高的纪元与偏移量、提交超前的僵尸），每个 Result、
// 错误（用 errors.Is）、运行对下游和检查点的每次调用、Load 和 Epoch 都与书中的比较，
// 再从两个 goroutine 同时调用 Commit、Load 和 Epoch；然后在你的 Runner 与
// Checkpoint 上运行书中的测试 TestRunCrashResume；
// 再把你的代码放在书中代码的位置，运行演练 crash-resume、rerun-commit、
// zombie-window、stale-epoch、commit-cadence、current-epoch-zombie 和
// sink-fails；然后在你的 Runner 外面加上本实
// 验的接管围栏（fence-at-takeover），运行 archlab explore shardjob 的每一种故障
// 序列（30 个键：每种提交间隔、崩溃点，以及上一纪元的僵尸提交的每个时机）：每个
// 键恰好生效一次，重跑恰好重放恢复处与崩溃点之间的项，检查点从不回退，没有僵尸
// 移动检查点。没有这道围栏时，书中的 Runner.Run 会让僵尸在新持有者第一次提交之
// 前移动检查点：那是练习 shard-loop 的课题，不是这个练习的，所以请照书中的写法
// 写 Run，在最初的 CommitEvery 项之前不提交（zombie-window 与 commit-cadence
// 会检查这一点）。
type Runner struct {
	Sink        shardjob.Effects
	CP          shardjob.Progress
	Epoch       uint64
	CommitEvery int // commit after every CommitEvery items; 0 commits only at the end
}

// Run processes items from the shard's committed offset. 从已提交的偏移量开始处理。
func (r *Runner) Run(shard string, items []string, crashAfter int) (shardjob.Result, error) {
	// Write Runner.Run here. 在这里写 Runner.Run。
	return shardjob.Result{}, ErrNotImplemented
}

// Checkpoint stores each shard's committed offset and the lease epoch that
// committed it. 保存每个分片已提交的偏移量，以及提交它的租约纪元。
type Checkpoint struct {
	// Your fields here. 在这里写你的字段。
}

// NewCheckpoint returns an empty checkpoint store. 返回一个空的检查点存储。
func NewCheckpoint() *Checkpoint {
	return &Checkpoint{}
}

// Load returns the committed offset of shard, 0 when nothing is committed.
// 返回分片已提交的偏移量，没有时为 0。
func (c *Checkpoint) Load(shard string) int {
	return 0
}

// Epoch returns the lease epoch of shard's last commit, 0 when none.
// 返回分片上一次提交的租约纪元，没有时为 0。
func (c *Checkpoint) Epoch(shard string) uint64 {
	return 0
}

// Commit moves shard to offset under epoch, or refuses. 以 epoch 把分片推进到
// offset，或者拒绝。
func (c *Checkpoint) Commit(shard string, epoch uint64, offset int) error {
	// Write Checkpoint.Commit here. 在这里写 Checkpoint.Commit。
	return ErrNotImplemented
}

// runner plugs Runner and Checkpoint in where the book's sit.
func runner() *harness.ShardMechanism {
	return &harness.ShardMechanism{
		NewCheckpoint: func() harness.Checkpoint { return NewCheckpoint() },
		NewRunner: func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, commitEvery int) harness.ShardRunner {
			return &Runner{Sink: sink, CP: cp, Epoch: epoch, CommitEvery: commitEvery}
		},
	}
}
