package exercises

import "archlab/harness"

// ShardLoop is exercise shard-loop, §11.2 (job sharding, idempotent reruns
// and progress checkpoints).
//
// The task: work through one shard as the holder of its lease. A worker
// may crash right after an item, before its commit, and be rerun; a worker
// that stalls loses its lease, and a new owner takes the shard over under a
// higher epoch while the old one lives on as a zombie that may still
// commit. Write the loop so that a rerun resumes where the checkpoint says,
// every key is applied exactly once, the checkpoint moves forward every
// CommitEvery items (counted from where you resumed) and at the end, and no
// zombie can move it once the shard is yours.
//
// The verbs you may call, all on w:
//
//	w.Shard(), w.Epoch()  the shard's name and your lease epoch
//	w.Items()             the shard's keys in order; an offset counts items done
//	w.CommitEvery()       items between two commits (0: commit only at the end)
//	w.Load()              the committed offset, 0 when none
//	w.Fence()             the takeover: the committed offset written back
//	                      under your epoch in one step, and returned
//	w.Apply(key)          the sink's effect for a business key, once; false for
//	                      a key it has already applied (idempotent);
//	                      harness.ErrSinkFailed when the sink fails it
//	w.Commit(epoch, off)  stores the offset with the epoch in the checkpoint;
//	                      a lower epoch than the last commit's is
//	                      shardjob.ErrStaleEpoch
//
// Once the scenario crashes or stalls the worker, every verb returns
// harness.ErrCrashed: return it. The crash strikes right after an Apply,
// where the book's Runner.Run stops with crashAfter. A zombie commits
// right after your first call to the checkpoint, or after one of your
// commits: the book's Runner.Run, copied as it is, lets it move the
// checkpoint.
//
// What is checked: the drills crash-resume and stale-epoch run with your
// loop, then every schedule of `archlab explore shardjob` (30 keys: every
// commit interval, crash point and moment a zombie of the previous epoch
// commits): every key applied exactly once, the rerun replays exactly the
// items between where it resumed and the crash, the checkpoint never moves
// back, and no zombie moves it.
//
// 练习 shard-loop，§11.2（任务分片、幂等重跑与进度检查点）。
//
// 任务：以租约持有者的身份处理一个分片。工作进程可能在处理完某一项之后、提交之
// 前崩溃并被重跑；停顿的工作进程会失去租约，新的持有者以更高的纪元接管分片，而
// 旧进程作为僵尸继续存在，可能还会提交。写出这个循环，使得重跑从检查点所说的位
// 置继续，每个键恰好生效一次，检查点从恢复处起每 CommitEvery 项以及结束时向前
// 推进，并且一旦分片归你，任何僵尸都无法移动它。
//
// 可以调用的动词（都在 w 上）：Shard()、Epoch() 分片名与你的租约纪元；Items()
// 分片的键，按顺序，偏移量就是已完成的项数；CommitEvery() 两次提交之间的项数
// （0 表示只在结束时提交）；Load() 已提交的偏移量，没有时为 0；Fence() 接管：
// 把已提交的偏移量以你的纪元一步写回，并返回它；Apply(key) 对一个业务键执行一
// 次下游效果，已应用过的键返回 false（幂等），下游失败时返回
// harness.ErrSinkFailed；Commit(epoch, off) 把偏移量和纪元一起存入检查点，
// 纪元低于上一次提交的返回 shardjob.ErrStaleEpoch。场景让工作进程崩溃或停顿之
// 后，每个动词都返回 harness.ErrCrashed：把它返回即可。崩溃
// 发生在某次 Apply 之后，即书中 Runner.Run 用 crashAfter 停下的地方。僵尸在你
// 第一次调用检查点之后，或在你的某次提交之后提交：原样照抄书中的 Runner.Run，
// 它就能移动检查点。
//
// 检查什么：先用你的循环运行演练 crash-resume 和 stale-epoch，再运行 archlab
// explore shardjob 的每一种故障序列（30 个键：每种提交间隔、崩溃点，以及上一纪
// 元的僵尸提交的每个时机）：每个键恰好生效一次，重跑恰好重放恢复处与崩溃点之间
// 的项，检查点从不回退，没有僵尸移动检查点。
func ShardLoop(w *harness.Worker) error {
	// Write your loop here. 在这里写你的循环。
	return ErrNotImplemented
}
