package check

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"archlab/harness"
	"archlab/internal/shardjob"
)

// The runner exercise's model: the student's Checkpoint and Runner.Run
// beside the book's shardjob.Checkpoint and shardjob.Runner, each over a
// sink of the book's. Each clause is a sentence of exercises/runner.go's
// doc comment.
var runnerClauses = []string{
	"load-empty",                // Load is 0 for a shard nothing was committed to
	"epoch-empty",               // Epoch is 0 for it too
	"commit-forward",            // in the same epoch, a higher offset is accepted
	"commit-equal",              // an equal offset is accepted and changes nothing
	"stale-offset",              // in the same epoch, a lower offset is refused with ErrStaleOffset
	"stale-epoch",               // a lower epoch is refused with ErrStaleEpoch
	"stale-epoch-ahead",         // ... whatever the offset, one ahead of the stored one too
	"higher-epoch-lower-offset", // a higher epoch may set a lower offset
	"higher-epoch",              // a higher epoch may set any offset
	"refused-changes-nothing",   // a refused commit changes neither the offset nor the epoch
	"epoch-stored",              // Epoch is the epoch of the last accepted commit
	"run-from-checkpoint",       // Run resumes from the committed offset (Load)
	"run-every",                 // Run commits every CommitEvery items
	"run-every-from-resume",     // ... counted from where it resumed, not from 0
	"run-every-zero",            // CommitEvery 0 commits only at the end
	"run-end",                   // a run that finishes commits the end, once more
	"run-crash",                 // crashAfter stops right after that item, before its commit: ErrInjectedCrash
	"run-crash-resumed",         // ... in a resumed run too, counted from where it resumed
	"run-crash-past-end",        // a crashAfter past the last item never strikes
	"run-refused",               // a refused commit stops the run with the checkpoint's error
	"run-replay",                // an item applied before is suppressed by the sink, and counted so
	"run-done",                  // a run on a finished shard applies nothing and commits the end again
	"result",                    // Result counts this run's Attempts, Applied, Suppressed and its last Checkpoint
}

// runnerOp is one call: Checkpoint.Commit(shard, epoch, offset), or
// Runner.Run(shard, items, crashAfter) with a runner of this epoch and
// commit interval.
type runnerOp struct {
	run          bool
	shard        int
	epoch        uint64
	offset       int
	every, crash int
}

func (o runnerOp) String() string {
	if o.run {
		return fmt.Sprintf("Runner{Epoch: %d, CommitEvery: %d}.Run(%q, %s, %d)", o.epoch, o.every, shardName(o.shard), itemsText(runnerItems[o.shard]), o.crash)
	}
	return fmt.Sprintf("Commit(%q, %d, %d)", shardName(o.shard), o.epoch, o.offset)
}

func itemsText(items []string) string {
	return "[" + strings.Join(items, " ") + "]"
}

// Two shards, each with its items, fixed: what varies is where they were
// committed, by which epoch, and where a run crashes.
var (
	runnerShards = []string{"shard-0", "shard-1"}
	runnerItems  = [][]string{{"a1", "a2", "a3", "a4", "a5", "a6"}, {"b1", "b2", "b3"}}
)

// drawRunner draws the next call: a Run (at the epoch in force, one above
// it as a new owner, or one below it as a zombie; committing every 0 to 4
// items; crashing at some item or not) or a direct Commit (around the
// stored offset, by those epochs) to reach the Commit clauses.
func drawRunner(r *rand.Rand, before []op) op {
	var epoch uint64 = 1
	for _, o := range before {
		epoch = max(epoch, o.(runnerOp).epoch)
	}
	pick := func() uint64 {
		switch k := r.IntN(10); {
		case k < 6:
			return epoch
		case k < 8:
			return epoch + 1
		case epoch > 0:
			return epoch - 1
		}
		return epoch
	}
	shard := r.IntN(len(runnerShards))
	n := len(runnerItems[shard])
	if r.IntN(3) == 0 {
		return runnerOp{shard: shard, epoch: pick(), offset: r.IntN(n + 2)}
	}
	o := runnerOp{run: true, shard: shard, epoch: pick(), every: r.IntN(5)}
	if r.IntN(2) == 0 {
		o.crash = 1 + r.IntN(n+1)
	}
	return o
}

// simplerRunner: an epoch nearer 1, a smaller offset, no crash or an
// earlier one, a shorter commit interval.
func simplerRunner(o op) []op {
	ro := o.(runnerOp)
	var out []op
	try := func(f func(*runnerOp)) {
		s := ro
		f(&s)
		if s != ro {
			out = append(out, s)
		}
	}
	try(func(s *runnerOp) {
		if s.epoch > 1 {
			s.epoch--
		}
	})
	try(func(s *runnerOp) {
		if s.offset > 0 {
			s.offset--
		}
	})
	try(func(s *runnerOp) { s.crash = 0 }) // no crash at all, first
	try(func(s *runnerOp) {
		if s.crash > 0 {
			s.crash--
		}
	})
	try(func(s *runnerOp) {
		if s.every > 0 {
			s.every--
		}
	})
	try(func(s *runnerOp) { s.shard = 0 })
	return out
}

// runnerSide is one side: a checkpoint, a sink, and the log of what the
// side's runner did to them, in order (an item applied, a commit that
// changed the checkpoint or was refused).
type runnerSide struct {
	cp     harness.Checkpoint
	sink   *shardjob.Sink
	log    []string
	loaded bool // the run has read the checkpoint (its first Load is logged)
	new    func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, every int) harness.ShardRunner
}

// loggedSink and loggedCP are what the runner calls: the side's sink and
// checkpoint, each call logged.
type loggedSink struct{ s *runnerSide }

func (l loggedSink) Apply(key string) bool {
	ok := l.s.sink.Apply(key)
	l.s.log = append(l.s.log, fmt.Sprintf("apply %s %t", key, ok))
	return ok
}

type loggedCP struct{ s *runnerSide }

func (l loggedCP) Load(shard string) int {
	n := l.s.cp.Load(shard)
	if !l.s.loaded {
		l.s.loaded = true
		l.s.log = append(l.s.log, fmt.Sprintf("load %d", n))
	}
	return n
}

func (l loggedCP) Commit(shard string, epoch uint64, offset int) error {
	before, beforeEpoch := l.s.cp.Load(shard), l.s.cp.Epoch(shard)
	err := l.s.cp.Commit(shard, epoch, offset)
	if err != nil || l.s.cp.Load(shard) != before || l.s.cp.Epoch(shard) != beforeEpoch {
		l.s.log = append(l.s.log, fmt.Sprintf("commit %d@%d %s", offset, epoch, errValue(err, runnerErrs...)))
	}
	return err
}

var runnerErrs = []namedErr{{"ErrInjectedCrash", shardjob.ErrInjectedCrash},
	{"ErrStaleEpoch", shardjob.ErrStaleEpoch}, {"ErrStaleOffset", shardjob.ErrStaleOffset}}

// runnerSides are both sides, and what the book's checkpoint says: which
// shards were ever committed to.
type runnerSides struct {
	book, yours *runnerSide
	committed   [2]bool
	applied     map[string]bool
}

func openRunner(s *harness.Students) (sides, error) {
	cp := s.Runner.NewCheckpoint()
	if cp == nil {
		return nil, errNilType("NewCheckpoint")
	}
	b := bookRunner()
	return &runnerSides{
		book:    &runnerSide{cp: b.NewCheckpoint(), sink: shardjob.NewSink(), new: b.NewRunner},
		yours:   &runnerSide{cp: cp, sink: shardjob.NewSink(), new: s.Runner.NewRunner},
		applied: map[string]bool{},
	}, nil
}

func (r *runnerSides) step(o op) (clauses []string, book, yours []Answer, err error) {
	ro := o.(runnerOp)
	clauses = r.clauses(ro)
	for _, side := range []struct {
		s   *runnerSide
		out *[]Answer
	}{{r.book, &book}, {r.yours, &yours}} {
		s := side.s
		s.log, s.loaded = nil, false
		if ro.run {
			runner := s.new(loggedSink{s}, loggedCP{s}, ro.epoch, ro.every)
			if runner == nil {
				return nil, nil, nil, errNilType("Runner")
			}
			res, err := runner.Run(shardName(ro.shard), runnerItems[ro.shard], ro.crash)
			if stub(err) != nil {
				return nil, nil, nil, stub(err)
			}
			*side.out = append(*side.out,
				Answer{o.String(), fmt.Sprintf("Result{Attempts: %d, Applied: %d, Suppressed: %d, Checkpoint: %d}, %s",
					res.Attempts, res.Applied, res.Suppressed, res.Checkpoint, errValue(err, runnerErrs...))},
				Answer{"its calls", strings.Join(s.log, ", ")})
		} else {
			err := s.cp.Commit(shardName(ro.shard), ro.epoch, ro.offset)
			if stub(err) != nil {
				return nil, nil, nil, stub(err)
			}
			*side.out = append(*side.out, Answer{o.String(), errValue(err, runnerErrs...)})
		}
		for _, shard := range runnerShards {
			*side.out = append(*side.out,
				Answer{fmt.Sprintf("Load(%q)", shard), fmt.Sprint(s.cp.Load(shard))},
				Answer{fmt.Sprintf("Epoch(%q)", shard), fmt.Sprint(s.cp.Epoch(shard))})
		}
		applied, suppressed := s.sink.Counts()
		*side.out = append(*side.out, Answer{"sink", fmt.Sprintf("%d applied, %d suppressed", applied, suppressed)})
	}
	for _, l := range r.book.log {
		if k, ok := strings.CutPrefix(l, "apply "); ok {
			r.applied[strings.Fields(k)[0]] = true
		}
	}
	for i, shard := range runnerShards {
		if r.book.cp.Epoch(shard) > 0 || r.book.cp.Load(shard) > 0 {
			r.committed[i] = true
		}
	}
	for i := range runnerShards {
		if !r.committed[i] {
			clauses = append(clauses, "load-empty", "epoch-empty")
			break
		}
	}
	return clauses, book, yours, nil
}

// clauses are what a call exercises on the book's checkpoint as it
// stands (read before the call).
func (r *runnerSides) clauses(ro runnerOp) []string {
	shard := shardName(ro.shard)
	cur, curEpoch := r.book.cp.Load(shard), r.book.cp.Epoch(shard)
	if !ro.run {
		switch {
		case ro.epoch < curEpoch && ro.offset > cur:
			return []string{"stale-epoch-ahead", "stale-epoch", "refused-changes-nothing"}
		case ro.epoch < curEpoch:
			return []string{"stale-epoch", "refused-changes-nothing"}
		case ro.epoch > curEpoch && ro.offset < cur:
			return []string{"higher-epoch-lower-offset", "higher-epoch", "epoch-stored"}
		case ro.epoch > curEpoch:
			return []string{"higher-epoch", "epoch-stored"}
		case ro.offset < cur:
			return []string{"stale-offset", "refused-changes-nothing"}
		case ro.offset == cur:
			return []string{"commit-equal"}
		}
		return []string{"commit-forward"}
	}
	items := runnerItems[ro.shard]
	cur = min(cur, len(items)) // a direct commit may have set it past the end
	left := len(items) - cur
	var out []string
	if ro.epoch < curEpoch {
		out = append(out, "run-refused", "refused-changes-nothing")
		if len(items) > cur {
			out = append(out, "stale-epoch-ahead") // it will commit past the stored offset
		}
		out = append(out, "stale-epoch")
	}
	crashes := ro.crash > 0 && ro.crash <= left
	switch {
	case crashes && cur > 0:
		out = append(out, "run-crash-resumed", "run-crash")
	case crashes:
		out = append(out, "run-crash")
	case ro.crash > left:
		out = append(out, "run-crash-past-end")
	}
	if cur == len(items) {
		out = append(out, "run-done")
	}
	reached := left
	if crashes {
		reached = ro.crash
	}
	for _, k := range items[cur : cur+reached] {
		if r.applied[k] {
			out = append(out, "run-replay")
			break
		}
	}
	switch {
	case ro.every == 0:
		out = append(out, "run-every-zero")
	case reached >= ro.every && cur%ro.every != 0:
		out = append(out, "run-every-from-resume", "run-every")
	case reached >= ro.every:
		out = append(out, "run-every")
	}
	if cur > 0 {
		out = append(out, "run-from-checkpoint")
	}
	if !crashes && ro.epoch >= curEpoch {
		out = append(out, "run-end")
	}
	return append(out, "result")
}

// runnerHarm reads a difference: a commit refused or accepted otherwise
// than the book's, a run's result, what the run did (an offset committed
// before its items' effects: a loss if the worker dies there), where the
// checkpoint stands, or the sink.
func runnerHarm(c *Call, i int) string {
	b, y := c.Book[i].Value, c.Yours[i].Value
	switch what := c.Book[i].What; {
	case strings.HasPrefix(what, "Commit("):
		return errHarm(b, y)
	case strings.HasPrefix(what, "Runner{"):
		be, ye := b[strings.LastIndex(b, ", ")+2:], y[strings.LastIndex(y, ", ")+2:]
		if be != ye {
			return errHarm(be, ye)
		}
		if len(c.Book) > i+1 && c.Book[i+1] != c.Yours[i+1] {
			return callsHarm(c.Book[i+1].Value, c.Yours[i+1].Value) // what it did says more than its Result
		}
		return resultHarm(b, y)
	case what == "its calls":
		return callsHarm(b, y)
	case strings.HasPrefix(what, "Load("), strings.HasPrefix(what, "Epoch("):
		return countHarm(b, y)
	case what == "sink":
		var ba, bs, ya, ys int
		fmt.Sscanf(b, "%d applied, %d suppressed", &ba, &bs)
		fmt.Sscanf(y, "%d applied, %d suppressed", &ya, &ys)
		if ya < ba {
			return harmLost
		}
		return harmTooMany
	}
	return harmOther
}

// resultHarm reads two Results that differ: a checkpoint ahead of the
// book's (committed early), behind it, fewer items applied (lost), more or
// fewer attempts.
func resultHarm(book, yours string) string {
	var b, y shardjob.Result
	const form = "Result{Attempts: %d, Applied: %d, Suppressed: %d, Checkpoint: %d}"
	fmt.Sscanf(book, form, &b.Attempts, &b.Applied, &b.Suppressed, &b.Checkpoint)
	fmt.Sscanf(yours, form, &y.Attempts, &y.Applied, &y.Suppressed, &y.Checkpoint)
	switch {
	case y.Checkpoint > b.Checkpoint:
		return harmCommitEarly
	case y.Checkpoint < b.Checkpoint:
		return harmCommitLate
	case y.Applied < b.Applied:
		return harmLost
	case y.Attempts > b.Attempts:
		return harmTooMany
	case y.Attempts < b.Attempts:
		return harmTooFew
	}
	return harmOther
}

// The harms of a run's calls: it committed an offset past the items it
// had applied (a crash there loses them), committed before the book's run
// did but within what it applied (the cadence), after it, or it applied
// other items.
const (
	harmCommitAhead = "commit-ahead"
	harmCommitEarly = "commit-early"
	harmCommitLate  = "commit-late"
	harmEndMissing  = "end-missing"
	harmOtherItems  = "other-items"
)

func callsHarm(book, yours string) string {
	bs, ys := strings.Split(book, ", "), strings.Split(yours, ", ")
	start, applied := 0, 0
	for i := range max(len(bs), len(ys)) {
		var b, y string
		if i < len(bs) {
			b = bs[i]
		}
		if i < len(ys) {
			y = ys[i]
		}
		if b == y {
			if n, ok := strings.CutPrefix(b, "load "); ok {
				fmt.Sscan(n, &start)
			}
			if strings.HasPrefix(b, "apply ") {
				applied++
			}
			continue
		}
		switch {
		case strings.HasPrefix(y, "commit") && !strings.HasPrefix(b, "commit"):
			var offset int
			fmt.Sscan(strings.TrimPrefix(y, "commit "), &offset)
			if offset > start+applied {
				return harmCommitAhead
			}
			return harmCommitEarly
		case strings.HasPrefix(b, "commit") && y == "" && i == len(bs)-1:
			return harmEndMissing // the book's last call, the end's commit, yours never made
		case strings.HasPrefix(b, "commit") && !strings.HasPrefix(y, "commit"):
			return harmCommitLate
		case strings.HasPrefix(b, "commit"):
			return harmOther
		}
		return harmOtherItems
	}
	return harmOther
}

// runnerHeadline: a read of a shard nothing was committed to breaks
// load-empty or epoch-empty; a read after a refused commit,
// refused-changes-nothing; a Run whose calls and error are the book's but
// whose Result is not, result.
func runnerHeadline(_ *harness.Students, _ []op, c *Call, i int) string {
	what, b, y := c.Book[i].What, c.Book[i].Value, c.Yours[i].Value
	has := func(name string) bool { return slices.Contains(c.Clauses, name) }
	// A read after the call: where the checkpoint stands.
	switch {
	case i > 0 && has("refused-changes-nothing"):
		return "refused-changes-nothing"
	case strings.HasPrefix(what, "Load(") && b == "0" && has("load-empty"):
		return "load-empty"
	case strings.HasPrefix(what, "Epoch(") && b == "0" && has("epoch-empty"):
		return "epoch-empty"
	case strings.HasPrefix(what, "Epoch("):
		return "epoch-stored"
	}
	if !strings.HasPrefix(what, "Runner{") && what != "its calls" {
		return ""
	}
	// A run: its error, what it did, its Result.
	errOf := func(v string) string { return v[strings.LastIndex(v, ", ")+2:] }
	bRes, yRes := c.Book[0].Value, c.Yours[0].Value
	sameErr, sameCalls := errOf(bRes) == errOf(yRes), len(c.Book) > 1 && c.Book[1] == c.Yours[1]
	crash := strings.HasSuffix(bRes, "ErrInjectedCrash") || strings.HasSuffix(yRes, "ErrInjectedCrash")
	harm := runnerHarm(c, i)
	switch {
	case !sameErr && harm == harmAccepted && has("stale-epoch-ahead"):
		return "stale-epoch-ahead"
	case !sameErr && harm == harmAccepted && has("stale-epoch"):
		return "stale-epoch"
	case !sameErr && crash && has("run-from-checkpoint"):
		return "run-crash-resumed"
	case !sameErr && crash:
		return "run-crash"
	case !sameErr && harm == harmRefused && has("run-done"):
		return "run-done" // the end, committed again, refused
	case !sameErr && harm == harmRefused && has("run-end"):
		return "run-end"
	case sameErr && sameCalls:
		return "result" // it did what the book's did, and says otherwise
	case harm == harmEndMissing:
		return "run-end"
	case (harm == harmCommitEarly || harm == harmCommitLate) && has("run-every-zero"):
		return "run-every-zero"
	case (harm == harmTooMany || harm == harmOtherItems) && has("run-refused"):
		return "run-refused"
	case (harm == harmTooMany || harm == harmTooFew || harm == harmOtherItems) && has("run-from-checkpoint"):
		return "run-from-checkpoint"
	}
	_ = y
	return ""
}

// runnerGoTest writes a runner run as a Go test. The runner's own calls
// to the sink and the checkpoint are what the report shows; the test
// checks what Run returns and where the checkpoint and the sink stand.
func runnerGoTest(ops []op, calls []Call) string {
	g := goTest{Type: "Runner",
		Imports:   []string{"archlab/internal/shardjob", "strings"},
		Setup:     "cp, sink := NewCheckpoint(), shardjob.NewSink()",
		Sentinels: []string{"shardjob.ErrInjectedCrash", "shardjob.ErrStaleEpoch", "shardjob.ErrStaleOffset"},
		Vars:      "log := &runnerLog{cp: cp, sink: sink}\n\tvar res shardjob.Result\n\tvar err error\n\t_, _, _, _ = res, err, log, strings.Join // a run of commits alone uses none of them"}
	var lines [][]goLine
	for _, o := range ops {
		ro := o.(runnerOp)
		shard := shardName(ro.shard)
		var l []goLine
		if ro.run {
			l = []goLine{
				{fmt.Sprintf("log.calls, log.loaded = nil, false\n\tres, err = (&Runner{Sink: log, CP: log, Epoch: %d, CommitEvery: %d}).Run(%q, %#v, %d)", ro.epoch, ro.every, shard, runnerItems[ro.shard], ro.crash),
					`fmt.Sprintf("Result{Attempts: %d, Applied: %d, Suppressed: %d, Checkpoint: %d}, %s", res.Attempts, res.Applied, res.Suppressed, res.Checkpoint, runnerErr(err))`},
				{"", `strings.Join(log.calls, ", ")`},
			}
		} else {
			l = []goLine{{"", fmt.Sprintf("runnerErr(cp.Commit(%q, %d, %d))", shard, ro.epoch, ro.offset)}}
		}
		for _, s := range runnerShards {
			l = append(l, goLine{"", fmt.Sprintf("fmt.Sprint(cp.Load(%q))", s)}, goLine{"", fmt.Sprintf("fmt.Sprint(cp.Epoch(%q))", s)})
		}
		l = append(l, goLine{"", `runnerSink(sink)`})
		lines = append(lines, l)
	}
	return g.write(calls, lines) + runnerGoHelpers
}

const runnerGoHelpers = `
// runnerLog is the sink and the checkpoint as your Runner calls them,
// each call written down as the check does: an item applied, and a commit
// that was refused or moved the checkpoint.
type runnerLog struct {
	calls  []string
	loaded bool
	cp     *Checkpoint
	sink   *shardjob.Sink
}

func (l *runnerLog) Apply(key string) bool {
	ok := l.sink.Apply(key)
	l.calls = append(l.calls, fmt.Sprintf("apply %s %t", key, ok))
	return ok
}

func (l *runnerLog) Load(shard string) int {
	n := l.cp.Load(shard)
	if !l.loaded {
		l.loaded = true
		l.calls = append(l.calls, fmt.Sprintf("load %d", n))
	}
	return n
}

func (l *runnerLog) Commit(shard string, epoch uint64, offset int) error {
	before, beforeEpoch := l.cp.Load(shard), l.cp.Epoch(shard)
	err := l.cp.Commit(shard, epoch, offset)
	if err != nil || l.cp.Load(shard) != before || l.cp.Epoch(shard) != beforeEpoch {
		l.calls = append(l.calls, fmt.Sprintf("commit %d@%d %s", offset, epoch, runnerErr(err)))
	}
	return err
}

// runnerSink prints the sink's counts as the check does.
func runnerSink(s *shardjob.Sink) string {
	applied, suppressed := s.Counts()
	return fmt.Sprintf("%d applied, %d suppressed", applied, suppressed)
}
`

var runnerMachine = &machine{
	exercise: "runner",
	typ:      "Runner",
	clauses:  runnerClauses,
	open:     openRunner,
	draw:     drawRunner,
	simpler:  simplerRunner,
	harm:     runnerHarm,
	headline: runnerHeadline,
	goTest:   runnerGoTest,
	solo:     soloRunner,
	races:    runnerRaces,
	reads:    runnerReads,
	mistakes: runnerModelMistakes,
}

// soloRunner makes calls on one checkpoint of s's: Commit, Load and
// Epoch (a Run is one worker's loop: its atomicity is the checkpoint's).
func soloRunner(s *harness.Students) (func(o op) (string, error), error) {
	cp := s.Runner.NewCheckpoint()
	if cp == nil {
		return nil, errNilType("NewCheckpoint")
	}
	return func(o op) (string, error) {
		switch o := o.(type) {
		case runnerOp:
			if !o.run {
				err := cp.Commit(shardName(o.shard), o.epoch, o.offset)
				return errValue(err, runnerErrs...), stub(err)
			}
		case readOp:
			if o.What == "Load" {
				return fmt.Sprint(cp.Load(o.Arg)), nil
			}
			return fmt.Sprint(cp.Epoch(o.Arg)), nil
		}
		return "", fmt.Errorf("not a checkpoint call: %s", o)
	}, nil
}

// The checkpoint's races: a new owner's commit racing a zombie's that
// carries a higher offset, and two commits of one owner at once.
var (
	runnerRaces = []race{
		// Many shards, each committed by a new owner on one goroutine and
		// by a zombie carrying a higher offset on the other.
		{threads: [][]op{raceCommits(longKeys, 2, 3), raceCommits(longKeys, 1, 5)}, rounds: longRounds, overlaps: longOverlaps, inFlight: true,
			key: func(o op) string { return fmt.Sprint(o.(runnerOp).shard) }},
		{threads: [][]op{{runnerOp{epoch: 1, offset: 2}, readOp{"Load", "shard-0"}}, {runnerOp{epoch: 1, offset: 4}, readOp{"Load", "shard-0"}}}, rounds: shortRounds, overlaps: shortOverlaps},
	}
	runnerReads = []op{readOp{"Load", "shard-0"}, readOp{"Epoch", "shard-0"}, readOp{"Load", "shard-1"}, readOp{"Epoch", "shard-1"}}
)

// raceCommits is a commit of epoch and offset to each of n shards.
func raceCommits(n int, epoch uint64, offset int) []op {
	var out []op
	for i := range n {
		out = append(out, runnerOp{shard: i, epoch: epoch, offset: offset})
	}
	return out
}

// shardName is the name of shard i: runnerShards' names, and more for the
// races.
func shardName(i int) string { return harness.ShardName(i) }
