package check

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"archlab/drills"
	"archlab/exercises"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
	"archlab/internal/shardjob"
)

// §11.2's mechanism (exercise runner): the book's Runner.Run and
// Checkpoint with one classic mistake each, as a student might write them.
// They join the wrong variants TestWrongVariantsCaught holds to "not done,
// with a counterexample that replays as a drill file".

// mistakes is which classic mistake a flawed mechanism makes.
type mistakes struct {
	resumeFromZero    bool // Run starts at item 0, not at the checkpoint
	cadenceFromZero   bool // commits when (i+1) % CommitEvery == 0, not counted from the resume offset
	commitBeforeApply bool // commits an offset before applying the item under it
	// commits an item's offset as it hands the item out, one item ahead of
	// its effect, and counts its crash after the effect: every crash
	// after an Apply finds the checkpoint where the book's would be, and
	// only a crash between that commit and the effect loses the item
	commitAhead      bool
	goOnAfterRefusal bool // a refused commit does not stop the run
	staleEpochOK     bool // Commit compares offsets only, never epochs
	offsetBackOK     bool // Commit lets the offset move back within an epoch
	equalRefused     bool // Commit refuses an equal offset (ErrStaleOffset)
}

func init() {
	for _, v := range []struct {
		name string
		m    mistakes
	}{
		{"resume-from-zero", mistakes{resumeFromZero: true}},
		{"cadence-from-zero", mistakes{cadenceFromZero: true}},
		{"commit-before-apply", mistakes{commitBeforeApply: true}},
		{"commit-ahead", mistakes{commitAhead: true}},
		{"go-on-after-refusal", mistakes{goOnAfterRefusal: true}},
		{"stale-epoch-accepted", mistakes{staleEpochOK: true}},
		{"offset-back-accepted", mistakes{offsetBackOK: true}},
		{"equal-offset-refused", mistakes{equalRefused: true}},
	} {
		wrong = append(wrong, variant{v.name, "runner", &harness.Students{Runner: v.m.mechanism()}})
	}
}

func (m mistakes) mechanism() *harness.ShardMechanism {
	return &harness.ShardMechanism{
		NewCheckpoint: func() harness.Checkpoint {
			return &flawedCheckpoint{m: m, offsets: map[string]int{}, epochs: map[string]uint64{}}
		},
		NewRunner: func(sink shardjob.Effects, cp shardjob.Progress, epoch uint64, every int) harness.ShardRunner {
			return &flawedRunner{m: m, sink: sink, cp: cp, epoch: epoch, every: every}
		},
	}
}

type flawedCheckpoint struct {
	m       mistakes
	offsets map[string]int
	epochs  map[string]uint64
}

func (c *flawedCheckpoint) Load(shard string) int     { return c.offsets[shard] }
func (c *flawedCheckpoint) Epoch(shard string) uint64 { return c.epochs[shard] }

func (c *flawedCheckpoint) Commit(shard string, epoch uint64, offset int) error {
	cur, at := c.epochs[shard], c.offsets[shard]
	switch {
	case c.m.staleEpochOK && offset < at:
		return fmt.Errorf("commit %s offset %d < %d: %w", shard, offset, at, shardjob.ErrStaleOffset)
	case c.m.staleEpochOK:
	case epoch < cur:
		return fmt.Errorf("commit %s epoch %d: %w", shard, epoch, shardjob.ErrStaleEpoch)
	case epoch == cur && offset < at && !c.m.offsetBackOK,
		epoch == cur && offset == at && c.m.equalRefused:
		return fmt.Errorf("commit %s offset %d < %d: %w", shard, offset, at, shardjob.ErrStaleOffset)
	}
	c.epochs[shard], c.offsets[shard] = epoch, offset
	return nil
}

type flawedRunner struct {
	m     mistakes
	sink  shardjob.Effects
	cp    shardjob.Progress
	epoch uint64
	every int
}

func (r *flawedRunner) Run(shard string, items []string, crashAfter int) (shardjob.Result, error) {
	start := r.cp.Load(shard)
	res := shardjob.Result{Checkpoint: start}
	if r.m.resumeFromZero {
		start = 0
	}
	base := start
	if r.m.cadenceFromZero {
		base = 0
	}
	var refused error
	commit := func(offset int) bool {
		if err := r.cp.Commit(shard, r.epoch, offset); err != nil {
			refused = err
			return r.m.goOnAfterRefusal
		}
		res.Checkpoint = offset
		return true
	}
	crash := func(i int) error {
		return fmt.Errorf("crash after %d attempts at offset %d: %w", res.Attempts, i, shardjob.ErrInjectedCrash)
	}
	for i := start; i < len(items); i++ {
		res.Attempts++
		boundary := r.every > 0 && (i+1-base)%r.every == 0
		if r.m.commitBeforeApply {
			// The offset first; a crash between it and the effect loses
			// the item.
			if boundary && !commit(i+1) {
				return res, refused
			}
			if crashAfter > 0 && res.Attempts == crashAfter {
				return res, crash(i)
			}
		}
		if r.m.commitAhead && boundary && !commit(i+1) {
			return res, refused
		}
		if r.sink.Apply(items[i]) {
			res.Applied++
		} else {
			res.Suppressed++
		}
		if r.m.commitBeforeApply {
			continue
		}
		if crashAfter > 0 && res.Attempts == crashAfter {
			return res, crash(i)
		}
		if !r.m.commitAhead && boundary && !commit(i+1) {
			return res, refused
		}
	}
	if !commit(len(items)) || refused != nil {
		return res, refused
	}
	return res, nil
}

// TestRunnerUnitSaysWhatDiffers: a failing unit names the book's values.
func TestRunnerUnitSaysWhatDiffers(t *testing.T) {
	err := unitRunCrashResume(&harness.Students{Runner: mistakes{resumeFromZero: true}.mechanism()})
	var f *UnitFailure
	if !errors.As(err, &f) || f.Key != "check.unit.runner.rerun-err" {
		t.Fatalf("resume from zero: %v, want the rerun refused by the checkpoint", err)
	}
	err = unitRunCrashResume(&harness.Students{Runner: mistakes{commitBeforeApply: true}.mechanism()})
	if !errors.As(err, &f) || f.Key != "check.unit.runner.rerun" {
		t.Fatalf("commit before apply: %v, want the rerun's counts", err)
	}
	want := "the rerun: 220 attempts, 6 suppressed, checkpoint 250 (stored 250); the book's: 220 attempts from 30, 7 suppressed, checkpoint 250"
	if f.Error() != want {
		t.Errorf("text %q, want %q", f.Error(), want)
	}
}

// TestRunnerChecksAreTheBooks: exercise runner is checked with exactly the
// drills and schedules the book's own Runner.Run and Checkpoint pass. Its
// drills are every §11.2 drill that runs the mechanism (a stub mechanism
// makes it not started), and the book's mechanism passes each; the one it
// leaves out (split-bounds) only splits. Its scope is fence-at-takeover,
// where the book's Runner breaks nothing; fence-at-first-commit, where the
// book's Runner lets a zombie move the checkpoint, is shard-loop's lesson.
func TestRunnerChecksAreTheBooks(t *testing.T) {
	e, err := Lookup("runner")
	if err != nil {
		t.Fatal(err)
	}
	section, err := drills.InSection(e.Section.ID)
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, d := range section {
		src, err := e.Source(d)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := drills.Parse(d.Name+".txtar", src)
		if err != nil {
			t.Fatal(err)
		}
		res, err := fd.RunIn(fd.Defaults(), harness.Env{Student: exercises.Students()})
		if err == nil {
			err = res.Err
		}
		if errors.Is(err, exercises.ErrNotImplemented) {
			uses = append(uses, d.Name)
			if r := replay(t, string(src), Book()); r.fails {
				t.Errorf("%s fails the book's Runner and Checkpoint: %v", d.Name, r.checks)
			}
		} else if err != nil {
			t.Errorf("%s with the stub: %v", d.Name, err)
		}
	}
	if !slices.Equal(uses, e.Drills) {
		t.Errorf("the §11.2 drills that run the mechanism are %v; runner checks %v", uses, e.Drills)
	}

	rep, err := explore.Shardjob(ctx, explore.DefaultShardjob, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range rep.Strategies {
		switch st.Name {
		case "fence-at-takeover":
			if st.Shortest != nil {
				t.Errorf("the book's Runner breaks fence-at-takeover: %s", st.Shortest.Line(i18n.EN))
			}
		case "fence-at-first-commit":
			if st.Shortest == nil {
				t.Error("the book's Runner breaks nothing without the fence: then runner should be checked there too")
			}
		}
	}
	mine, err := explore.StudentRunner(ctx, explore.StudentShardjobScope, Book())
	if err != nil {
		t.Fatal(err)
	}
	if st := mine.Strategies[0]; st.Shortest != nil || st.Schedules != rep.Schedules {
		t.Errorf("the book's mechanism as the student's: %d schedules of %d, shortest %v", st.Schedules, rep.Schedules, st.Shortest)
	}
}

// TestStudentExercisesAreTheCheckers: a drill file's "exercise NAME" line
// knows the exercises archlab check lists, by the same names, and each one's
// part of the student's code is the one its exercise plugs in.
func TestStudentExercisesAreTheCheckers(t *testing.T) {
	var names []string
	for _, e := range harness.StudentExercises {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, Names()) {
		t.Fatalf("harness.StudentExercises %v, check.Exercises %v", names, Names())
	}
	all := Book()
	for _, e := range Exercises {
		only := all.Only(e.Name)
		if only == nil || !e.plugged(only) {
			t.Errorf("%s: Only leaves its code out", e.Name)
		}
		for _, other := range Exercises {
			if other != e && other.plugged(only) {
				t.Errorf("%s: Only keeps %s's code too", e.Name, other.Name)
			}
		}
	}
}
