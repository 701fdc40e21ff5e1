package drills

import (
	"bytes"
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
//	exercise runner                 optional, with strategy student: run only
//	                                that exercise's code, the book's elsewhere
//	param NAME DEFAULT MIN..MAX     a knob; MAX may be an expression or empty
//	lab                             the counters are the lab's, not the book's
//
// and its files are the parts:
//
//	-- steps --     the harness's verbs, one step a line; [setup], [fault],
//	                [recovery], [verdict] start a phase; "repeat N [as i]
//	                STEP" and "when COND STEP" repeat or guard a step;
//	                "STEP -> NAME" binds what the step reports; a step
//	                repeats once at most (repeat 2 repeat 3 is refused)
//	-- counters --  NAME or NAME = EXPR, in the order the table prints them
//	-- checks --    NAME: EXPR, the lesson as checks that must hold
//	-- expect --    NAME VALUE, what the book prints (--rewrite fills it in);
//	                a value that is empty, holds a space or starts with a
//	                quote is written as a Go string, "o-1=v2/PAID o-2=v0/"
//	-- en --, -- zh --
//	                title: ..., param NAME: ..., why NAME: ...,
//	                check NAME: ..., and explain: followed by the text

// FileError (msg.go) is a bad drill file: where, what is wrong and what
// is allowed. The limits on what a file may hold are in budget.go.

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
	spec harness.Arg
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
	data      []byte // the bytes parsed, as given
	crlf      bool   // its lines end in CRLF
	arc       *txtar.Archive
	doc       string
	section   *harness.Section
	strategy  string
	exercise  string // strategy student: the mechanism exercise plugged in, "" for the protocol one
	params    []Param
	lab       bool
	steps     []stmt
	counters  []counterSpec
	checks    []checkSpec
	expect    []expectLine
	hasExpect bool
	texts     map[i18n.Lang]map[string]string
	budget    Budget // what the sizes were checked against
}

var (
	nameRE  = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	identRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
)

// Parse reads a drill file under DefaultBudget. path names it in errors.
// Every error is a *FileError.
func Parse(path string, data []byte) (*Drill, error) { return ParseBudget(path, data, Budget{}) }

// ParseBudget reads a drill file, checking the sizes it states as
// constants (a repeat count, the keys of a split) against b; a zero field
// of b is DefaultBudget's.
func ParseBudget(path string, data []byte, b Budget) (*Drill, error) {
	f, err := parseFile(path, data, b.withDefaults())
	if err != nil {
		return nil, err
	}
	return f.drill(), nil
}

// failer places a parse error at a line of the file.
type failer func(line int, err error) error

func parseFile(path string, data []byte, b Budget) (*file, error) {
	f := &file{path: path, data: data, texts: map[i18n.Lang]map[string]string{}, budget: b}
	fail := failer(func(line int, err error) error { return fileError(path, line, err) })
	if len(data) > MaxFileBytes {
		return nil, fail(1, bad("file.err.too-large", len(data), MaxFileBytes))
	}
	if n := badTextLine(data); n > 0 {
		return nil, fail(n, bad("file.err.not-text"))
	}
	// A file saved with CRLF line ends reads as the same file: the line
	// numbers stay, and --rewrite writes CRLF back.
	text := string(data)
	if strings.Contains(text, "\r\n") {
		f.crlf = true
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	// txtar.Parse (go-internal v1.16.0) panics on a marker line with no
	// name, "-- --" (found by FuzzParse); refuse it first.
	i := 0
	for l := range strings.Lines(text) {
		i++
		l = strings.TrimSuffix(l, "\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && strings.TrimSpace(strings.Trim(l, "-")) == "" {
			return nil, fail(i, bad("file.err.part.nameless"))
		}
	}
	f.arc = txtar.Parse([]byte(text))
	// Line numbers: the comment starts at line 1; each file's content
	// starts the line after its "-- name --" marker.
	fileLine := map[string]int{}
	line := strings.Count(string(f.arc.Comment), "\n") + 1
	for _, af := range f.arc.Files {
		line++ // the marker
		if _, dup := fileLine[af.Name]; dup {
			return nil, fail(line-1, bad("file.err.part.twice", af.Name))
		}
		fileLine[af.Name] = line
		line += strings.Count(string(af.Data), "\n")
	}
	if err := f.parseHeader(fail); err != nil {
		return nil, err
	}
	parts := []string{"steps", "counters", "checks", "expect", "en", "zh"}
	for _, af := range f.arc.Files {
		if !slices.Contains(parts, af.Name) {
			return nil, fail(fileLine[af.Name]-1, didYouMean(bad("file.err.part.unknown", af.Name, namesAnd(parts)), af.Name, parts))
		}
	}
	for _, need := range []string{"steps", "counters", "checks"} {
		if _, ok := fileLine[need]; !ok {
			return nil, fail(line, bad("file.err.part.missing", need))
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
		return nil, fail(fileLine["checks"], bad("file.err.checks.none"))
	}
	for _, e := range f.expect {
		if !scope.counters[e.name] && !slices.ContainsFunc(f.counters, func(c counterSpec) bool { return c.loop != "" }) {
			return nil, fail(e.line, didYouMean(bad("file.err.expect.unknown", e.name, scope.counterList()), e.name, scope.order))
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

// headerKeys are the header's lines, in the order the help names them.
var headerKeys = []string{"drill", "section", "harness", "strategy", "exercise", "param", "lab"}

func (f *file) parseHeader(fail failer) error {
	var doc []string
	name, section := "", ""
	strategyLine, exerciseLine := 1, 1
	seen := map[string]int{} // header key -> the line that gave it
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
		key, rest := fields[0], fields[1:]
		// Every line but param says its thing once: a second drill line
		// would silently rename the drill.
		if first, dup := seen[key]; dup && key != "param" {
			return fail(n, bad("file.err.header.twice", key, first))
		}
		seen[key] = n
		switch key {
		case "drill":
			if len(rest) != 1 || !nameRE.MatchString(rest[0]) {
				return fail(n, bad("file.err.header.drill"))
			}
			name = rest[0]
		case "section", "harness":
			if len(rest) != 1 {
				return fail(n, bad("file.err.header.one-value", key))
			}
			s, ok := harness.SectionByName(rest[0])
			if !ok || (key == "section" && s.ID != rest[0]) || (key == "harness" && s.Harness != rest[0]) {
				return fail(n, bad("file.err.header.section", key, rest[0]))
			}
			if f.section != nil && f.section != s {
				return fail(n, bad("file.err.header.disagree", key, rest[0], f.section.ID))
			}
			f.section, section = s, s.ID
		case "strategy":
			if len(rest) != 1 {
				return fail(n, bad("file.err.header.strategy-one"))
			}
			f.strategy, strategyLine = rest[0], n
		case "exercise":
			if len(rest) != 1 {
				return fail(n, bad("file.err.header.one-value", key))
			}
			f.exercise, exerciseLine = rest[0], n
		case "param":
			p, err := parseParam(rest)
			if err != nil {
				return fail(n, err)
			}
			if slices.ContainsFunc(f.params, func(q Param) bool { return q.Name == p.Name }) {
				return fail(n, bad("file.err.param.twice", p.Name))
			}
			p.line = n
			f.params = append(f.params, p)
		case "lab":
			if len(rest) != 0 {
				return fail(n, bad("file.err.header.lab"))
			}
			f.lab = true
		default:
			return fail(n, didYouMean(bad("file.err.header.unknown", key, namesAnd(headerKeys)), key, headerKeys))
		}
	}
	if name == "" {
		return fail(1, bad("file.err.header.no-drill"))
	}
	if section == "" {
		return fail(1, bad("file.err.header.no-section"))
	}
	// "strategy student" runs the student's code (package exercises) in
	// any section.
	if f.strategy != "" && f.strategy != harness.Student && !slices.Contains(f.section.Strategies, f.strategy) {
		if len(f.section.Strategies) == 0 {
			return fail(strategyLine, bad("file.err.strategy.none", f.section.ID))
		}
		return fail(strategyLine, didYouMean(bad("file.err.strategy.unknown", f.strategy, f.section.ID, names(f.section.Strategies)), f.strategy, f.section.Strategies))
	}
	// "exercise NAME" names which of the student's code a student run
	// plugs in: a mechanism exercise, under the book's own functions.
	if f.exercise != "" {
		if f.strategy != harness.Student {
			return fail(exerciseLine, bad("file.err.exercise.student"))
		}
		if !slices.Contains(f.section.Exercises, f.exercise) {
			return fail(exerciseLine, didYouMean(bad("file.err.exercise.unknown", f.exercise, f.section.ID, names(f.section.Exercises)), f.exercise, f.section.Exercises))
		}
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
		return Param{}, bad("file.err.param.form", "param deliveries 2 1..1000")
	}
	p := Param{Name: rest[0]}
	if !nameRE.MatchString(p.Name) {
		return p, bad("file.err.param.name", p.Name)
	}
	lo, hi, ok := strings.Cut(rest[2], "..")
	if !ok {
		return p, bad("file.err.param.range", p.Name, rest[2])
	}
	var err error
	if p.Min, err = decimal(lo); err != nil {
		return p, bad("file.err.param.min", p.Name, err)
	}
	if p.Default, err = decimal(rest[1]); err != nil {
		return p, bad("file.err.param.default", p.Name, err)
	}
	switch n, err := decimal(hi); {
	case hi == "":
	case err == nil:
		p.Max, p.HasMax = n, true
		if p.Max < p.Min {
			return p, bad("file.err.param.max-below", p.Name, p.Max, p.Min)
		}
	default:
		x, err := parseExpr(hi)
		if err != nil {
			return p, bad("file.err.param.max", p.Name, hi, err)
		}
		p.maxExpr = x
	}
	if p.Default < p.Min || (p.HasMax && p.Default > p.Max) {
		return p, bad("file.err.param.default-outside", p.Name, p.Default, rest[2])
	}
	return p, nil
}

// decimal reads a decimal integer as the command line does (ParseDecimal).
func decimal(s string) (int, error) {
	n, ok := ParseDecimal(s)
	if !ok {
		return 0, bad("file.err.decimal", s)
	}
	return n, nil
}

// ParseDecimal reads s as an optional minus and decimal digits: no '+', no
// spaces, no leading zero ("010" is not octal to anyone), no "-0", and a
// value that fits an int. It is the command line's rule for numbers, and
// the web page's what-if fields read their numbers with it too.
func ParseDecimal(s string) (int, bool) {
	t := strings.TrimPrefix(s, "-")
	if t == "" || strings.Trim(t, "0123456789") != "" || (len(t) > 1 && t[0] == '0') || s == "-0" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func (f *file) parseCounters(s *parseScope, data []byte, start int, fail failer) error {
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
					return fail(n, bad("file.err.loop.form"))
				}
				lx, err := s.expr(strings.TrimSpace(lim))
				if err != nil {
					return fail(n, bad("file.err.loop.limit", err))
				}
				if v, ok := constant(lx); ok {
					if k, isInt := v.(int); isInt && k > f.budget.Counters {
						return fail(n, bad("file.err.budget.loop", c.name, k, f.budget.Counters))
					}
				}
				c.loop, c.limit, src = v, lx, strings.TrimSpace(body)
				s.vars[v] = true
			}
		}
		if c.loop == "" && strings.ContainsAny(c.name, "{}") {
			return fail(n, bad("file.err.counter.braces"))
		}
		x, err := s.expr(src)
		if c.loop != "" {
			delete(s.vars, c.loop)
		}
		if err != nil {
			return fail(n, bad("file.err.counter", c.name, err))
		}
		if s.counters[c.name] {
			return fail(n, bad("file.err.counter.twice", c.name))
		}
		c.x = x
		f.counters = append(f.counters, c)
		if c.loop == "" {
			s.counters[c.name] = true
			s.order = append(s.order, c.name)
		}
	}
	if len(f.counters) == 0 {
		return fail(start, bad("file.err.counters.none", "effects", `balance = balance("o-1")`))
	}
	if len(f.counters) > f.budget.Counters {
		return fail(start, bad("file.err.budget.counters-part", len(f.counters), f.budget.Counters))
	}
	return nil
}

func (f *file) parseChecks(s *parseScope, data []byte, start int, fail failer) error {
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
			return fail(n, bad("file.err.check.form"))
		}
		if slices.ContainsFunc(f.checks, func(c checkSpec) bool { return c.name == nm }) {
			return fail(n, bad("file.err.check.twice", nm))
		}
		x, err := s.expr(strings.TrimSpace(src))
		if err != nil {
			return fail(n, bad("file.err.check", nm, err))
		}
		f.checks = append(f.checks, checkSpec{line: n, name: nm, x: x, shows: shows})
	}
	return nil
}

func (f *file) parseExpect(data []byte, start int, fail failer) error {
	for i, raw := range lines(data) {
		n := start + i
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, value, ok := cutExpect(l)
		if !ok {
			return fail(n, bad("file.err.expect.form", l))
		}
		e := expectLine{line: n, name: name, value: value}
		if slices.ContainsFunc(f.expect, func(x expectLine) bool { return x.name == e.name }) {
			return fail(n, bad("file.err.expect.twice", e.name))
		}
		f.expect = append(f.expect, e)
	}
	return nil
}

// cutExpect splits an expect line, NAME VALUE: the value is the last word,
// or a Go string at the end of the line when it is empty or holds a space
// ("o-1=v2/PAID o-2=v0/"). A counter's name may hold spaces (shard=0 keys).
func cutExpect(l string) (name, value string, ok bool) {
	if strings.HasSuffix(l, `"`) {
		for i := strings.Index(l, ` "`); i >= 0; {
			if v, err := strconv.Unquote(l[i+1:]); err == nil {
				name = strings.TrimSpace(l[:i])
				return name, v, name != ""
			}
			j := strings.Index(l[i+1:], ` "`)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	k := strings.LastIndexByte(l, ' ')
	if k < 0 {
		return "", "", false
	}
	return strings.TrimSpace(l[:k]), l[k+1:], true
}

// ExpectLine is how an expect part writes a counter: NAME VALUE, the value
// quoted when the plain form would not read back as itself.
func ExpectLine(name, value string) string {
	if value == "" || strings.ContainsAny(value, " \t\"\\") || !strconv.CanBackquote(value) || strings.TrimSpace(value) != value {
		return name + " " + strconv.Quote(value)
	}
	return name + " " + value
}

func (f *file) parseTexts(lang i18n.Lang, data []byte, start int, fail failer) error {
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
			return fail(n, bad("file.err.text.form"))
		}
		kind, arg, _ := strings.Cut(key, " ")
		switch {
		case kind == "title" && arg == "":
		case kind == "param" || kind == "why":
			if !slices.ContainsFunc(f.params, func(p Param) bool { return p.Name == arg }) {
				return fail(n, bad("file.err.text.no-param", kind, arg))
			}
		case kind == "check":
			if !slices.ContainsFunc(f.checks, func(c checkSpec) bool { return c.name == arg }) {
				return fail(n, bad("file.err.text.no-check", arg))
			}
		default:
			return fail(n, bad("file.err.text.unknown", key))
		}
		if _, dup := t[key]; dup {
			return fail(n, bad("file.err.text.twice", key))
		}
		t[key] = text
	}
	f.texts[lang] = t
	return nil
}

// WithExpect is the drill's file, the very bytes it was parsed from, with
// its expect part saying counters: the part replaced, or added after the
// checks. It is what --rewrite writes. A value that would not read back
// as itself is quoted (ExpectLine), and the new file is parsed again: one
// whose expect part still would not say counters (a counter named with a
// quote) is refused, not written. A CRLF file stays CRLF.
func (d *Drill) WithExpect(counters []Counter) ([]byte, error) {
	f := d.file
	text := f.data
	if f.crlf {
		text = []byte(strings.ReplaceAll(string(text), "\r\n", "\n"))
	}
	arc := txtar.Parse(text)
	var b strings.Builder
	for _, c := range counters {
		b.WriteString(ExpectLine(c.Name, c.Value) + "\n")
	}
	expect := txtar.File{Name: "expect", Data: []byte(b.String())}
	if i := slices.IndexFunc(arc.Files, func(f txtar.File) bool { return f.Name == "expect" }); i >= 0 {
		arc.Files[i].Data = expect.Data
	} else {
		at := slices.IndexFunc(arc.Files, func(f txtar.File) bool { return f.Name == "checks" }) + 1
		arc.Files = slices.Insert(arc.Files, at, expect)
	}
	out := txtar.Format(arc)
	if f.crlf {
		out = []byte(strings.ReplaceAll(string(out), "\n", "\r\n"))
	}
	back, err := parseFile(f.path, out, f.budget)
	if err != nil {
		return nil, err
	}
	for i, c := range counters {
		if i >= len(back.expect) || back.expect[i].name != c.Name || back.expect[i].value != c.Value {
			return nil, fileError(f.path, 0, bad("file.err.rewrite.read-back", c.Name, c.Value))
		}
	}
	return out, nil
}
