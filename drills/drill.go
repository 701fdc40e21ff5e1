package drills

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"archlab/harness"
	"archlab/i18n"
)

// Param is a knob a class can turn to ask "what if". Its default is the
// book's scenario.
type Param struct {
	Name    string // flag name, "commit-every"
	Default int
	Min     int
	Max     int  // the fixed upper bound, when HasMax
	HasMax  bool // the range names a number as its maximum (MIN..MAX, not MIN..)
	// maxExpr, when set, computes the upper bound from the other values
	// (crash-after lies inside shard 0, whose size depends on --keys and
	// --shards).
	maxExpr expr
	line    int // where the file declares it
}

// UsageKey is the catalogue key of the flag's help text.
func (p Param) UsageKey(drill string) string { return "param." + drill + "." + p.Name }

// Values holds one value per Param, by flag name.
type Values map[string]int

// Drill is one scenario: a drill file, parsed. The built-in drills are the
// files under drills/files, embedded in the binary.
type Drill struct {
	Name    string // the book's log prefix, "ack-lost"
	Section string // its section's ID, as the file writes it
	Params  []Param
	// Book holds what the book prints for the default parameters: the
	// file's expect part. For a drill the book implies but does not print
	// (LabOnly), it is what the lab expects, and the command says so.
	Book    []Counter
	LabOnly bool
	// Strategy is the §8.2 handler the file picks.
	Strategy string
	// Exercise is the mechanism exercise a file of strategy student plugs
	// in ("exercise ledger"), "" for the section's protocol exercise.
	Exercise string
	// Builtin is a drill shipped in the binary; any other file's expect
	// part is the file's expectation, not the book's.
	Builtin bool
	// Path is where the file came from: "drills/files/ack-lost.txtar" for
	// a built-in one.
	Path string
	file *file
}

// TitleKey is the catalogue key of the drill's one-line title.
func (d *Drill) TitleKey() string { return "drill." + d.Name + ".title" }

// Defaults returns the book's parameters.
func (d *Drill) Defaults() Values {
	v := Values{}
	for _, p := range d.Params {
		v[p.Name] = p.Default
	}
	return v
}

// ParamError is a parameter outside its range. The command renders it in
// the reader's language and exits 2.
type ParamError struct {
	Flag     string
	Value    int
	Min, Max int
	Bounded  bool   // Max applies
	Why      string // optional key explaining Max ("the keys of shard 0"): WhyText renders it
	drill    *Drill
}

// WhyText says in lang why Max is the bound (the drill's own words, with
// Max written in), or "" when the bound is fixed.
func (e *ParamError) WhyText(lang i18n.Lang) string {
	if e.Why == "" {
		return ""
	}
	if e.drill == nil {
		return i18n.T(lang, e.Why, e.Max)
	}
	return e.drill.Text(lang, e.Why, e.Max)
}

func (e *ParamError) Error() string {
	if e.Bounded {
		return fmt.Sprintf("--%s must be between %d and %d, got %d", e.Flag, e.Min, e.Max, e.Value)
	}
	return fmt.Sprintf("--%s must be at least %d, got %d", e.Flag, e.Min, e.Value)
}

// check validates v against the drill's parameters; a bound computed from
// the others (split_size) is computed under budget b.
func (d *Drill) check(v Values, b Budget) error {
	for _, p := range d.Params {
		x := v[p.Name]
		if x < p.Min || (p.HasMax && x > p.Max) {
			return &ParamError{Flag: p.Name, Value: x, Min: p.Min, Max: p.Max, Bounded: p.HasMax}
		}
	}
	for _, p := range d.Params {
		if p.maxExpr == nil {
			continue
		}
		m, err := p.maxExpr.eval(&env{params: v, budget: b})
		if err != nil {
			return fileError(d.Path, p.line, bad("file.err.param.max-eval", p.Name, err))
		}
		n, ok := m.(int)
		if !ok {
			return fileError(d.Path, p.line, bad("file.err.param.max-kind", p.Name, harness.Format(m)))
		}
		if x := v[p.Name]; x > n {
			return &ParamError{Flag: p.Name, Value: x, Min: p.Min, Max: n, Bounded: true, Why: "why." + d.Name + "." + p.Name, drill: d}
		}
	}
	return nil
}

// CounterResult is one counter of a run beside the book's value. Book and
// Match are nil when the run is not compared with the book (non-default
// parameters).
type CounterResult struct {
	Name  string
	Value string
	Book  *string
	Match *bool
}

// ParamValue is one parameter of a run beside the book's default.
type ParamValue struct {
	Name           string
	Value, Default int
}

// Result is one finished run of a drill.
type Result struct {
	Drill    *Drill
	Values   Values
	Params   []ParamValue // every parameter, in the drill's order
	Compared bool         // parameters were the book's, so counters were compared
	Counters []CounterResult
	Checks   []Check
	Steps    []Step
	// Harms are the harms the run did (harness.Section.Harms), the worst
	// first: what decides whether a design unlike the book's is wrong.
	Harms []string
	// ByHarm: the run was a design unlike the book's (strategy student,
	// or a lab design), judged by harm: Extra are the harms it did that
	// the book's design does not do in the same drill (any fails it),
	// Safer those the book's does and it does not. Its checks and
	// counters that differ otherwise describe the design.
	ByHarm       bool
	Extra, Safer []string
	// Calls are the harness verbs the run called, in order: what a state
	// page of archlab serve walks, and the steps each one recorded.
	Calls []Executed
	Err   error // the mechanism failed in a way the scenario did not expect
	Pass  bool
}

// Run validates v, runs the drill and compares its counters with the book
// when v are the book's parameters. A *ParamError means bad input, a
// *FileError a drill file that asks the impossible (a message it never
// declared) or more than its budget; any other failure is reported in
// Result.Err and makes the drill fail.
func (d *Drill) Run(v Values) (*Result, error) { return d.RunIn(v, harness.Env{}) }

// Harms are the names of the checks the harms a run of d can do break
// (its section's harness.Section.Harms), the worst first.
func (d *Drill) Harms() []string {
	var out []string
	for _, h := range d.file.section.Harms {
		out = append(out, h.Check)
	}
	return out
}

// Sec is the section the drill is in, the value upper layers key their
// tables on; Section is its ID, for printing.
func (d *Drill) Sec() *harness.Section { return d.file.section }

// RunIn is Run with the consumer in env. The zero Env is Run.
func (d *Drill) RunIn(v Values, env harness.Env) (*Result, error) {
	return d.RunContext(context.Background(), v, RunOptions{Env: env})
}

// RunOptions say where a run happens and what it may spend. The zero
// value is the book's in-memory environment under DefaultBudget.
type RunOptions struct {
	Env    harness.Env
	Budget Budget // a zero field is DefaultBudget's
	// NoCompare runs a file without comparing its counters with its
	// expect part: --rewrite, which is about to replace that part.
	NoCompare bool
}

// RunContext is Run in o's environment and budget. Cancelling ctx stops
// the run between two steps or deliveries and returns ctx's error; the
// time budget stops it with a *FileError.
func (d *Drill) RunContext(ctx context.Context, v Values, o RunOptions) (*Result, error) {
	b := o.Budget.withDefaults()
	if err := d.check(v, b); err != nil {
		return nil, err
	}
	rec := &harness.Recorder{}
	var calls []Executed
	err := d.file.run(ctx, v, o.Env, rec, b, &calls)
	var fe *FileError
	if errors.As(err, &fe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	res := &Result{Drill: d, Values: v, Checks: rec.Checks, Steps: rec.Steps, Harms: rec.Harms, Calls: calls, Err: err}
	for _, p := range d.Params {
		res.Params = append(res.Params, ParamValue{Name: p.Name, Value: v[p.Name], Default: p.Default})
	}
	res.Compared = d.file.hasExpect && maps.Equal(v, d.Defaults()) && !o.NoCompare
	res.Pass = err == nil
	for _, c := range rec.Counters {
		cr := CounterResult{Name: c.Name, Value: c.Value}
		if res.Compared {
			book, ok := d.bookValue(c.Name)
			match := ok && book == c.Value
			cr.Book, cr.Match = &book, &match
			res.Pass = res.Pass && match
		}
		res.Counters = append(res.Counters, cr)
	}
	if res.Compared && len(rec.Counters) != len(d.Book) {
		// A counter the book prints but the run did not produce.
		res.Pass = false
		if res.Err == nil {
			res.Err = fmt.Errorf("drill %s produced %d counters, the book prints %d", d.Name, len(rec.Counters), len(d.Book))
		}
	}
	for _, c := range rec.Checks {
		res.Pass = res.Pass && c.OK
	}
	// The lab's own drills of its designs (durable-inbox, outbox) keep the
	// lab's expectation; the same designs on any other drill file, and
	// the student's code everywhere, are judged by harm.
	if harness.JudgedByHarm(d.file.strategy) && (d.file.strategy == harness.Student || !d.Builtin) && err == nil {
		if err := d.judgeByHarm(ctx, v, o, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// judgeByHarm is the verdict on a design unlike the book's (the
// student's, or the lab's durable inbox): it fails only for a harm the
// book's own design does not do in the same drill, a run of the book's
// strategy with the same parameters; a check or a counter that differs
// from the book's otherwise describes the design (issue 45). A check that
// names a harm (a counterexample's "not-lost", "within-budget") decides
// as the harm does, and so does one that states a clause of the task
// (TaskClause).
func (d *Drill) judgeByHarm(ctx context.Context, v Values, o RunOptions, res *Result) error {
	bf := *d.file
	bf.strategy, bf.exercise = bf.section.BookStrategy(), ""
	book := *d
	book.Strategy, book.Exercise, book.file = bf.strategy, "", &bf
	br, err := book.RunContext(ctx, v, RunOptions{Budget: o.Budget, NoCompare: true})
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	case err != nil || br.Err != nil:
		// A scenario only the design's own moves make possible (a
		// replay of a message it acked where the book's would not have):
		// there is no book's run to weigh it against, and the file's own
		// checks and counters judge it.
		return nil
	}
	res.ByHarm = true
	for _, h := range res.Harms {
		if !slices.Contains(br.Harms, h) {
			res.Extra = append(res.Extra, h)
		}
	}
	for _, h := range br.Harms {
		if !slices.Contains(res.Harms, h) {
			res.Safer = append(res.Safer, h)
		}
	}
	res.Pass = res.Err == nil && len(res.Extra) == 0
	for _, c := range res.Checks {
		name := strings.TrimPrefix(c.Key, "check."+d.Name+".")
		if !c.OK && (d.file.section.HarmCheck(name) || d.TaskClause(name)) {
			res.Pass = false
		}
	}
	return nil
}

// TaskClause says whether d's check of that name states a clause of the
// task of its section's protocol exercise (harness.Section.Task), in a
// run of that exercise.
func (d *Drill) TaskClause(check string) bool {
	return d.file.exercise == "" && slices.Contains(d.file.section.Task, d.Name+"/"+check)
}

// Executed is one harness verb a run called, with the values its
// arguments took, and where its steps start in the run's trace: Steps[Row]
// up to the next call's Row (or the end) are the steps it recorded.
type Executed struct {
	Call harness.Call
	Row  int
}

// CallSteps is the run's calls and how many steps each one recorded.
func (r *Result) CallSteps() ([]harness.Call, []int) {
	calls := make([]harness.Call, len(r.Calls))
	rows := make([]int, len(r.Calls))
	for i, c := range r.Calls {
		calls[i] = c.Call
		end := len(r.Steps)
		if i+1 < len(r.Calls) {
			end = r.Calls[i+1].Row
		}
		rows[i] = end - c.Row
	}
	return calls, rows
}

// WhatIf lists the parameters that differ from the book's.
func (r *Result) WhatIf() []ParamValue {
	var out []ParamValue
	for _, p := range r.Params {
		if p.Value != p.Default {
			out = append(out, p)
		}
	}
	return out
}

// BookValue is what the book prints for a counter, if it prints it.
func (d *Drill) BookValue(name string) (string, bool) { return d.bookValue(name) }

func (d *Drill) bookValue(name string) (string, bool) {
	for _, c := range d.Book {
		if c.Name == name {
			return c.Value, true
		}
	}
	return "", false
}

// ErrUnknownDrill is wrapped by Lookup's error.
var ErrUnknownDrill = errors.New("unknown drill")

// ErrUnknownSection is wrapped by InSection's error.
var ErrUnknownSection = errors.New("unknown section")

// All returns every drill in book order.
func All() []*Drill { return slices.Clone(builtin()) }

// Lookup finds a drill by name.
func Lookup(name string) (*Drill, error) {
	for _, f := range index() {
		if strings.EqualFold(f.name, name) { // ACK-LOST is ack-lost
			return f.parse(), nil
		}
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownDrill, name)
}

// InSection returns the drills of one section in book order.
func InSection(id string) ([]*Drill, error) {
	var out []*Drill
	for _, f := range index() {
		if f.section.ID == id {
			out = append(out, f.parse())
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w %q", ErrUnknownSection, id)
	}
	return out, nil
}
