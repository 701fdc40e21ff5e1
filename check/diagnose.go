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

// effects is what an answer did to the world, in order: the results of its
// steps, with ApplyOnce's one transaction standing for what it writes (the
// key and the effect), so that a handler's Mark then Effect, done without a
// crash between, reads as the book's ApplyOnce; and an accepted commit
// (the takeover's fence, which writes the epoch, or a commit of an offset)
// standing for nothing, so that a loop that fences or commits another way
// parts from the book's where it shows: in the checkpoint a zombie's
// commit, a rerun or the reader finds.
func effects(answer []harness.Step) []string {
	var out []string
	for _, s := range answer {
		switch {
		case s.Action.Key == "step.apply-once" && s.Result.Key == "res.applied":
			out = append(out, "res.marked", "res.applied")
			continue
		case (s.Action.Key == "step.fence" || s.Action.Key == "step.commit") && s.Result.Key == "res.committed":
			continue
		}
		out = append(out, s.Result.Key)
	}
	return out
}

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
		if !slices.Equal(effects(b.answer), effects(y.answer)) {
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
// has the result book where yours has the result yours.
func parting(book, yours string) func(*Diagnosis) bool {
	return func(d *Diagnosis) bool {
		has := func(steps []harness.Step, key string) bool {
			return slices.ContainsFunc(steps, func(s harness.Step) bool { return strings.HasPrefix(s.Result.Key, key) })
		}
		return has(d.Book, book) && has(d.Yours, yours)
	}
}

// counted is a mistake that shows as a number of the parting step's result
// (its arg-th argument) larger (more) or smaller than the book's.
func counted(action string, arg int, more bool) func(*Diagnosis) bool {
	return func(d *Diagnosis) bool {
		if d.At.Action.Key != action || len(d.Book) != 1 || len(d.Yours) != 1 {
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

// inAnswer is a mistake that shows within one answer: keys, in this order
// (others may come between), all in the same answer.
func inAnswer(keys ...string) func([]harness.Step) bool {
	return func(steps []harness.Step) bool {
		for _, a := range answers(steps) {
			k := 0
			for _, s := range a {
				if k < len(keys) && s.Action.Key == keys[k] {
					k++
				}
			}
			if k == len(keys) {
				return true
			}
		}
		return false
	}
}

// nowhere is a mistake that shows as a step the run never takes, though it
// answers something.
func nowhere(keys ...string) func([]harness.Step) bool {
	return func(steps []harness.Step) bool {
		answered := false
		for _, s := range steps {
			if isCode(s) {
				answered = true
				if slices.Contains(keys, s.Action.Key) {
					return false
				}
			}
		}
		return answered
	}
}

// resultIn is a mistake that shows as one of these results anywhere in the
// run.
func resultIn(keys ...string) func([]harness.Step) bool {
	return func(steps []harness.Step) bool {
		return slices.ContainsFunc(steps, func(s harness.Step) bool { return slices.Contains(keys, s.Result.Key) })
	}
}

// The lessons that name a loss and those that name a double apply: a
// mistake that explains the one is not named over the other.
var (
	lossLessons   = []string{"not-lost", "exactly-once", "each-key-once", "one-effect-per-producer", "applied-or-dead"}
	doubleLessons = []string{"not-doubled", "effects-once", "balance-once", "redelivery-suppressed", "balance", "not-applied-twice"}
)

// The protocol exercises' known mistakes.
var (
	handlerMistakes = []Mistake{
		{Key: "mark-before-effect", In: inAnswer("step.mark", "student.step.effect"), Harms: lossLessons},
		{Key: "two-transactions", In: inAnswer("student.step.effect", "step.mark"), Harms: doubleLessons},
		{Key: "ack-first", Harms: lossLessons, In: func(steps []harness.Step) bool {
			return inAnswer("step.ack", "step.apply-once")(steps) || inAnswer("step.ack", "step.mark")(steps) ||
				inAnswer("step.ack", "student.step.effect")(steps) || inAnswer("step.ack", "step.naive-apply")(steps) ||
				inAnswer("step.ack", "durable.step.store")(steps) // a durable inbox's row, stored after the ack
		}},
		// An inbox table of its own and no recovery that ever processed a
		// row: a row acked and left (a crash after the ack, a failed
		// processing) is never come back to.
		{Key: "no-recovery", Harms: lossLessons, In: func(steps []harness.Step) bool {
			return slices.ContainsFunc(steps, func(s harness.Step) bool { return s.Action.Key == "durable.step.store" }) &&
				nowhere("durable.step.restart", "durable.step.settle")(steps)
		}},
		// Process is the book's ApplyOnce for a stored row: its key.
		{Key: "no-key", In: nowhere("step.mark", "step.apply-once", "durable.step.process"), Harms: doubleLessons},
		{Key: "no-ack", In: nowhere("step.ack"), Harms: []string{"all-acked", "acked-last"}},
		// A notify message never called, though a delivery of it got past
		// its commit: a redelivery that found the key and skipped the call.
		{Key: "notify-only-when-new", Harms: []string{"outside-called"}, In: resultIn("res.duplicate")},
	}
	decisionMistakes = []Mistake{
		{Key: "duplicate-as-conflict", In: resultIn("res.outcome.duplicate-dead", "res.outcome.duplicate-retried"),
			Harms: []string{"duplicate-not-refused", "duplicate-moves-on", "nothing-dead"}},
		{Key: "past-budget", Harms: []string{"within-budget", "spent-exactly"}, In: func(steps []harness.Step) bool {
			return slices.ContainsFunc(steps, func(s harness.Step) bool { return s.Action.Key == "student.step.past-budget" })
		}},
		{Key: "poison-retried", At: parting("res.outcome.dead-poison", "res.outcome.conflict"),
			Harms: []string{"poison", "first-attempt", "all-dead", "within-budget"}},
		{Key: "dead-before-budget", At: parting("res.outcome.conflict", "res.outcome.dead"),
			Harms: []string{"converges-with-budget", "not-diverged", "spent-exactly", "default-is-three", "out-of-order", "applied-or-dead"}},
	}
	loopMistakes = []Mistake{
		{Key: "no-fence", In: resultIn("res.zombie-moved"),
			Harms: []string{"zombie-never-moves", "fence-refuses-the-zombie", "zombie-fenced", "never-back", "window-open", "fenced-after-first-commit"}},
	}

	// The mechanism exercises' known mistakes, as they show where the
	// student's mechanism answers otherwise than the book's.
	ledgerMistakes = []Mistake{
		{Key: "key-without-producer", At: parting("res.applied", "res.taken-for-duplicate")},
		{Key: "prune-too-much", At: counted("step.prune", 0, true)},
		{Key: "prune-too-little", At: counted("step.prune", 0, false)},
	}
	projectionMistakes = []Mistake{
		{Key: "gap-applied", At: func(d *Diagnosis) bool {
			// Where the book's gate refused the gap (a conflict, or on the
			// last attempt a dead letter), yours applied it.
			return parting("res.outcome.conflict", "res.outcome.applied")(d) || parting("res.outcome.dead", "res.outcome.applied")(d)
		}},
		{Key: "version-back", At: parting("res.outcome.duplicate", "res.outcome.applied")},
		{Key: "duplicate-as-conflict", In: resultIn("res.outcome.duplicate-dead", "res.outcome.duplicate-retried")},
		{Key: "poison-retried", At: parting("res.outcome.dead-poison", "res.outcome.conflict")},
		{Key: "past-budget", At: parting("res.outcome.dead", "res.outcome.conflict")},
		{Key: "dead-before-budget", At: parting("res.outcome.conflict", "res.outcome.dead")},
	}
	runnerMistakes = []Mistake{
		{Key: "resume-from-zero", At: counted("step.take-over", 1, true)},
		{Key: "stale-epoch-accepted", At: parting("res.err", "res.zombie-moved")},
		{Key: "stale-offset-accepted", At: parting("res.err", "res.committed")},
		{Key: "equal-offset-refused", At: func(d *Diagnosis) bool {
			return len(d.Book) == 0 && parting("", "res.err")(&Diagnosis{Book: d.Yours, Yours: d.Yours})
		}},
	}
)
