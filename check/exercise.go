package check

import (
	"context"
	"errors"
	"fmt"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// Exercise is one thing the student writes: a function in exercises/, the
// built-in drills that run with it, and the explorer's scope it must
// survive.
type Exercise struct {
	Name    string           // "consumer-handler"
	Section *harness.Section // the section whose code it plugs into
	File    string           // the file the student edits, "exercises/consumer_handler.go"
	Func    string           // the function in it, "ConsumerHandler"
	// Tier is TierProtocol (the student chooses which verbs to call around
	// the book's mechanism) or TierMechanism (the student writes the
	// mechanism itself, in the book's shape).
	Tier string
	// Units are the book's own test cases for the mechanism, run on the
	// student's code before any drill (mechanism exercises only).
	Units []Unit
	// Mistakes are the known mistakes a failing run is matched against,
	// the most telling first (diagnose.go).
	Mistakes []Mistake
	// Drills are the section's built-in drills that run with the student's
	// code. Only the drills whose scenario asks the student's code anything
	// (and, in §8.2, whose handler is the book's safe one: the others show
	// a wrong design failing, on purpose) make sense to run.
	Drills  []string
	plugged func(*harness.Students) bool
	// model, for a mechanism exercise, is the book's type as the model
	// the student's is compared with, call by call (model.go), and run
	// from two goroutines at once (linear.go).
	model *machine
	// explore runs the explorer's small scope on the student's code, whose
	// counterexamples read in one line; wide, when set, the largest scope
	// the flags allow, where the guarantee means something (nil for §11.2,
	// which is enumerated schedule by schedule).
	explore, wide func(ctx context.Context, s *harness.Students) (*explore.Report, error)
	// probe, when set, is a short fixed run of the student's code, told
	// by what it came to: run first, before any other, and again last
	// (keptState), the two must agree.
	probe func(s *harness.Students) (string, error)
}

// The tiers.
const (
	TierProtocol  = "protocol"
	TierMechanism = "mechanism"
)

// Unit is one of the book's own test cases, the `go test -v` line the book
// prints, run on the student's mechanism. Run returns nil when it passes,
// or a *UnitFailure saying what differs, in the catalogue's words.
type Unit struct {
	Name string // the book's test name, "TestApplyOnceSuppressesDuplicate"
	Run  func(s *harness.Students) error
}

// UnitFailure is a unit check that failed: the catalogue key of what
// differs and its arguments.
type UnitFailure struct {
	Key  string
	Args []any
}

func (f *UnitFailure) Error() string { return i18n.T(i18n.EN, f.Key, f.Args...) }

// DrillExercise is what a drill file of strategy student names on its
// "exercise" line to run this exercise: a mechanism exercise's name, ""
// for a protocol exercise (the section's student run).
func (e *Exercise) DrillExercise() string {
	if e.Tier == TierMechanism {
		return e.Name
	}
	return ""
}

// TitleKey is the catalogue key of the exercise's one-line title.
func (e *Exercise) TitleKey() string { return "check.title." + e.Name }

// ExplainKey is the catalogue key of its explanation (archlab explain).
func (e *Exercise) ExplainKey() string { return "check.explain." + e.Name }

// Hints are the exercise's graduated hints in lang, from the broadest to
// the nearest the answer: catalogue keys check.hints.NAME.1, .2, … as far
// as they go. Each teaches one step of the book's reasoning and leaves the
// code to the student.
func (e *Exercise) Hints(lang i18n.Lang) []string {
	var out []string
	for n := 1; ; n++ {
		key := fmt.Sprintf("check.hints.%s.%d", e.Name, n)
		if !i18n.Has(lang, key) {
			return out
		}
		out = append(out, i18n.T(lang, key))
	}
}

// schedule walks a small scope schedule by schedule, so that a pass can
// count the schedules each fault class struck (Result.Faults); the wide
// scopes go through the states, which count schedules without running
// them one by one.
var schedule = explore.Options{Engine: explore.EngineEnumerate}

// Exercises lists the exercises in the book's order.
var Exercises = []*Exercise{
	{Name: "consumer-handler", Section: &harness.InboxSection, File: "exercises/consumer_handler.go", Func: "ConsumerHandler", Tier: TierProtocol,
		Drills:   []string{"ack-lost", "dedup-scope", "prune-window"},
		Mistakes: handlerMistakes,
		plugged:  func(s *harness.Students) bool { return s.Inbox != nil },
		explore: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentInbox(ctx, explore.StudentInboxScope, s, schedule)
		},
		probe: inboxProbe,
		wide: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentInbox(ctx, explore.StudentInboxWide, s, explore.Options{})
		}},
	// The mechanism itself: the student's Ledger, under the book's Consume.
	{Name: "ledger", Section: &harness.InboxSection, File: "exercises/ledger.go", Func: "Ledger", Tier: TierMechanism,
		model:    ledgerMachine,
		Mistakes: ledgerMistakes,
		Units:    ledgerUnits,
		Drills:   []string{"ack-lost", "dedup-scope", "prune-window", "prune-keeps-newer", "prune-out-of-order", "exactly-once-boundary", "duplicate-delivery"},
		plugged:  func(s *harness.Students) bool { return s.Ledger != nil },
		explore: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentLedger(ctx, explore.StudentInboxScope, s)
		}},
	{Name: "projection-decision", Section: &harness.OrderingSection, File: "exercises/projection_decision.go", Func: "ProjectionDecision", Tier: TierProtocol,
		Drills:   []string{"out-of-order", "poison", "retry-budget", "reconcile", "redelivered-event"},
		Mistakes: decisionMistakes,
		plugged:  func(s *harness.Students) bool { return s.Ordering != nil },
		explore: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentOrdering(ctx, explore.StudentOrderingScope, s, schedule)
		},
		wide: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentOrdering(ctx, explore.StudentOrderingWide, s, explore.Options{})
		}},
	{Name: "projection", Section: &harness.OrderingSection, File: "exercises/projection.go", Func: "Projection", Tier: TierMechanism,
		model:    projectionMachine,
		Mistakes: projectionMistakes,
		Units:    projectionUnits,
		// Every §8.3 drill that runs a projection: with the consumer's
		// (out-of-order … redelivered-event), or with the book's Replay
		// (replay) and Reconcile (reconcile-gaps) over the student's rows.
		// partition-affinity and seek-bounds never touch a projection.
		Drills:  []string{"out-of-order", "poison", "retry-budget", "reconcile", "reconcile-gaps", "replay", "redelivered-event"},
		plugged: func(s *harness.Students) bool { return s.Projection != nil },
		explore: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentProjection(ctx, explore.StudentOrderingScope, s)
		},
		wide: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentProjection(ctx, explore.StudentProjectionWide, s)
		}},
	{Name: "shard-loop", Section: &harness.ShardjobSection, File: "exercises/shard_loop.go", Func: "ShardLoop", Tier: TierProtocol,
		Drills:   []string{"crash-resume", "stale-epoch"},
		Mistakes: loopMistakes,
		plugged:  func(s *harness.Students) bool { return s.Shardjob != nil },
		explore: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentShardjob(ctx, explore.StudentShardjobScope, s)
		}},
	// The mechanism: the student's Runner.Run and Checkpoint where the
	// book's sit. Its drills and schedules are those the book's own
	// Runner.Run and Checkpoint pass (TestRunnerChecksAreTheBooks): every
	// §11.2 drill that runs them, and the scope with the lab's takeover
	// fence around the runner. Without the fence the book's Runner.Run lets
	// a zombie move the checkpoint: shard-loop's lesson, not a fault of the
	// mechanism the student copies from the book.
	{Name: "runner", Section: &harness.ShardjobSection, File: "exercises/runner.go", Func: "Runner.Run/Checkpoint.Commit", Tier: TierMechanism,
		model:    runnerMachine,
		Mistakes: runnerMistakes,
		Units:    runnerUnits,
		Drills:   []string{"crash-resume", "rerun-commit", "zombie-window", "stale-epoch", "commit-cadence", "current-epoch-zombie", "sink-fails"},
		plugged:  func(s *harness.Students) bool { return s.Runner != nil },
		explore: func(ctx context.Context, s *harness.Students) (*explore.Report, error) {
			return explore.StudentRunner(ctx, explore.StudentShardjobScope, s)
		}},
}

// Source is the drill file that runs d with the exercise's code, as
// `archlab drill --file` replays it: strategy student, and for a mechanism
// exercise the line "exercise NAME", which plugs in that exercise's code
// alone (the book's protocol runs around it).
func (e *Exercise) Source(d *drills.Drill) ([]byte, error) {
	return drills.ExerciseSource(d, e.DrillExercise())
}

// ErrUnknownExercise is wrapped by Lookup's error.
var ErrUnknownExercise = errors.New("unknown exercise")

// Lookup finds an exercise by name.
func Lookup(name string) (*Exercise, error) {
	for _, e := range Exercises {
		if e.Name == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownExercise, name)
}

// Names lists the exercises' names in order.
func Names() []string {
	out := make([]string, len(Exercises))
	for i, e := range Exercises {
		out[i] = e.Name
	}
	return out
}
