package drills

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"archlab/harness"
)

// drill turns a parsed file into a Drill. The drill owns its words
// (texts.go): nothing global changes because a file was read.
func (f *file) drill() *Drill {
	d := &Drill{Name: f.name, Section: f.section.ID, Params: f.params, LabOnly: f.lab, Strategy: f.strategy, Exercise: f.exercise, Path: f.path, file: f}
	for _, e := range f.expect {
		d.Book = append(d.Book, Counter{Name: e.name, Value: e.value})
	}
	return d
}

// run executes the file's steps on a fresh harness, then computes its
// counters and checks into rec, under budget b (budget.go). A step the
// scenario got wrong, or one past a budget, is a *FileError naming its
// line; a run ctx cancelled returns ctx's error. When calls is not nil it
// collects the harness verbs the run called (Result.Calls).
func (f *file) run(ctx context.Context, v Values, hEnv harness.Env, rec *harness.Recorder, b Budget, calls *[]Executed) (err error) {
	ctx, cancel := context.WithTimeoutCause(ctx, b.Time, errTimeBudget)
	defer cancel()
	rec.MaxSteps = b.Trace
	e := &env{params: v, counters: map[string]any{}, bound: map[string]harness.Fields{}, vars: map[string]int{}, budget: b, calls: calls}
	r := &runner{f: f, e: e, rec: rec, b: b, ctx: ctx}
	// The §8.3 broker's own loop asks before every delivery.
	hEnv.Meter = r.meter
	hEnv.Exercise = f.exercise
	if f.strategy == harness.Student {
		// One exercise's code (the protocol ones with no exercise line),
		// the book's everywhere else: a counterexample replays the same
		// whatever else the student has written.
		hEnv.Student = hEnv.Student.Only(f.exercise)
	}
	h, err := f.section.New(f.strategy, hEnv, rec)
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			rec.RecordHarms(f.section, h)
		}
		err = errors.Join(err, h.Finish())
	}()
	e.h = h
	// Every label exists from the start, with zero fields, so a step
	// guarded by "when" can be read whether it ran or not.
	for _, st := range f.steps {
		if st.bind != "" {
			zero := harness.Fields{}
			for _, fld := range st.verb.Binds {
				zero[fld] = 0
			}
			e.bound[st.bind] = zero
		}
	}
	for _, st := range f.steps {
		if err := r.exec(st); err != nil {
			return err
		}
	}
	counted := 0
	count := func(line int, name string, val any) error {
		if counted++; counted > b.Counters {
			return f.fail(line, bad("file.err.budget.counters", name, b.Counters))
		}
		e.counters[name] = val
		rec.Count(name, val)
		return nil
	}
	for _, c := range f.counters {
		r.line = c.line
		if err := r.alive(); err != nil {
			return err
		}
		if c.loop == "" {
			val, err := c.x.eval(e)
			if err != nil {
				return r.evalErr(c.line, bad("file.err.counter", c.name, err))
			}
			if err := count(c.line, c.name, val); err != nil {
				return err
			}
			continue
		}
		lim, err := c.limit.eval(e)
		if err != nil {
			return r.evalErr(c.line, bad("file.err.counter", c.name, bad("file.err.loop.limit", err)))
		}
		n, ok := lim.(int)
		if !ok {
			return f.fail(c.line, bad("file.err.counter", c.name, bad("file.err.loop.limit", bad("file.err.not-number", harness.Format(lim)))))
		}
		// A loop past the budget is refused, not cut short: a table that
		// silently stopped at some row would read as the whole result.
		switch {
		case n > b.Counters:
			return f.fail(c.line, bad("file.err.budget.loop", c.name, n, b.Counters))
		case n > b.Counters-counted:
			return f.fail(c.line, bad("file.err.budget.counters", c.name, b.Counters))
		}
		for i := range n {
			if err := r.alive(); err != nil {
				return err
			}
			e.vars[c.loop] = i
			val, err := c.x.eval(e)
			if err != nil {
				return r.evalErr(c.line, bad("file.err.counter", c.name, err))
			}
			if err := count(c.line, strings.ReplaceAll(c.name, "{"+c.loop+"}", strconv.Itoa(i)), val); err != nil {
				return err
			}
		}
		delete(e.vars, c.loop)
	}
	for _, c := range f.checks {
		r.line = c.line
		if err := r.alive(); err != nil {
			return err
		}
		val, err := c.x.eval(e)
		if err != nil {
			return r.evalErr(c.line, bad("file.err.check", c.name, err))
		}
		ok, isBool := val.(bool)
		if !isBool {
			return f.fail(c.line, bad("file.err.check.not-bool", c.name, harness.Format(val)))
		}
		if c.shows {
			rec.Shows("check."+f.name+"."+c.name, ok)
		} else {
			rec.Check("check."+f.name+"."+c.name, ok)
		}
	}
	return nil
}

func (f *file) fail(line int, err error) error { return fileError(f.path, line, err) }

// runner is one run's progress through the file: where it is, and what
// it has spent of its budget.
type runner struct {
	f          *file
	e          *env
	rec        *harness.Recorder
	b          Budget
	ctx        context.Context
	line       int // the line being run, for an error found inside the harness
	steps      int
	deliveries int
}

// alive is nil while the run may go on: its context neither cancelled
// (Ctrl-C, a closed request) nor past its time budget.
func (r *runner) alive() error {
	if r.ctx.Err() != nil {
		return r.f.stopped(r.ctx, r.line, r.b)
	}
	return nil
}

// meter is harness.Env.Meter: it counts the broker's deliveries against
// the budget and stops a run whose time is up.
func (r *runner) meter() error {
	if r.deliveries++; r.deliveries > r.b.Deliveries {
		return r.f.fail(r.line, bad("file.err.budget.deliveries", r.b.Deliveries))
	}
	return r.alive()
}

// evalErr places an expression's error at line: a budget or a cancelled
// run as it is, anything else as the file's mistake.
func (r *runner) evalErr(line int, err error) error {
	var fe *FileError
	if errors.As(err, &fe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return r.f.fail(line, err)
}

// exec runs one step, its repeats and its guard.
func (r *runner) exec(st stmt) error {
	f, e := r.f, r.e
	r.line = st.line
	if err := r.alive(); err != nil {
		return err
	}
	if st.phase != nil {
		r.rec.Phase(*st.phase)
		return nil
	}
	if st.when != nil {
		val, err := st.when.eval(e)
		if err != nil {
			return r.evalErr(st.line, bad("file.err.when.cond", err))
		}
		ok, isBool := val.(bool)
		if !isBool {
			return f.fail(st.line, bad("file.err.when.not-bool", harness.Format(val)))
		}
		if !ok {
			return nil
		}
	}
	times := 1
	if st.repeat != nil {
		val, err := st.repeat.eval(e)
		if err != nil {
			return r.evalErr(st.line, bad("file.err.repeat.count", err))
		}
		if err := repeatCount(val, r.b); err != nil {
			return f.fail(st.line, err)
		}
		times = val.(int)
	}
	for i := range times {
		if st.as != "" {
			e.vars[st.as] = i
		}
		if r.steps++; r.steps > r.b.Steps {
			return f.fail(st.line, bad("file.err.budget.steps", r.b.Steps))
		}
		if err := r.alive(); err != nil {
			return err
		}
		c := harness.Call{Verb: st.verb.Name, Args: map[string]any{}}
		for _, a := range st.args {
			val, err := a.eval(e)
			if err != nil {
				return r.evalErr(st.line, bad("file.err.verb.arg", st.verb.Name, a.spec.Name, err))
			}
			if a.spec.Kind == harness.Number {
				// Named already: "split: keys 1500000 is past …".
				if err := checkNumber(st.verb.Name, a.spec, val, r.b); err != nil {
					return f.fail(st.line, err)
				}
			}
			c.Args[a.spec.Name] = val
		}
		if e.calls != nil {
			*e.calls = append(*e.calls, Executed{Call: c, Row: len(r.rec.Steps)})
		}
		fields, err := e.h.Exec(c)
		var (
			se *harness.ScenarioError
			fe *FileError
		)
		switch {
		case errors.As(err, &fe):
			return err // the meter: a budget, at this line
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return r.f.stopped(r.ctx, st.line, r.b)
		case errors.As(err, &se):
			return f.fail(st.line, err)
		case err != nil:
			return fmt.Errorf("%s:%d: %s: %w", f.path, st.line, st.verb.Name, err)
		}
		if r.rec.Dropped > 0 {
			return f.fail(st.line, bad("file.err.budget.trace", r.b.Trace))
		}
		if st.bind != "" {
			e.bound[st.bind] = fields
		}
	}
	delete(e.vars, st.as)
	return nil
}

// eval computes an argument's value: a number, or a word with its
// interpolations written in.
func (a argExpr) eval(e *env) (any, error) {
	if a.spec.Kind == harness.Number {
		v, err := a.num.eval(e)
		if err != nil {
			return nil, err
		}
		n, ok := v.(int)
		if !ok {
			return nil, bad("file.err.not-number", harness.Format(v))
		}
		return n, nil
	}
	var b strings.Builder
	for _, p := range a.word {
		if p.x == nil {
			b.WriteString(p.text)
			continue
		}
		v, err := p.x.eval(e)
		if err != nil {
			return nil, err
		}
		b.WriteString(harness.Format(v))
	}
	return b.String(), nil
}
