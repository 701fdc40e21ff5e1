package drills

import (
	"errors"
	"fmt"
	"strings"

	"archlab/harness"
	"archlab/i18n"
)

// drill turns a parsed file into a Drill and registers its words in the
// catalogue, so the command renders its title and checks like any other.
func (f *file) drill() *Drill {
	d := &Drill{Name: f.name, Section: f.section.ID, Params: f.params, LabOnly: f.lab, Strategy: f.strategy, Path: f.path, file: f}
	for _, e := range f.expect {
		d.Book = append(d.Book, Counter{Name: e.name, Value: e.value})
	}
	for lang, t := range f.texts {
		for key, text := range t {
			kind, arg, _ := strings.Cut(key, " ")
			switch kind {
			case "title":
				i18n.Register(lang, d.TitleKey(), text)
			case "param":
				i18n.Register(lang, "param."+d.Name+"."+arg, text)
			case "why":
				i18n.Register(lang, "why."+d.Name+"."+arg, text)
			case "check":
				i18n.Register(lang, "check."+d.Name+"."+arg, text)
			case "explain":
				i18n.Register(lang, "explain."+d.Name, text)
			}
		}
	}
	// A file without words still reads: its name as the title, a
	// check's expression as its text.
	for _, lang := range i18n.Langs {
		if !i18n.Has(lang, d.TitleKey()) {
			i18n.Register(lang, d.TitleKey(), d.Name)
		}
		for _, c := range f.checks {
			if key := "check." + d.Name + "." + c.name; !i18n.Has(lang, key) {
				i18n.Register(lang, key, c.name)
			}
		}
		for _, p := range f.params {
			if key := p.UsageKey(d.Name); !i18n.Has(lang, key) {
				i18n.Register(lang, key, p.Name)
			}
		}
	}
	return d
}

// run executes the file's steps on a fresh harness, then computes its
// counters and checks into rec. A step the scenario got wrong is a
// *FileError naming its line.
func (f *file) run(v Values, hEnv harness.Env, rec *harness.Recorder, calls *[]Executed) (err error) {
	h, err := f.section.New(f.strategy, hEnv, rec)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, h.Finish()) }()
	e := &env{params: v, counters: map[string]any{}, bound: map[string]harness.Fields{}, vars: map[string]int{}, h: h, calls: calls}
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
	budget := maxSteps
	for _, st := range f.steps {
		if err := f.exec(st, e, rec, &budget); err != nil {
			return err
		}
	}
	for _, c := range f.counters {
		if c.loop == "" {
			val, err := c.x.eval(e)
			if err != nil {
				return f.fail(c.line, "counter %s: %v", c.name, err)
			}
			e.counters[c.name] = val
			rec.Count(c.name, val)
			continue
		}
		lim, err := c.limit.eval(e)
		n, ok := lim.(int)
		if err != nil || !ok {
			return f.fail(c.line, "counter %s: the loop's limit is %v %v", c.name, lim, err)
		}
		for i := range min(n, maxRepeat) {
			e.vars[c.loop] = i
			val, err := c.x.eval(e)
			if err != nil {
				return f.fail(c.line, "counter %s: %v", c.name, err)
			}
			name := strings.ReplaceAll(c.name, "{"+c.loop+"}", fmt.Sprint(i))
			e.counters[name] = val
			rec.Count(name, val)
		}
		delete(e.vars, c.loop)
	}
	for _, c := range f.checks {
		val, err := c.x.eval(e)
		if err != nil {
			return f.fail(c.line, "check %s: %v", c.name, err)
		}
		ok, isBool := val.(bool)
		if !isBool {
			return f.fail(c.line, "check %s is %v, not true or false", c.name, val)
		}
		if c.shows {
			rec.Shows("check."+f.name+"."+c.name, ok)
		} else {
			rec.Check("check."+f.name+"."+c.name, ok)
		}
	}
	return nil
}

func (f *file) fail(line int, format string, a ...any) error {
	return &FileError{File: f.path, Line: line, Msg: fmt.Sprintf(format, a...)}
}

// exec runs one step, its repeats and its guard.
func (f *file) exec(st stmt, e *env, rec *harness.Recorder, budget *int) error {
	if st.phase != nil {
		rec.Phase(*st.phase)
		return nil
	}
	if st.when != nil {
		val, err := st.when.eval(e)
		if err != nil {
			return f.fail(st.line, "when: %v", err)
		}
		ok, isBool := val.(bool)
		if !isBool {
			return f.fail(st.line, "when's condition is %v, not true or false", val)
		}
		if !ok {
			return nil
		}
	}
	times := 1
	if st.repeat != nil {
		val, err := st.repeat.eval(e)
		n, ok := val.(int)
		switch {
		case err != nil:
			return f.fail(st.line, "repeat: %v", err)
		case !ok || n < 0 || n > maxRepeat:
			return f.fail(st.line, "repeat's count is %v; it must be a number from 0 to %d", val, maxRepeat)
		}
		times = n
	}
	for i := range times {
		if st.as != "" {
			e.vars[st.as] = i
		}
		if *budget--; *budget < 0 {
			return f.fail(st.line, "more than %d steps: a drill is a scenario, not a load test", maxSteps)
		}
		c := harness.Call{Verb: st.verb.Name, Args: map[string]any{}}
		for _, a := range st.args {
			val, err := a.eval(e)
			if err != nil {
				return f.fail(st.line, "%s: %s: %v", st.verb.Name, a.name, err)
			}
			c.Args[a.name] = val
		}
		if e.calls != nil {
			*e.calls = append(*e.calls, Executed{Call: c, Row: len(rec.Steps)})
		}
		fields, err := e.h.Exec(c)
		var se *harness.ScenarioError
		if errors.As(err, &se) {
			return f.fail(st.line, "%v", err)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %s: %w", f.path, st.line, st.verb.Name, err)
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
	if a.kind == harness.Number {
		v, err := a.num.eval(e)
		if err != nil {
			return nil, err
		}
		n, ok := v.(int)
		if !ok {
			return nil, fmt.Errorf("is %v, not a number", v)
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
