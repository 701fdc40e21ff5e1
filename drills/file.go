package drills

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"archlab/harness"
	"archlab/i18n"
)

// A drill file is a txtar archive. Its comment is the header: comment lines
// (#) telling the scenario and the lesson, then
//
//	drill NAME                      the drill's name
//	section 8.2                     the book's section; it picks the harness
//	harness inbox                   optional: must agree with the section
//	strategy effect-then-ack        optional: the §8.2 handler
//	param NAME DEFAULT MIN..MAX     a knob; MAX may be an expression or empty
//	lab                             the counters are the lab's, not the book's
//
// and its files are the parts:
//
//	-- steps --     the harness's verbs, one step a line; [setup], [fault],
//	                [recovery], [verdict] start a phase; "repeat N [as i]
//	                STEP" and "when COND STEP" repeat or guard a step;
//	                "STEP -> NAME" binds what the step reports
//	-- counters --  NAME or NAME = EXPR, in the order the table prints them
//	-- checks --    NAME: EXPR, the lesson as checks that must hold
//	-- expect --    NAME VALUE, what the book prints (--rewrite fills it in)
//	-- en --, -- zh --
//	                title: ..., param NAME: ..., why NAME: ...,
//	                check NAME: ..., and explain: followed by the text

// Limits on what a drill file may hold, the same for --file and the web.
const (
	MaxFileBytes = 256 << 10
	maxSteps     = 10_000 // steps executed in one run, repeats included
	maxRepeat    = 100_000
)

// FileError is a bad drill file: where, what is wrong and what is allowed.
// The command prints it on one line and exits 2.
type FileError struct {
	File string
	Line int
	Msg  string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// stmt is one parsed step.
type stmt struct {
	line   int
	phase  *harness.Phase // a phase marker
	repeat expr           // repeat N ...
	as     string         // ... as VAR
	when   expr           // when COND ...
	verb   harness.Verb
	args   []argExpr
	bind   string
}

type argExpr struct {
	name string
	kind harness.Kind
	word []wordPart // Word and Choice: text with {expr} interpolations
	num  expr       // Number
}

type wordPart struct {
	text string
	x    expr
}

type counterSpec struct {
	line  int
	name  string // may hold {VAR}
	x     expr
	loop  string // for VAR < limit
	limit expr
}

type checkSpec struct {
	line  int
	name  string
	x     expr
	shows bool // "shows NAME: EXPR": the check demonstrates a failure
}

type expectLine struct {
	line        int
	name, value string
}

// file is a parsed drill file.
type file struct {
	path      string
	name      string
	data      []byte
	arc       *txtar.Archive
	doc       string
	section   *harness.Section
	strategy  string
	params    []Param
	lab       bool
	steps     []stmt
	counters  []counterSpec
	checks    []checkSpec
	expect    []expectLine
	hasExpect bool
	texts     map[i18n.Lang]map[string]string
}

var (
	nameRE  = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	identRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
)

// Parse reads a drill file. path names it in errors. Every error is a
// *FileError.
func Parse(path string, data []byte) (*Drill, error) {
	f, err := parseFile(path, data)
	if err != nil {
		return nil, err
	}
	return f.drill(), nil
}

func parseFile(path string, data []byte) (*file, error) {
	f := &file{path: path, data: data, texts: map[i18n.Lang]map[string]string{}}
	fail := func(line int, format string, a ...any) error {
		return &FileError{File: path, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	if len(data) > MaxFileBytes {
		return nil, fail(1, "the file is %d bytes; a drill file holds at most %d", len(data), MaxFileBytes)
	}
	if n := badTextLine(data); n > 0 {
		return nil, fail(n, "the file is not UTF-8 text (a drill file is text: save it as UTF-8)")
	}
	// txtar.Parse (go-internal v1.16.0) panics on a marker line with no
	// name, "-- --" (found by FuzzParse); refuse it first.
	i := 0
	for l := range bytes.Lines(data) {
		i++
		l = bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
		if bytes.HasPrefix(l, []byte("-- ")) && bytes.HasSuffix(l, []byte(" --")) && len(bytes.TrimSpace(bytes.Trim(l, "-"))) == 0 {
			return nil, fail(i, "a part's marker needs a name, like -- steps --")
		}
	}
	f.arc = txtar.Parse(data)
	// Line numbers: the comment starts at line 1; each file's content
	// starts the line after its "-- name --" marker.
	fileLine := map[string]int{}
	line := strings.Count(string(f.arc.Comment), "\n") + 1
	for _, af := range f.arc.Files {
		line++ // the marker
		if _, dup := fileLine[af.Name]; dup {
			return nil, fail(line-1, "part %q appears twice", af.Name)
		}
		fileLine[af.Name] = line
		line += strings.Count(string(af.Data), "\n")
	}
	if err := f.parseHeader(fail); err != nil {
		return nil, err
	}
	parts := map[string]bool{"steps": true, "counters": true, "checks": true, "expect": true, "en": true, "zh": true}
	for _, af := range f.arc.Files {
		if !parts[af.Name] {
			return nil, fail(fileLine[af.Name]-1, "unknown part %q; the parts are steps, counters, checks, expect, en and zh", af.Name)
		}
	}
	for _, need := range []string{"steps", "counters", "checks"} {
		if _, ok := fileLine[need]; !ok {
			return nil, fail(line, "no %q part: a drill file needs -- steps --, -- counters -- and -- checks --", need)
		}
	}
	scope := &parseScope{f: f, bound: map[string][]string{}, vars: map[string]bool{}, counters: map[string]bool{}}
	for _, af := range f.arc.Files {
		start := fileLine[af.Name]
		var err error
		switch af.Name {
		case "steps":
			err = f.parseSteps(scope, af.Data, start, fail)
		case "counters":
			err = f.parseCounters(scope, af.Data, start, fail)
		case "checks":
			err = f.parseChecks(scope, af.Data, start, fail)
		case "expect":
			f.hasExpect = true
			err = f.parseExpect(af.Data, start, fail)
		case "en", "zh":
			err = f.parseTexts(i18n.Lang(af.Name), af.Data, start, fail)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(f.checks) == 0 {
		return nil, fail(fileLine["checks"], "no checks: state the lesson as at least one check, NAME: EXPR")
	}
	for _, e := range f.expect {
		if !scope.counters[e.name] && !slices.ContainsFunc(f.counters, func(c counterSpec) bool { return c.loop != "" }) {
			return nil, fail(e.line, "expect names %q, which is not a counter; the counters are %s", e.name, scope.counterList())
		}
	}
	return f, nil
}

// badTextLine is the first line holding invalid UTF-8 or a NUL byte, 0 when
// there is none.
func badTextLine(b []byte) int {
	if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
		return 0 // every file archlab ships: no copy, no split
	}
	for i, l := range strings.Split(string(b), "\n") {
		if !utf8.ValidString(l) || strings.ContainsRune(l, 0) {
			return i + 1
		}
	}
	return 0
}

func lines(data []byte) []string { return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") }

func (f *file) parseHeader(fail func(int, string, ...any) error) error {
	var doc []string
	name, section := "", ""
	strategyLine := 1
	for i, raw := range lines(f.arc.Comment) {
		n := i + 1
		l := strings.TrimSpace(raw)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "#") {
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(l, "#")))
			continue
		}
		fields := strings.Fields(l)
		switch key, rest := fields[0], fields[1:]; key {
		case "drill":
			if len(rest) != 1 || !nameRE.MatchString(rest[0]) {
				return fail(n, "drill takes one name of lowercase letters, digits and dashes, like ack-lost")
			}
			name = rest[0]
		case "section", "harness":
			if len(rest) != 1 {
				return fail(n, "%s takes one value", key)
			}
			s, ok := harness.SectionByName(rest[0])
			if !ok || (key == "section" && s.ID != rest[0]) || (key == "harness" && s.Harness != rest[0]) {
				return fail(n, "unknown %s %q; the sections are 8.2 (inbox), 8.3 (ordering) and 11.2 (shardjob)", key, rest[0])
			}
			if f.section != nil && f.section != s {
				return fail(n, "%s %s disagrees with section %s", key, rest[0], f.section.ID)
			}
			f.section, section = s, s.ID
		case "strategy":
			if len(rest) != 1 {
				return fail(n, "strategy takes one name")
			}
			f.strategy, strategyLine = rest[0], n
		case "param":
			p, err := parseParam(rest)
			if err != nil {
				return fail(n, "%v", err)
			}
			if slices.ContainsFunc(f.params, func(q Param) bool { return q.Name == p.Name }) {
				return fail(n, "param %s is declared twice", p.Name)
			}
			f.params = append(f.params, p)
		case "lab":
			if len(rest) != 0 {
				return fail(n, "lab takes no value")
			}
			f.lab = true
		default:
			return fail(n, "unknown header line %q; the header holds drill, section, harness, strategy, param and lab (comments start with #)", key)
		}
	}
	if name == "" {
		return fail(1, "no drill line: the header needs \"drill NAME\"")
	}
	if section == "" {
		return fail(1, "no section line: the header needs \"section 8.2\", \"section 8.3\" or \"section 11.2\"")
	}
	// "strategy student" runs the student's code (package exercises) in
	// any section.
	if f.strategy != "" && f.strategy != harness.Student && !slices.Contains(f.section.Strategies, f.strategy) {
		if len(f.section.Strategies) == 0 {
			return fail(strategyLine, "section %s has no strategies; leave the strategy line out", f.section.ID)
		}
		return fail(strategyLine, "unknown strategy %q; section %s's are %s", f.strategy, f.section.ID, strings.Join(f.section.Strategies, ", "))
	}
	if f.strategy == "" && len(f.section.Strategies) > 0 {
		f.strategy = f.section.Strategies[0]
	}
	f.doc = strings.Join(doc, "\n")
	f.name = name
	return nil
}

// parseParam reads "NAME DEFAULT MIN..MAX".
func parseParam(rest []string) (Param, error) {
	if len(rest) != 3 {
		return Param{}, fmt.Errorf("param takes a name, a default and a range: param deliveries 2 1..1000")
	}
	p := Param{Name: rest[0]}
	if !nameRE.MatchString(p.Name) {
		return p, fmt.Errorf("param name %q must be lowercase letters, digits and dashes", p.Name)
	}
	lo, hi, ok := strings.Cut(rest[2], "..")
	if !ok {
		return p, fmt.Errorf("param %s's range %q must be MIN..MAX (MAX may be empty)", p.Name, rest[2])
	}
	var err error
	if p.Min, err = decimal(lo); err != nil {
		return p, fmt.Errorf("param %s's minimum: %v", p.Name, err)
	}
	if p.Default, err = decimal(rest[1]); err != nil {
		return p, fmt.Errorf("param %s's default: %v", p.Name, err)
	}
	switch n, err := decimal(hi); {
	case hi == "":
	case err == nil:
		p.Max = n
		if p.Max < p.Min {
			return p, fmt.Errorf("param %s's maximum %d is below its minimum %d", p.Name, p.Max, p.Min)
		}
	default:
		x, err := parseExpr(hi)
		if err != nil {
			return p, fmt.Errorf("param %s's maximum %q: %v", p.Name, hi, err)
		}
		p.maxExpr = x
	}
	if p.Default < p.Min || (p.Max > 0 && p.Default > p.Max) {
		return p, fmt.Errorf("param %s's default %d is outside %s", p.Name, p.Default, rest[2])
	}
	return p, nil
}

// decimal reads a decimal integer: digits only, an optional minus.
func decimal(s string) (int, error) {
	t := strings.TrimPrefix(s, "-")
	if t == "" || strings.Trim(t, "0123456789") != "" || (len(t) > 1 && t[0] == '0') {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	return strconv.Atoi(s)
}

// parseScope is what the file has declared so far, for its checks on names.
type parseScope struct {
	f        *file
	bound    map[string][]string // label -> fields
	vars     map[string]bool
	counters map[string]bool
	order    []string
}

func (s *parseScope) counterList() string {
	if len(s.order) == 0 {
		return "none"
	}
	return strings.Join(s.order, ", ")
}

// check verifies every name x reads.
func (s *parseScope) check(x expr) error {
	var err error
	names(x, func(kind, n string, args int) {
		if err != nil {
			return
		}
		switch kind {
		case "param":
			if !slices.ContainsFunc(s.f.params, func(p Param) bool { return p.Name == n }) {
				err = fmt.Errorf("unknown parameter $%s; %s", n, s.paramList())
			}
		case "field":
			label, fld, _ := strings.Cut(n, ".")
			fields, ok := s.bound[label]
			switch {
			case !ok:
				err = fmt.Errorf("unknown name %s: no step is bound to %q (write STEP -> %s)", n, label, label)
			case !slices.Contains(fields, fld):
				err = fmt.Errorf("%s has no field %s; its fields are %s", label, fld, strings.Join(fields, ", "))
			}
		case "name", "call":
			if kind == "name" && (s.vars[n] || s.counters[n]) {
				return
			}
			if slices.Contains([]string{"min", "max", "yesno", "producer", "split_size"}, n) && kind == "call" {
				return
			}
			o, ok := s.f.section.Observable(n)
			switch {
			case !ok:
				err = fmt.Errorf("unknown name %q; %s", n, s.nameList())
			case kind == "name" && o.Args > 0:
				err = fmt.Errorf("%s takes %d argument(s): %s(...)", n, o.Args, n)
			case kind == "call" && o.Args != args:
				err = fmt.Errorf("%s takes %d argument(s), got %d", n, o.Args, args)
			}
		}
	})
	return err
}

func (s *parseScope) paramList() string {
	if len(s.f.params) == 0 {
		return "this drill has no parameters"
	}
	var ps []string
	for _, p := range s.f.params {
		ps = append(ps, "$"+p.Name)
	}
	return "the parameters are " + strings.Join(ps, ", ")
}

func (s *parseScope) nameList() string {
	var ns []string
	for _, o := range s.f.section.Observables {
		if o.Args > 0 {
			ns = append(ns, o.Name+"(…)")
		} else {
			ns = append(ns, o.Name)
		}
	}
	return "the " + s.f.section.Harness + " harness reports " + strings.Join(ns, ", ")
}

var phaseNames = map[string]harness.Phase{"[setup]": harness.Setup, "[fault]": harness.Fault, "[recovery]": harness.Recovery,
	"[zombie]": harness.Zombie, "[verdict]": harness.Verdict}

func (f *file) parseSteps(s *parseScope, data []byte, start int, fail func(int, string, ...any) error) error {
	for i, raw := range lines(data) {
		n := start + i
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") {
			p, ok := phaseNames[l]
			if !ok {
				return fail(n, "unknown phase %s; the phases are [setup], [fault], [recovery], [zombie] and [verdict]", l)
			}
			f.steps = append(f.steps, stmt{line: n, phase: &p})
			continue
		}
		st, err := s.parseStmt(strings.Fields(l))
		if err != nil {
			return fail(n, "%v", err)
		}
		st.line = n
		f.steps = append(f.steps, st)
	}
	if len(f.steps) == 0 {
		return fail(start, "no steps: write the scenario in the harness's verbs, one a line (archlab drill --verbs %s)", f.section.ID)
	}
	return nil
}

func (s *parseScope) parseStmt(tok []string) (stmt, error) {
	var st stmt
	switch tok[0] {
	case "repeat":
		if len(tok) < 3 {
			return st, fmt.Errorf("repeat takes a count and a step: repeat $deliveries-1 deliver pay:evt-1 ack-lost")
		}
		x, err := s.expr(tok[1])
		if err != nil {
			return st, fmt.Errorf("repeat's count: %v", err)
		}
		rest := tok[2:]
		as := ""
		if rest[0] == "as" {
			if len(rest) < 3 || !identRE.MatchString(rest[1]) {
				return st, fmt.Errorf("repeat N as VAR takes a lowercase name and a step")
			}
			as, rest = rest[1], rest[2:]
			s.vars[as] = true
		}
		inner, err := s.parseStmt(rest)
		delete(s.vars, as)
		if err != nil {
			return st, err
		}
		inner.repeat, inner.as = x, as
		if inner.when != nil {
			return st, fmt.Errorf("write when before repeat, not after")
		}
		return inner, nil
	case "when":
		if len(tok) < 3 {
			return st, fmt.Errorf("when takes a condition and a step: when first.crashed run shard-0")
		}
		x, err := s.expr(tok[1])
		if err != nil {
			return st, fmt.Errorf("when's condition: %v", err)
		}
		inner, err := s.parseStmt(tok[2:])
		if err != nil {
			return st, err
		}
		if inner.when != nil {
			return st, fmt.Errorf("one when per step")
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
		msg := fmt.Sprintf("unknown verb %q for %s", tok[0], s.f.section.Harness)
		if near := Nearest(tok[0], all, 1); len(near) > 0 {
			msg += fmt.Sprintf("; did you mean %s?", near[0])
		}
		return st, fmt.Errorf("%s (the verbs are %s)", msg, strings.Join(all, ", "))
	}
	st.verb = v
	args := tok[1:]
	if n := len(args); n >= 2 && args[n-2] == "->" {
		if v.Binds == nil {
			return st, fmt.Errorf("%s reports nothing to bind with ->", v.Name)
		}
		st.bind = args[n-1]
		if !identRE.MatchString(st.bind) {
			return st, fmt.Errorf("-> takes a lowercase name, got %q", st.bind)
		}
		args = args[:n-2]
	} else if slices.Contains(args, "->") {
		return st, fmt.Errorf("-> must come last and take one name: %s … -> NAME", v.Name)
	}
	given := map[string]bool{}
	pos := 0
	for _, a := range args {
		var spec harness.Arg
		val := a
		if k, vv, ok := strings.Cut(a, "="); ok && k != "" && !strings.ContainsAny(k, "{(\"$") {
			sp, found := v.Arg(k)
			if !found || sp.Kind == harness.Choice {
				return st, fmt.Errorf("%s has no option %s=; usage: %s", v.Name, k, v.Usage())
			}
			spec, val = sp, vv
		} else if i := slices.IndexFunc(v.Args, func(x harness.Arg) bool { return x.Kind == harness.Choice && slices.Contains(x.Choices, a) }); i >= 0 {
			spec = v.Args[i]
		} else {
			for pos < len(v.Args) && v.Args[pos].Optional {
				pos++
			}
			if pos == len(v.Args) {
				return st, fmt.Errorf("%s: unexpected %q; usage: %s", v.Name, a, v.Usage())
			}
			spec = v.Args[pos]
			pos++
		}
		if given[spec.Name] {
			return st, fmt.Errorf("%s: %s is given twice", v.Name, spec.Name)
		}
		given[spec.Name] = true
		ae, err := s.argExpr(spec, val)
		if err != nil {
			return st, fmt.Errorf("%s: %s: %v", v.Name, spec.Name, err)
		}
		st.args = append(st.args, ae)
	}
	for _, sp := range v.Args {
		if !sp.Optional && !given[sp.Name] {
			return st, fmt.Errorf("%s needs %s; usage: %s", v.Name, strings.ToUpper(sp.Name), v.Usage())
		}
	}
	if st.bind != "" {
		s.bound[st.bind] = v.Binds
	}
	return st, nil
}

func (s *parseScope) expr(src string) (expr, error) {
	x, err := parseExpr(src)
	if err != nil {
		return nil, err
	}
	return x, s.check(x)
}

func (s *parseScope) argExpr(spec harness.Arg, val string) (argExpr, error) {
	ae := argExpr{name: spec.Name, kind: spec.Kind}
	if spec.Kind == harness.Number {
		src := val
		if strings.HasPrefix(src, "{") && strings.HasSuffix(src, "}") {
			src = src[1 : len(src)-1]
		}
		x, err := s.expr(src)
		ae.num = x
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
			return ae, fmt.Errorf("%q opens { without closing it", val)
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
		return ae, fmt.Errorf("is empty")
	}
	return ae, nil
}

func (f *file) parseCounters(s *parseScope, data []byte, start int, fail func(int, string, ...any) error) error {
	for i, raw := range lines(data) {
		n := start + i
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := counterSpec{line: n, name: l}
		src := l
		if nm, x, ok := strings.Cut(l, " = "); ok {
			c.name, src = strings.TrimSpace(nm), strings.TrimSpace(x)
			if body, loop, ok := strings.Cut(src, " for "); ok {
				v, lim, ok := strings.Cut(loop, "<")
				v = strings.TrimSpace(v)
				if !ok || !identRE.MatchString(v) {
					return fail(n, "a counter's loop is \"for VAR < EXPR\", like: shard={i} keys = shard_keys(i) for i < shards")
				}
				lx, err := s.expr(strings.TrimSpace(lim))
				if err != nil {
					return fail(n, "the loop's limit: %v", err)
				}
				c.loop, c.limit, src = v, lx, strings.TrimSpace(body)
				s.vars[v] = true
			}
		}
		if c.name == "" {
			return fail(n, "a counter needs a name: NAME or NAME = EXPR")
		}
		if c.loop == "" && strings.ContainsAny(c.name, "{}") {
			return fail(n, "only a counter with \"for VAR < EXPR\" may use {VAR} in its name")
		}
		x, err := s.expr(src)
		if c.loop != "" {
			delete(s.vars, c.loop)
		}
		if err != nil {
			return fail(n, "counter %s: %v", c.name, err)
		}
		if s.counters[c.name] {
			return fail(n, "counter %s appears twice", c.name)
		}
		c.x = x
		f.counters = append(f.counters, c)
		if c.loop == "" {
			s.counters[c.name] = true
			s.order = append(s.order, c.name)
		}
	}
	if len(f.counters) == 0 {
		return fail(start, "no counters: name at least one, like effects or balance = balance(\"o-1\")")
	}
	return nil
}

func (f *file) parseChecks(s *parseScope, data []byte, start int, fail func(int, string, ...any) error) error {
	for i, raw := range lines(data) {
		n := start + i
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		nm, src, ok := strings.Cut(l, ":")
		nm = strings.TrimSpace(nm)
		shows := false
		if rest, found := strings.CutPrefix(nm, "shows "); found {
			nm, shows = strings.TrimSpace(rest), true
		}
		if !ok || !nameRE.MatchString(nm) {
			return fail(n, "a check is NAME: EXPR, or shows NAME: EXPR for one that demonstrates a failure, with a name of lowercase letters, digits and dashes")
		}
		if slices.ContainsFunc(f.checks, func(c checkSpec) bool { return c.name == nm }) {
			return fail(n, "check %s appears twice", nm)
		}
		x, err := s.expr(strings.TrimSpace(src))
		if err != nil {
			return fail(n, "check %s: %v", nm, err)
		}
		f.checks = append(f.checks, checkSpec{line: n, name: nm, x: x, shows: shows})
	}
	return nil
}

func (f *file) parseExpect(data []byte, start int, fail func(int, string, ...any) error) error {
	for i, raw := range lines(data) {
		n := start + i
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k := strings.LastIndexByte(l, ' ')
		if k < 0 {
			return fail(n, "an expected counter is NAME VALUE, got %q", l)
		}
		e := expectLine{line: n, name: strings.TrimSpace(l[:k]), value: l[k+1:]}
		if slices.ContainsFunc(f.expect, func(x expectLine) bool { return x.name == e.name }) {
			return fail(n, "expect names %s twice", e.name)
		}
		f.expect = append(f.expect, e)
	}
	return nil
}

func (f *file) parseTexts(lang i18n.Lang, data []byte, start int, fail func(int, string, ...any) error) error {
	t := map[string]string{}
	ls := lines(data)
	for i := 0; i < len(ls); i++ {
		n := start + i
		l := strings.TrimSpace(ls[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if l == "explain:" {
			t["explain"] = strings.TrimRight(strings.Join(ls[i+1:], "\n"), "\n ")
			break
		}
		key, text, ok := strings.Cut(l, ":")
		text = strings.TrimSpace(text)
		if !ok || text == "" {
			return fail(n, "a text line is KEY: TEXT (title, param NAME, why NAME, check NAME) or explain: followed by the text")
		}
		kind, arg, _ := strings.Cut(key, " ")
		switch {
		case kind == "title" && arg == "":
		case kind == "param" || kind == "why":
			if !slices.ContainsFunc(f.params, func(p Param) bool { return p.Name == arg }) {
				return fail(n, "%s %s: the drill has no parameter %q", kind, arg, arg)
			}
		case kind == "check":
			if !slices.ContainsFunc(f.checks, func(c checkSpec) bool { return c.name == arg }) {
				return fail(n, "check %s: the drill has no check %q (the en and zh parts come after the checks)", arg, arg)
			}
		default:
			return fail(n, "unknown text %q; the texts are title, param NAME, why NAME, check NAME and explain", key)
		}
		if _, dup := t[key]; dup {
			return fail(n, "text %q appears twice", key)
		}
		t[key] = text
	}
	f.texts[lang] = t
	return nil
}
