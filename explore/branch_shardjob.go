package explore

import (
	"fmt"
	"slices"
	"strings"

	"archlab/harness"
)

// §11.2 on a state page. The world is the keys split into shards. A step
// is one worker's run of a shard, the book's Runner.Run as a whole:
// run-shard-0.e1 runs it to its end under lease epoch 1 (without .e1, the
// drills' unnamed worker); .crash-37 kills the worker right after its 37th
// item, .stall-25 stops it alive there (its lease expires: a zombie); a new
// owner's run, run-shard-0.e2.zombie-0, lets the previous epoch's zombie
// commit the offset it reached right after the owner's first call to the
// checkpoint (zombie-J: after its jth commit that moved it). Every row of
// §11.2's fault table is named so (faultMod): .sink-fails-25 fails the
// 25th item, .zombie-current-0 is a zombie holding the owner's epoch.
// fence-shard-0.e2
// is the lab's takeover fence, commit-shard-0.e1.at-25 a worker's commit on
// its own. Under fence-at-takeover a new owner's run is fenced first, as
// the explorer's strategy does; fence-at-first-commit runs the book's loop
// as it is.

var shardModel = model{
	strategy: shardjobStrategies[fenceAtFirstCommit].name,
	open:     openShard,
	reach:    reachShard,
	decls:    []string{"split"},
	steps:    shardEvery,
}

// shardDecls is the default scope's keys, in one shard.
func shardDecls() []harness.Call {
	return []harness.Call{{Verb: "split", Args: map[string]any{"keys": DefaultShardjob.Keys, "shards": 1}}}
}

// shardEvery takes a drill's commit interval, its first run's, for the
// runs the page offers.
func shardEvery(st *Start, steps []harness.Call) {
	for _, c := range steps {
		if c.Verb == "run" && c.Has("every") {
			st.Every = c.Int("every", 0)
			return
		}
	}
}

// defaultEvery is the commit interval of the runs a page offers when its
// start names none.
const defaultEvery = 10

type shardRun struct {
	call   int // the path call that ran it, for a saved file's binding
	epoch  int
	named  bool
	fields harness.Fields
}

func (r shardRun) int(name string) int { v, _ := r.fields[name].(int); return v }
func (r shardRun) flag(name string) bool {
	v, _ := r.fields[name].(bool)
	return v
}

type shardWalk struct {
	st    Start
	s     *harness.Shardjob
	every int
	keys  int
	runs  map[string][]shardRun // by shard, in order
	taken int                   // path calls taken so far
	// mismatch is the first run that replayed other than what its shard
	// had applied past where it resumed.
	mismatch *harness.Msg
}

func openShard(st Start, rec *harness.Recorder) (walker, error) {
	s := harness.NewShardjob(rec)
	if st.Strategy == harness.Student {
		s = harness.NewStudentShardjob(st.Students, rec)
	}
	w := &shardWalk{st: st, s: s, every: st.Every, runs: map[string][]shardRun{}}
	if w.every <= 0 {
		w.every = defaultEvery
	}
	for _, c := range st.Decls {
		if c.Verb != "split" {
			return nil, cannot("state.err.decl", c.Verb, "split")
		}
		if _, err := s.Exec(c); err != nil {
			return nil, err
		}
	}
	if len(s.Shards()) == 0 {
		return nil, cannot("state.err.empty", "split")
	}
	k, _ := s.Observe("keys", nil)
	w.keys = k.(int)
	return w, nil
}

func (w *shardWalk) harness() harness.Harness { return w.s }

func (w *shardWalk) shard(name string) (int, error) {
	i := slices.Index(w.s.Shards(), name)
	if i < 0 {
		return 0, cannot("state.err.no-shard", name, len(w.s.Shards())-1)
	}
	return i, nil
}

// A run's segment names each fault row it arms by the row's name less the
// word that introduces its count: crash-after=37 is .crash-37,
// stall-after=25 .stall-25, zombie-at=0 .zombie-0, zombie-current-at=0
// .zombie-current-0, sink-fails-at=25 .sink-fails-25. The table
// (harness.ShardFaults) says which rows there are; a segment only names
// them, in the table's order.
func faultMod(row harness.ShardFault) string {
	return strings.TrimSuffix(strings.TrimSuffix(row.Name, "-at"), "-after")
}

// faultMods are the table's rows as a segment names them: FAULT-K.
func faultMods() string {
	var out []string
	for _, row := range harness.ShardFaults[1:] {
		out = append(out, faultMod(row)+"-K")
	}
	return strings.Join(out, ", ")
}

// arm is a fault row a run arms, by its index in the table, and its count.
type arm struct{ row, n int }

// runSegment is a run call's segment: run-SHARD[.eN][.FAULT-K]...[.every-C],
// the faults in the table's order.
func (w *shardWalk) runSegment(shard string, epoch int, named bool, arms []arm, every int) string {
	var b strings.Builder
	b.WriteString("run-" + shard)
	if named {
		fmt.Fprintf(&b, ".e%d", epoch)
	}
	for _, a := range slices.SortedFunc(slices.Values(arms), func(x, y arm) int { return x.row - y.row }) {
		fmt.Fprintf(&b, ".%s-%d", faultMod(harness.ShardFaults[a.row]), a.n)
	}
	if every != w.every {
		fmt.Fprintf(&b, ".every-%d", every)
	}
	return b.String()
}

// faultArm reads a mod FAULT-K as the row it names and its count: from 0
// for a zombie's moment, from 1 up to the shard's keys for any other row
// (0 leaves a row unarmed, as the run verb reads it).
func faultArm(m string, keys int) (arm, bool) {
	word, _, ok := cutLast(m, "-")
	if !ok {
		return arm{}, false
	}
	for i, row := range harness.ShardFaults[1:] {
		if faultMod(row) != word {
			continue
		}
		n, ok := modNumber(m, word)
		if row.Zombie != harness.NoZombie {
			return arm{i + 1, n}, ok && n <= 1_000_000
		}
		return arm{i + 1, n}, ok && n >= 1 && n <= keys
	}
	return arm{}, false
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// armsClash reports whether arms hold two rows the run verb refuses
// together: two stops, two failing sinks, two zombies, or one row twice.
func armsClash(arms []arm) bool {
	var stops, fails, zombies int
	for i, a := range arms {
		row := harness.ShardFaults[a.row]
		switch {
		case row.Stop != harness.NoStop:
			stops++
		case row.Fails:
			fails++
		case row.Zombie != harness.NoZombie:
			zombies++
		}
		if slices.ContainsFunc(arms[:i], func(b arm) bool { return b.row == a.row }) {
			return true
		}
	}
	return stops > 1 || fails > 1 || zombies > 1
}

func (w *shardWalk) calls(seg string) ([]harness.Call, error) {
	s := parseSegment(seg)
	i, err := w.shard(s.target)
	if err != nil {
		return nil, err
	}
	epoch, named, every, at := 1, false, w.every, -1
	var arms []arm
	for _, m := range s.mods {
		var n int
		var ok bool
		switch {
		case len(m) > 1 && m[0] == 'e' && !strings.HasPrefix(m, "every-"):
			n, ok = modNumber("e-"+m[1:], "e")
			epoch, named = n, true
			ok = ok && n >= 1 && n <= 1000
		case strings.HasPrefix(m, "every-"):
			every, ok = modNumber(m, "every")
			ok = ok && every >= 1 && every <= 1_000_000
		case strings.HasPrefix(m, "at-"):
			at, ok = modNumber(m, "at")
			ok = ok && at <= 10_000_000
		default:
			var a arm
			a, ok = faultArm(m, w.s.ShardKeys(i))
			arms = append(arms, a)
		}
		if !ok {
			return nil, cannot("state.err.mod", m, seg, faultMods())
		}
	}
	shard := s.target
	switch s.verb {
	case "run":
		if armsClash(arms) || at >= 0 {
			return nil, cannot("state.err.segment", seg)
		}
		if want := w.runSegment(shard, epoch, named, arms, every); seg != want {
			return nil, cannot("state.err.canonical", seg, want)
		}
		c := harness.Call{Verb: "run", Args: map[string]any{"shard": shard, "every": every}}
		if named {
			c.Args["epoch"] = epoch
		}
		for _, a := range arms {
			row := harness.ShardFaults[a.row]
			if _, ran := w.s.Reached(uint64(epoch - 1)); row.Zombie != harness.NoZombie && (epoch < 2 || !ran) {
				return nil, cannot("state.err.no-zombie", seg, epoch-1)
			}
			c.Args[row.Name] = a.n
		}
		out := []harness.Call{c}
		// fence-at-takeover: a new owner raises the fence as it takes
		// over, before it runs.
		if w.st.Strategy == shardjobStrategies[fenceAtTakeover].name && uint64(epoch) > w.s.Owner() && w.s.Owner() > 0 {
			out = []harness.Call{{Verb: "fence", Args: map[string]any{"shard": shard, "epoch": epoch}}, c}
		}
		return out, nil
	case "fence", "commit":
		if !named || len(arms) > 0 || every != w.every || (s.verb == "commit") != (at >= 0) {
			return nil, cannot("state.err.segment", seg)
		}
		c := harness.Call{Verb: s.verb, Args: map[string]any{"shard": shard, "epoch": epoch}}
		if s.verb == "commit" {
			c.Args["offset"] = at
		}
		return []harness.Call{c}, nil
	}
	return nil, cannot("state.err.verb", s.verb, "run-SHARD[.eN][.FAULT-K], fence-SHARD.eN, commit-SHARD.eN.at-K")
}

func (w *shardWalk) took(calls []harness.Call, fields []harness.Fields) {
	for i, c := range calls {
		if c.Verb == "run" {
			w.addRun(c, fields[i])
		}
		w.taken++
	}
}

// addRun notes a run, and whether it replayed what its shard had applied
// past where it resumed: the items up to the furthest offset an earlier
// run reached (or up to where it stopped, if sooner), no more, no fewer.
func (w *shardWalk) addRun(c harness.Call, f harness.Fields) {
	shard := c.Word("shard")
	r := shardRun{call: w.taken, epoch: c.Int("epoch", 1), named: c.Has("epoch"), fields: f}
	reached := 0
	for _, p := range w.runs[shard] {
		reached = max(reached, p.int("reached"))
	}
	if want := max(0, min(reached, r.int("reached"))-r.int("from")); r.int("suppressed") != want && w.mismatch == nil {
		m := harness.M("state.prop.replay-mismatch", len(w.runs[shard])+1, shard, r.int("suppressed"), want)
		w.mismatch = &m
	}
	w.runs[shard] = append(w.runs[shard], r)
}

func (w *shardWalk) name(c harness.Call) (string, callKind) {
	switch c.Verb {
	case "split":
		return "", callDecl
	case "count", "read-checkpoint":
		return "", callObserve
	case "run":
		if _, err := w.shard(c.Word("shard")); err != nil || !c.Has("every") {
			return "", callOther
		}
		// Each row the call arms, read as the run verb reads it; a row
		// left unarmed (crash-after=0) has no segment, and the path's
		// call, which lacks it, is not the drill's (sameCalls).
		var arms []arm
		for i, row := range harness.ShardFaults[1:] {
			if n := c.Int(row.Name, -1); c.Has(row.Name) && (n > 0 || n == 0 && row.Zombie != harness.NoZombie) {
				arms = append(arms, arm{i + 1, n})
			}
		}
		return w.runSegment(c.Word("shard"), c.Int("epoch", 1), c.Has("epoch"), arms, c.Int("every", 0)), callStep
	case "fence":
		if _, err := w.shard(c.Word("shard")); err == nil {
			return fmt.Sprintf("fence-%s.e%d", c.Word("shard"), c.Int("epoch", 1)), callStep
		}
	case "commit":
		if _, err := w.shard(c.Word("shard")); err == nil && c.Int("offset", 0) >= 0 {
			return fmt.Sprintf("commit-%s.e%d.at-%d", c.Word("shard"), c.Int("epoch", 1), c.Int("offset", 0)), callStep
		}
	}
	return "", callOther
}

func (w *shardWalk) drained() bool { return true }

// form is the count a stop or a failing sink of row takes on a run of a
// shard of n keys from checkpoint cp: an item, as many as the shard has; a
// commit, as many as the run makes; its one read of the checkpoint. Its
// default is an item a little past the next commit, or the first.
func (w *shardWalk) form(row harness.ShardFault, n, cp int) Form {
	switch row.After {
	case harness.CallCommit:
		return Form{Min: 1, Max: max(1, (n-cp)/w.every+1), Def: 1}
	case harness.CallLoad:
		return Form{Min: 1, Max: 1, Def: 1}
	}
	return Form{Min: 1, Max: n, Def: max(1, min(n, cp+w.every+max(1, w.every/2)))}
}

// stopped is shard's last run when it crashed or stalled: its worker is a
// zombie once a newer epoch runs.
func (w *shardWalk) stopped(shard string) (shardRun, bool) {
	runs := w.runs[shard]
	if len(runs) == 0 {
		return shardRun{}, false
	}
	last := runs[len(runs)-1]
	return last, last.flag("crashed") || last.flag("stalled")
}

// actions are the steps a §11.2 state offers on each shard: the owner's
// run, and that run with each of the table's stops and failing sinks (a
// form: the count is the reader's); after a stop, a new owner's run, plain
// and with each of the table's zombies at the owner's first read and its
// first commit, and the fence; then each zombie's own commit. A fault's
// words are its row's (harness.ShardFaults): the table, not the page,
// says what there is to try.
func (w *shardWalk) actions() []Action {
	return w.offers(func(harness.ShardFault) bool { return true })
}

// offers are the actions with the fault rows in of, and every step that
// arms no row.
func (w *shardWalk) offers(of func(harness.ShardFault) bool) []Action {
	var out []Action
	owner := max(1, int(w.s.Owner()))
	for i, shard := range w.s.Shards() {
		n := w.s.ShardKeys(i)
		cp, _ := w.s.Checkpoint(shard)
		named := true
		if runs := w.runs[shard]; len(runs) > 0 {
			named = runs[len(runs)-1].named
		}
		run := w.runSegment(shard, owner, named, nil, w.every)
		out = append(out, Action{Segment: run, Doc: harness.M("state.act.run", shard, owner, w.every)})
		for _, row := range harness.ShardFaults {
			if row.Stop == harness.NoStop && !row.Fails || !of(row) {
				continue
			}
			f := w.form(row, n, cp)
			f.Prefix = run + "." + faultMod(row) + "-"
			out = append(out, Action{Segment: f.Prefix, Doc: harness.M(row.DocKey()), Fault: true, Form: &f})
		}
		last, stopped := w.stopped(shard)
		if stopped && last.epoch == owner {
			next := owner + 1
			moves := (n - cp + w.every - 1) / w.every
			out = append(out, Action{Segment: w.runSegment(shard, next, true, nil, w.every), Doc: harness.M("state.act.take-over", shard, next)})
			for k, row := range harness.ShardFaults {
				if row.Zombie == harness.NoZombie || !of(row) {
					continue
				}
				// At the owner's first read of the checkpoint, and at
				// its first commit when it will make one.
				for j := range min(moves, 1) + 1 {
					out = append(out, Action{Segment: w.runSegment(shard, next, true, []arm{{k, j}}, w.every), Doc: harness.M(row.DocKey()), Fault: true})
				}
			}
			out = append(out, Action{Segment: fmt.Sprintf("fence-%s.e%d", shard, next), Doc: harness.M("state.act.fence", shard, next)})
		}
		// A zombie's commit: each older epoch that ran this shard and
		// stopped, committing the offset it reached.
		var seen []int
		for _, r := range w.runs[shard] {
			if r.epoch >= owner || slices.Contains(seen, r.epoch) || !(r.flag("crashed") || r.flag("stalled")) {
				continue
			}
			seen = append(seen, r.epoch)
			reached, _ := w.s.Reached(uint64(r.epoch))
			out = append(out, Action{Segment: fmt.Sprintf("commit-%s.e%d.at-%d", shard, r.epoch, reached),
				Doc: harness.M("state.act.zombie-commit", r.epoch, reached), Fault: true})
		}
	}
	return out
}

func (w *shardWalk) snapshot() string { return w.s.Snapshot() }

func (w *shardWalk) legend() []string { return nil }

func (w *shardWalk) parts() []Part {
	cp := Part{Title: harness.M("state.part.checkpoints"),
		Head: []harness.Msg{harness.M("state.col.shard"), harness.M("state.col.checkpoint"), harness.M("state.col.keys")}}
	for i, shard := range w.s.Shards() {
		off, ep := w.s.Checkpoint(shard)
		cp.Rows = append(cp.Rows, []harness.Msg{text(shard), harness.M("state.checkpoint", off, ep), text(w.s.ShardKeys(i))})
	}
	applied, _ := w.s.Observe("applied", nil)
	suppressed, _ := w.s.Observe("suppressed", nil)
	sink := Part{Title: harness.M("state.part.sink"), Head: []harness.Msg{harness.M("state.col.what"), harness.M("state.col.value")},
		Rows: [][]harness.Msg{
			{harness.M("state.sink.applied"), harness.M("state.of", applied, w.keys)},
			{harness.M("state.sink.suppressed"), text(suppressed)},
			{harness.M("state.lease"), harness.M("state.epoch", w.s.Owner())},
		}}
	workers := Part{Title: harness.M("state.part.workers"),
		Head: []harness.Msg{harness.M("state.col.run"), harness.M("state.col.from"), harness.M("state.col.reached"), harness.M("state.col.end")}}
	for _, shard := range w.s.Shards() {
		for _, r := range w.runs[shard] {
			end := harness.M("state.run.done")
			switch {
			case r.flag("crashed"):
				end = harness.M("state.run.crashed")
			case r.flag("stalled"):
				end = harness.M("state.run.stalled")
			case r.fields["error"] != "":
				end = text(r.fields["error"])
			}
			who := fmt.Sprintf("%s e%d", shard, r.epoch)
			workers.Rows = append(workers.Rows, []harness.Msg{text(who), text(r.int("from")), text(r.int("reached")), end})
		}
	}
	parts := []Part{cp, sink}
	if len(workers.Rows) > 0 {
		parts = append(parts, workers)
	}
	return parts
}

// done reports whether every shard's checkpoint is at its end.
func (w *shardWalk) done() bool {
	for i, shard := range w.s.Shards() {
		if off, _ := w.s.Checkpoint(shard); off < w.s.ShardKeys(i) {
			return false
		}
	}
	return true
}

func (w *shardWalk) props() []Property {
	once := Property{Name: "not-exactly-once", Value: harness.M("state.prop.none")}
	if w.done() && w.s.Applied() != w.keys {
		once.Broken, once.Value = true, harness.M("state.prop.not-exactly-once", w.s.Applied(), w.keys)
	}
	replay := Property{Name: "replay-mismatch", Value: harness.M("state.prop.none")}
	if w.mismatch != nil {
		replay.Broken, replay.Value = true, *w.mismatch
	}
	back := Property{Name: "moved-back", Broken: w.s.MovedBack(), Value: yesNo(w.s.MovedBack(), "state.prop.checkpoint-back", "state.prop.none")}
	zombie := Property{Name: "zombie-moved", Value: harness.M("state.prop.none")}
	if from, to, moved := w.s.ZombieMove(); moved {
		zombie.Broken, zombie.Value = true, harness.M("explore.outcome.zombie-moved", from, to)
	}
	return []Property{once, replay, back, zombie}
}

func (w *shardWalk) file() fileSpec {
	f := fileSpec{binds: map[int]string{},
		counters: []fileCounter{{name: "applied", obs: "applied"}, {name: "keys", obs: "keys"}, {name: "moved_back", obs: "moved_back"}, {name: "zombie_moved", obs: "zombie_moved"}}}
	done := []string{"applied == keys"}
	for i, shard := range w.s.Shards() {
		f.counters = append(f.counters, fileCounter{name: "checkpoint_" + strings.ReplaceAll(shard, "-", "_"), obs: "checkpoint", arg: shard})
		done = append(done, fmt.Sprintf("checkpoint(%q) < shard_keys(%d)", shard, i))
		f.looks = append(f.looks, harness.Call{Verb: "read-checkpoint", Args: map[string]any{"shard": shard}})
	}
	f.looks = append(f.looks, harness.Call{Verb: "count", Args: map[string]any{}})
	f.checks = append(f.checks, fileCheck{name: "exactly-once", expr: strings.Join(done, " || "), text: harness.M("state.check.exactly-once"), invariant: "not-exactly-once"})
	// The replay of every run: what its shard had applied past where it
	// resumed, the furthest offset an earlier run reached.
	var replay []string
	n := 0
	for _, shard := range w.s.Shards() {
		var before []string
		for _, r := range w.runs[shard] {
			n++
			name := fmt.Sprintf("r%d", n)
			f.binds[r.call] = name
			if len(before) > 0 {
				replay = append(replay, fmt.Sprintf("%s.suppressed == max(0, min(max(%s), %s.reached) - %s.from)", name, strings.Join(before, ", "), name, name))
			} else {
				replay = append(replay, name+".suppressed == 0")
			}
			before = append(before, name+".reached")
		}
	}
	if len(replay) > 0 {
		f.checks = append(f.checks, fileCheck{name: "replay-matches", expr: strings.Join(replay, " && "), text: harness.M("explore.emit.check.replay-matches"), invariant: "replay-mismatch"})
	}
	f.checks = append(f.checks,
		fileCheck{name: "never-back", expr: "!moved_back", text: harness.M("explore.emit.check.never-back"), invariant: "moved-back"},
		fileCheck{name: "zombie-never-moves", expr: "zombie_moved == 0", text: harness.M("explore.emit.check.zombie-never-moves"), invariant: "zombie-moved"})
	breaksByInvariant(f.checks, w.props())
	return f
}

// reachShard has no state engine to ask (§11.2's schedules share no state
// past their first run): it searches the steps the page offers, breadth
// first, a few steps ahead, each form at the values where the runs differ
// (a crash right before and right after a commit, at the end), and stops at
// the first state that breaks an invariant.
func reachShard(m *model, s *State) (*Reach, harness.Msg, error) {
	const depth = 2
	within := harness.M("state.reach.depth", depth)
	type node struct{ path, steps []string }
	frontier := []node{{path: s.Segments()}}
	seen := map[string]bool{s.w.snapshot(): true}
	for d := 1; d <= depth; d++ {
		var next []node
		for _, nd := range frontier {
			w, err := replay(m, s.Start, nd.path)
			if err != nil {
				return nil, harness.Msg{}, err
			}
			for _, seg := range searchSteps(w.(*shardWalk)) {
				x, err := replay(m, s.Start, nd.path)
				if err != nil {
					return nil, harness.Msg{}, err
				}
				if _, err := take(x, seg); err != nil {
					continue
				}
				steps := append(slices.Clone(nd.steps), seg)
				var broken []string
				for _, p := range x.props() {
					if p.Broken {
						broken = append(broken, p.Name)
					}
				}
				if len(broken) > 0 {
					return &Reach{Steps: steps, Broken: broken, Within: within}, within, nil
				}
				if snap := x.snapshot(); !seen[snap] {
					seen[snap] = true
					next = append(next, node{path: append(slices.Clone(nd.path), seg), steps: steps})
				}
			}
		}
		frontier = next
	}
	return nil, within, nil
}

// searchSteps are the steps the search tries from w: the page's steps
// with the faults of the explorer's default scope (ShardFault.Explored),
// each form at the points where a run's outcome changes. A row beyond the
// book's scope (a zombie in the current epoch, a failing sink) does its
// harm under every takeover; the page offers it to try, but a search with
// it would find that harm from every state, and say nothing of the
// takeover the page runs.
func searchSteps(w *shardWalk) []string {
	var out []string
	for _, a := range w.offers(func(row harness.ShardFault) bool { return row.Explored }) {
		if a.Form == nil {
			out = append(out, a.Segment)
			continue
		}
		var ks []int
		for k := 1; k <= a.Form.Max; k++ {
			if k%w.every == 0 || k%w.every == 1 || k == a.Form.Max {
				ks = append(ks, k)
			}
		}
		for _, k := range ks {
			out = append(out, fmt.Sprintf("%s%d", a.Form.Prefix, k))
		}
	}
	return out
}
