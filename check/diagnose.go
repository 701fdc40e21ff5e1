package check

import (
	"reflect"
	"slices"
	"strings"

	"archlab/drills"
	"archlab/harness"
	"archlab/i18n"
)

// The diagnosis: a failing exercise's shortest run, replayed once with the
// student's code and once with the book's logic (Book) from the same drill
// file, and compared step by step. A run is cut into moves of the world (a
// delivery, a crash, a takeover, the reader's count) and what the code did
// in answer; the first move after which the two answers differ is where
// the student's code parts from the book's.

// isCode says whether a step is the code under test answering (the
// consumer's calls, a worker's calls to the checkpoint and the sink), not
// the world moving (the broker, the splitter, the scenario, the reader, a
// zombie's commit).
func isCode(s harness.Step) bool {
	if s.Actor == "consumer" {
		return true
	}
	return strings.HasPrefix(s.Actor, "worker-") && !strings.HasPrefix(s.Target, "shard-") && s.Phase != harness.Zombie
}

// move is one move of the world and the code's answer to it.
type move struct {
	at     int // the world's step, 0-based in its run
	answer []harness.Step
}

func moves(steps []harness.Step) []move {
	var out []move
	for i, s := range steps {
		if isCode(s) && len(out) > 0 {
			out[len(out)-1].answer = append(out[len(out)-1].answer, s)
			continue
		}
		out = append(out, move{at: i})
		if isCode(s) { // the code moved first, with no world step before
			out[len(out)-1].answer = append(out[len(out)-1].answer, s)
		}
	}
	return out
}

// effects is what an answer did to the world, in order: the outcomes of
// its steps, with ApplyOnce's one transaction standing for what it writes
// (the key and the effect), so that a handler's Mark then Effect, done
// without a crash between, reads as the book's ApplyOnce; and an accepted
// commit (the takeover's fence, which writes the epoch, or a commit of an
// offset) standing for nothing, so that a loop that fences or commits
// another way parts from the book's where it shows: in the checkpoint a
// zombie's commit, a rerun or the reader finds. A result the harness
// names no outcome for counts as it was recorded: two runs of one harness
// record the same result alike.
func effects(answer []harness.Step) []effect {
	var out []effect
	for _, s := range answer {
		switch {
		case s.Op == harness.ApplyOnce && s.Outcome == harness.Applied:
			out = append(out, effect{outcome: harness.Marked}, effect{outcome: harness.Applied})
		case (s.Op == harness.Fence || s.Op == harness.Commit) && s.Outcome == harness.Committed:
			// stands for nothing
		case s.Outcome != harness.NoOutcome:
			out = append(out, effect{outcome: s.Outcome})
		default:
			out = append(out, effect{other: s.Result})
		}
	}
	return out
}

// effect is one thing an answer did: an outcome the harness names, or
// else the result as recorded.
type effect struct {
	outcome harness.Outcome
	other   harness.Msg
}

// sameEffect compares two effects, an unnamed result by its words with
// its arguments aside: they are the run's values (a balance, an offset),
// not what the call did.
func sameEffect(a, b effect) bool { return a.outcome == b.outcome && a.other.Key == b.other.Key }

// sameStep says whether two recorded steps are the same, arguments and all.
func sameStep(a, b harness.Step) bool {
	return a.Actor == b.Actor && a.Target == b.Target && sameMsg(a.Action, b.Action) && sameMsg(a.Result, b.Result)
}

func sameMsg(a, b harness.Msg) bool {
	// DeepEqual, not ==: an argument may be a value == cannot compare.
	return a.Key == b.Key && slices.EqualFunc(a.Args, b.Args, func(x, y any) bool { return reflect.DeepEqual(x, y) })
}

// diagnose replays src (a drill file of strategy student) with s and with
// the book's logic and returns where the two part, or nil if they never do
// (or the file does not replay).
func diagnose(e *Exercise, s *harness.Students, src string) *Diagnosis {
	yours, err := replaySteps(src, s)
	if err != nil {
		return nil
	}
	book, err := replaySteps(src, Book())
	if err != nil {
		return nil
	}
	d := part(book, yours)
	if d == nil {
		return nil
	}
	d.Mistake = mistakeIn(e, yours, d)
	return d
}

// replaySteps runs a drill file with s plugged in and returns its steps.
func replaySteps(src string, s *harness.Students) ([]harness.Step, error) {
	d, err := drills.Parse("shortest.txtar", []byte(src))
	if err != nil {
		return nil, err
	}
	var res *drills.Result
	err = safely(func() error {
		var err error
		res, err = d.RunIn(d.Defaults(), harness.Env{Student: s})
		return err
	})
	if err != nil {
		return nil, err
	}
	return res.Steps, nil
}

// part finds the first move where the runs differ.
func part(book, yours []harness.Step) *Diagnosis {
	bm, ym := moves(book), moves(yours)
	for i := range min(len(bm), len(ym)) {
		b, y := bm[i], ym[i]
		world := book[b.at]
		if !sameStep(world, yours[y.at]) {
			// The world itself moved differently (the broker redelivers
			// what your code left unacked): that move is the parting.
			return &Diagnosis{Step: y.at + 1, At: plainStep(yours[y.at]), Book: plainSteps([]harness.Step{world}), Yours: plainSteps([]harness.Step{yours[y.at]})}
		}
		if !slices.EqualFunc(effects(b.answer), effects(y.answer), sameEffect) {
			return &Diagnosis{Step: y.at + 1, At: plainStep(world), Book: plainSteps(b.answer), Yours: plainSteps(y.answer)}
		}
	}
	return nil
}

func plainStep(s harness.Step) harness.Step {
	s.Action.Args, s.Result.Args = plain(s.Action.Args), plain(s.Result.Args)
	return s
}

func plainSteps(steps []harness.Step) []harness.Step {
	out := []harness.Step{}
	for _, s := range steps {
		out = append(out, plainStep(s))
	}
	return out
}

// Mistake is a known mistake: its catalogue key (check.mistake.KEY, in zh
// and en) and how it shows: in the student's run (In), or where it parts
// from the book's (At). A mechanism's mistake shows in what its calls
// return where the book's return something else, so At suits it.
type Mistake struct {
	Key string
	In  func(steps []harness.Step) bool
	At  func(d *Diagnosis) bool
	// Harms are the lessons (a drill's or the explorer's check names)
	// whose breaking this mistake explains: it is named only when the
	// run's headline lesson is one of them. None: any.
	Harms []string
}

// mistakeIn is the first of e's known mistakes the run shows, "" for none.
func mistakeIn(e *Exercise, steps []harness.Step, d *Diagnosis) string {
	for _, m := range e.Mistakes {
		if (m.In != nil && m.In(steps)) || (m.At != nil && m.At(d)) {
			return m.Key
		}
	}
	return ""
}

// parting is a mistake that shows where the runs part: the book's answer
// has one of the outcomes book where yours has one of yours.
func parting(book, yours []harness.Outcome) func(*Diagnosis) bool {
	return func(d *Diagnosis) bool { return has(d.Book, book) && has(d.Yours, yours) }
}

// has says whether a step of steps came out one of outcomes.
func has(steps []harness.Step, outcomes []harness.Outcome) bool {
	return slices.ContainsFunc(steps, func(s harness.Step) bool { return slices.Contains(outcomes, s.Outcome) })
}

// of is a list of outcomes, for parting.
func of(o ...harness.Outcome) []harness.Outcome { return o }

// counted is a mistake that shows as a number of the parting step's result
// (its arg-th argument) larger (more) or smaller than the book's, where
// the world's move is op.
func counted(op harness.Op, arg int, more bool) func(*Diagnosis) bool {
	return func(d *Diagnosis) bool {
		if d.At.Op != op || len(d.Book) != 1 || len(d.Yours) != 1 {
			return false
		}
		b, y := d.Book[0].Result.Args, d.Yours[0].Result.Args
		if len(b) <= arg || len(y) <= arg {
			return false
		}
		bn, ok1 := b[arg].(int64)
		yn, ok2 := y[arg].(int64)
		return ok1 && ok2 && (yn > bn) == more && yn != bn
	}
}

// MistakeText is a known mistake's name and why it is one, in lang.
func MistakeText(lang i18n.Lang, key string) string { return i18n.T(lang, "check.mistake."+key) }

// answers are the code's answers to each move of a run.
func answers(steps []harness.Step) [][]harness.Step {
	var out [][]harness.Step
	for _, m := range moves(steps) {
		out = append(out, m.answer)
	}
	return out
}

// inAnswer is a mistake that shows within one answer: calls, in this
// order (others may come between), all in the same answer.
func inAnswer(ops ...harness.Op) func([]harness.Step) bool {
	return func(steps []harness.Step) bool {
		for _, a := range answers(steps) {
			k := 0
			for _, s := range a {
				if k < len(ops) && s.Op == ops[k] {
					k++
				}
			}
			if k == len(ops) {
				return true
			}
		}
		return false
	}
}

// nowhere is a mistake that shows as a call the run never makes, though it
// answers something.
func nowhere(ops ...harness.Op) func([]harness.Step) bool {
	return func(steps []harness.Step) bool {
		answered := false
		for _, s := range steps {
			if isCode(s) {
				answered = true
				if slices.Contains(ops, s.Op) {
					return false
				}
			}
		}
		return answered
	}
}

// resultIn is a mistake that shows as one of these outcomes anywhere in
// the run.
func resultIn(outcomes ...harness.Outcome) func([]harness.Step) bool {
	return func(steps []harness.Step) bool { return has(steps, outcomes) }
}

// The lessons that name a loss and those that name a double apply: a
// mistake that explains the one is not named over the other.
var (
	lossLessons   = []string{"not-lost", "exactly-once", "each-key-once", "one-effect-per-producer", "applied-or-dead"}
	doubleLessons = []string{"not-doubled", "effects-once", "balance-once", "redelivery-suppressed", "balance", "not-applied-twice"}
)

// The outcomes a mistake takes as one: a dead letter, whatever its reason;
// a duplicate, taken for one or refused as a conflict; an effect applied,
// once or again.
var (
	deadLetters = of(harness.Dead, harness.DeadEarly, harness.DeadPoison)
	duplicates  = of(harness.Duplicate, harness.DuplicateRetried, harness.DuplicateDead)
	applies     = of(harness.Applied, harness.AppliedAgain)
)

// The protocol exercises' known mistakes.
var (
	handlerMistakes = []Mistake{
		{Key: "mark-before-effect", In: inAnswer(harness.Mark, harness.Effect), Harms: lossLessons},
		{Key: "two-transactions", In: inAnswer(harness.Effect, harness.Mark), Harms: doubleLessons},
		{Key: "ack-first", Harms: lossLessons, In: func(steps []harness.Step) bool {
			for _, op := range []harness.Op{harness.ApplyOnce, harness.Mark, harness.Effect, harness.NaiveApply,
				harness.Store} { // a durable inbox's row, stored after the ack
				if inAnswer(harness.Ack, op)(steps) {
					return true
				}
			}
			return false
		}},
		// An inbox table of its own and no recovery that ever processed a
		// row: a row acked and left (a crash after the ack, a failed
		// processing) is never come back to.
		{Key: "no-recovery", Harms: lossLessons, In: func(steps []harness.Step) bool {
			return slices.ContainsFunc(steps, func(s harness.Step) bool { return s.Op == harness.Store }) &&
				nowhere(harness.Recover)(steps)
		}},
		// Process is the book's ApplyOnce for a stored row: its key.
		{Key: "no-key", In: nowhere(harness.Mark, harness.ApplyOnce, harness.Process), Harms: doubleLessons},
		{Key: "no-ack", In: nowhere(harness.Ack), Harms: []string{"all-acked", "acked-last"}},
		// A notify message never called, though a delivery of it got past
		// its commit: a redelivery that found the key and skipped the call.
		{Key: "notify-only-when-new", Harms: []string{"outside-called"}, In: resultIn(harness.Duplicate)},
	}
	decisionMistakes = []Mistake{
		{Key: "duplicate-as-conflict", In: resultIn(harness.DuplicateDead, harness.DuplicateRetried),
			Harms: []string{"duplicate-not-refused", "duplicate-moves-on", "nothing-dead"}},
		{Key: "past-budget", In: resultIn(harness.PastBudget), Harms: []string{"within-budget", "spent-exactly"}},
		{Key: "poison-retried", At: parting(of(harness.DeadPoison), of(harness.Conflict)),
			Harms: []string{"poison", "first-attempt", "all-dead", "within-budget"}},
		{Key: "dead-before-budget", At: parting(of(harness.Conflict), deadLetters),
			Harms: []string{"converges-with-budget", "not-diverged", "spent-exactly", "default-is-three", "out-of-order", "applied-or-dead"}},
	}
	loopMistakes = []Mistake{
		{Key: "no-fence", In: resultIn(harness.ZombieMoved),
			Harms: []string{"zombie-never-moves", "fence-refuses-the-zombie", "zombie-fenced", "never-back", "window-open", "fenced-after-first-commit"}},
	}

	// The mechanism exercises' known mistakes, as they show where the
	// student's mechanism answers otherwise than the book's.
	ledgerMistakes = []Mistake{
		{Key: "key-without-producer", At: parting(applies, of(harness.TakenForDuplicate))},
		{Key: "prune-too-much", At: counted(harness.Prune, 0, true)},
		{Key: "prune-too-little", At: counted(harness.Prune, 0, false)},
	}
	projectionMistakes = []Mistake{
		{Key: "gap-applied", At: func(d *Diagnosis) bool {
			// Where the book's gate refused the gap (a conflict, or on the
			// last attempt a dead letter), yours applied it.
			return parting(of(harness.Conflict), of(harness.Applied))(d) || parting(deadLetters, of(harness.Applied))(d)
		}},
		{Key: "version-back", At: parting(duplicates, of(harness.Applied))},
		{Key: "duplicate-as-conflict", In: resultIn(harness.DuplicateDead, harness.DuplicateRetried)},
		{Key: "poison-retried", At: parting(of(harness.DeadPoison), of(harness.Conflict))},
		{Key: "past-budget", At: parting(deadLetters, of(harness.Conflict))},
		{Key: "dead-before-budget", At: parting(of(harness.Conflict), deadLetters)},
	}
	runnerMistakes = []Mistake{
		{Key: "resume-from-zero", At: counted(harness.TakeOver, 1, true)},
		{Key: "stale-epoch-accepted", At: parting(of(harness.Refused), of(harness.ZombieMoved))},
		{Key: "stale-offset-accepted", At: parting(of(harness.Refused), of(harness.Committed))},
		// The book answered nothing there, yours with an error.
		{Key: "equal-offset-refused", At: func(d *Diagnosis) bool {
			return len(d.Book) == 0 && has(d.Yours, of(harness.Refused))
		}},
	}
)
