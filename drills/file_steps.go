package drills

import (
	"slices"
	"strings"

	"archlab/harness"
)

// The steps part of a drill file: each line a verb of the section's
// harness and its arguments, checked against what the file has declared
// so far (parseScope) before anything runs.

// parseScope is what the file has declared so far, for its checks on names.
type parseScope struct {
	f        *file
	bound    map[string][]string // label -> fields
	vars     map[string]bool
	counters map[string]bool
	order    []string
}

// counterList names the plain counters; the expect check that uses it
// runs only when there is one (a loop's counters are named at run time).
func (s *parseScope) counterList() any { return names(s.order) }

// check verifies every name x reads, every call's arity and every kind
// the parser can see.
func (s *parseScope) check(x expr) error {
	var err error
	walk(x, func(y expr) {
		if err != nil {
			return
		}
		switch y := y.(type) {
		case param:
			if !slices.ContainsFunc(s.f.params, func(p Param) bool { return p.Name == y.name }) {
				err = didYouMean(bad("file.err.name.param", y.name, s.paramList()), y.name, s.paramNames())
			}
		case field:
			fields, ok := s.bound[y.label]
			switch {
			case !ok:
				err = didYouMean(bad("file.err.name.label", y.label+"."+y.field, y.label), y.label, s.labels())
			case !slices.Contains(fields, y.field):
				err = didYouMean(bad("file.err.name.field", y.label, y.field, names(fields)), y.field, fields)
			}
		case name:
			if s.vars[y.name] || s.counters[y.name] {
				return
			}
			o, ok := s.f.section.Observable(y.name)
			switch {
			case !ok:
				err = didYouMean(bad("file.err.name.unknown", y.name, s.nameList()), y.name, s.known())
			case o.Args > 0:
				err = bad("file.err.name.needs-args", y.name, o.Args)
			}
		case call:
			if b, ok := lookupBuiltin(y.fn); ok {
				err = b.arity(len(y.args))
				return
			}
			o, ok := s.f.section.Observable(y.fn)
			switch {
			case !ok:
				err = didYouMean(bad("file.err.name.function", y.fn, s.nameList(), builtinNames()), y.fn, append(s.observables(1), builtinNames()...))
			case o.Args != len(y.args):
				err = bad("file.err.call.arity", y.fn, o.Args, len(y.args))
			}
		}
	})
	if err != nil {
		return err
	}
	_, err = kindOfExpr(x)
	return err
}

func builtinNames() names {
	var out names
	for _, b := range builtins {
		out = append(out, b.name)
	}
	return out
}

func (s *parseScope) paramList() any {
	if len(s.f.params) == 0 {
		return bad("file.err.params.none")
	}
	var ps names
	for _, p := range s.f.params {
		ps = append(ps, "$"+p.Name)
	}
	return bad("file.err.params.list", ps)
}

func (s *parseScope) paramNames() []string {
	var out []string
	for _, p := range s.f.params {
		out = append(out, p.Name)
	}
	return out
}

// labels are the names bound with -> so far.
func (s *parseScope) labels() []string {
	var out []string
	for l := range s.bound {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// observables are the section's observables taking at least (or, with
// -1, exactly none) args.
func (s *parseScope) observables(atLeast int) []string {
	var out []string
	for _, o := range s.f.section.Observables {
		if (atLeast < 0 && o.Args == 0) || (atLeast > 0 && o.Args >= atLeast) {
			out = append(out, o.Name)
		}
	}
	return out
}

// known is every plain name the file may read here: its counters so far,
// its variables and the harness's observables.
func (s *parseScope) known() []string {
	out := slices.Clone(s.order)
	for v := range s.vars {
		out = append(out, v)
	}
	return append(out, s.observables(-1)...)
}

func (s *parseScope) nameList() any {
	var ns names
	for _, o := range s.f.section.Observables {
		if o.Args > 0 {
			ns = append(ns, o.Name+"(…)")
		} else {
			ns = append(ns, o.Name)
		}
	}
	return bad("file.err.names.harness", s.f.section.Harness, ns)
}

var phaseNames = map[string]harness.Phase{"[setup]": harness.Setup, "[fault]": harness.Fault, "[recovery]": harness.Recovery,
	"[zombie]": harness.Zombie, "[verdict]": harness.Verdict}

func (f *file) parseSteps(s *parseScope, data []byte, start int, fail failer) error {
	for i, raw := range lines(data) {
		n := start + i
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") {
			p, ok := phaseNames[l]
			if !ok {
				all := []string{"[setup]", "[fault]", "[recovery]", "[zombie]", "[verdict]"}
				return fail(n, didYouMean(bad("file.err.phase", l, namesAnd(all)), l, all))
			}
			f.steps = append(f.steps, stmt{line: n, phase: &p})
			continue
		}
		st, err := s.parseStmt(strings.Fields(l))
		if err != nil {
			return fail(n, err)
		}
		st.line = n
		f.steps = append(f.steps, st)
	}
	if len(f.steps) == 0 {
		return fail(start, bad("file.err.steps.none", f.section.ID))
	}
	return nil
}

func (s *parseScope) parseStmt(tok []string) (stmt, error) {
	var st stmt
	switch tok[0] {
	case "repeat":
		if len(tok) < 3 {
			return st, bad("file.err.repeat.form")
		}
		x, err := s.expr(tok[1])
		if err != nil {
			return st, bad("file.err.repeat.count", err)
		}
		// A count known now is checked now: no run needed to learn that
		// repeat 1000000 is more steps than a run may take.
		if v, ok := constant(x); ok {
			if err := repeatCount(v, s.f.budget); err != nil {
				return st, err
			}
		}
		rest := tok[2:]
		as := ""
		if rest[0] == "as" {
			if len(rest) < 3 || !identRE.MatchString(rest[1]) {
				return st, bad("file.err.repeat.as")
			}
			as, rest = rest[1], rest[2:]
			s.vars[as] = true
		}
		if rest[0] == "repeat" {
			// The inner count used to replace the outer one: repeat 2
			// repeat 3 X ran X twice.
			return st, bad("file.err.repeat.nested")
		}
		inner, err := s.parseStmt(rest)
		delete(s.vars, as)
		if err != nil {
			return st, err
		}
		if inner.when != nil {
			return st, bad("file.err.when.after-repeat")
		}
		inner.repeat, inner.as = x, as
		return inner, nil
	case "when":
		if len(tok) < 3 {
			return st, bad("file.err.when.form")
		}
		x, err := s.expr(tok[1])
		if err != nil {
			return st, bad("file.err.when.cond", err)
		}
		inner, err := s.parseStmt(tok[2:])
		if err != nil {
			return st, err
		}
		if inner.when != nil {
			return st, bad("file.err.when.twice")
		}
		inner.when = x
		return inner, nil
	}
	v, ok := s.f.section.Verb(tok[0])
	if !ok {
		var all []string
		for _, v := range s.f.section.Verbs {
			all = append(all, v.Name)
		}
		if near := Nearest(tok[0], all, 1); len(near) > 0 {
			return st, bad("file.err.verb.unknown-near", tok[0], s.f.section.Harness, near[0], names(all))
		}
		return st, bad("file.err.verb.unknown", tok[0], s.f.section.Harness, names(all))
	}
	st.verb = v
	args := tok[1:]
	if n := len(args); n >= 2 && args[n-2] == "->" {
		if v.Binds == nil {
			return st, bad("file.err.bind.nothing", v.Name)
		}
		st.bind = args[n-1]
		if !identRE.MatchString(st.bind) {
			return st, bad("file.err.bind.name", st.bind)
		}
		args = args[:n-2]
	} else if slices.Contains(args, "->") {
		return st, bad("file.err.bind.last", v.Name)
	}
	given := map[string]bool{}
	pos := 0
	for _, a := range args {
		var spec harness.Arg
		val := a
		if k, vv, ok := strings.Cut(a, "="); ok && k != "" && !strings.ContainsAny(k, "{(\"$") {
			sp, found := v.Arg(k)
			if !found || sp.Kind == harness.Choice {
				var opts []string
				for _, x := range v.Args {
					if x.Kind != harness.Choice {
						opts = append(opts, x.Name)
					}
				}
				return st, didYouMean(bad("file.err.verb.option", v.Name, k, v.Usage()), k, opts)
			}
			spec, val = sp, vv
		} else if i := slices.IndexFunc(v.Args, func(x harness.Arg) bool { return x.Kind == harness.Choice && slices.Contains(x.Choices, a) }); i >= 0 {
			spec = v.Args[i]
		} else {
			for pos < len(v.Args) && v.Args[pos].Optional {
				pos++
			}
			if pos == len(v.Args) {
				var choices []string
				for _, x := range v.Args {
					choices = append(choices, x.Choices...)
				}
				return st, didYouMean(bad("file.err.verb.unexpected", v.Name, a, v.Usage()), a, choices)
			}
			spec = v.Args[pos]
			pos++
		}
		if given[spec.Name] {
			return st, bad("file.err.verb.twice", v.Name, spec.Name)
		}
		given[spec.Name] = true
		ae, err := s.argExpr(spec, val)
		if err != nil {
			return st, bad("file.err.verb.arg", v.Name, spec.Name, err)
		}
		if ae.num != nil {
			if c, ok := constant(ae.num); ok {
				if err := checkNumber(v.Name, spec, c, s.f.budget); err != nil {
					return st, err
				}
			}
		}
		st.args = append(st.args, ae)
	}
	for _, sp := range v.Args {
		if !sp.Optional && !given[sp.Name] {
			return st, bad("file.err.verb.needs", v.Name, strings.ToUpper(sp.Name), v.Usage())
		}
	}
	if st.bind != "" {
		s.bound[st.bind] = v.Binds
	}
	return st, nil
}

// repeatCount checks a repeat's count: a number from 0 to b's steps.
func repeatCount(v any, b Budget) error {
	n, ok := v.(int)
	switch {
	case !ok:
		return bad("file.err.repeat.not-number", harness.Format(v))
	case n < 0:
		return bad("file.err.repeat.negative", n)
	case n > b.Steps:
		return bad("file.err.budget.repeat", n, b.Steps)
	}
	return nil
}

// checkNumber checks a Number argument's value against its verb's row:
// a size against b, a bounded number against its limit.
func checkNumber(verb string, spec harness.Arg, v any, b Budget) error {
	n, ok := v.(int)
	switch {
	case !ok:
		return bad("file.err.verb.arg", verb, spec.Name, bad("file.err.not-number", harness.Format(v)))
	case spec.Size:
		return (&env{budget: b}).size(verb, spec.Name, n)
	case spec.Limit != [2]int{} && (n < spec.Limit[0] || n > spec.Limit[1]):
		return bad("file.err.verb.limit", verb, spec.Name, spec.Limit[0], spec.Limit[1], n)
	}
	return nil
}

func (s *parseScope) expr(src string) (expr, error) {
	x, err := parseExpr(src)
	if err != nil {
		return nil, err
	}
	return x, s.check(x)
}

func (s *parseScope) argExpr(spec harness.Arg, val string) (argExpr, error) {
	ae := argExpr{spec: spec}
	if spec.Kind == harness.Number {
		src := val
		if strings.HasPrefix(src, "{") && strings.HasSuffix(src, "}") {
			src = src[1 : len(src)-1]
		}
		x, err := s.expr(src)
		ae.num = x
		if err == nil {
			if k, _ := kindOfExpr(x); k != anyKind && k != intKind {
				err = bad("file.err.not-number-kind", bad(k.key()))
			}
		}
		return ae, err
	}
	for val != "" {
		i := strings.IndexByte(val, '{')
		if i < 0 {
			ae.word = append(ae.word, wordPart{text: val})
			break
		}
		j := strings.IndexByte(val[i:], '}')
		if j < 0 {
			return ae, bad("file.err.word.unclosed", val)
		}
		if i > 0 {
			ae.word = append(ae.word, wordPart{text: val[:i]})
		}
		x, err := s.expr(val[i+1 : i+j])
		if err != nil {
			return ae, err
		}
		ae.word = append(ae.word, wordPart{x: x})
		val = val[i+j+1:]
	}
	if len(ae.word) == 0 {
		return ae, bad("file.err.word.empty")
	}
	return ae, nil
}
