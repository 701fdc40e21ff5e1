package drills

import (
	"math"
	"strconv"

	"archlab/harness"
)

// Expressions are how a drill file computes its counters, states its checks
// and writes a step's numbers: integers, "strings", true and false; $param;
// a name (a counter already computed, a bound step's field such as
// first.attempts, or a harness observable such as effects); a call of a
// built-in (builtins, below) or of an observable, balance("o-1"); and the
// operators
//
//	?:  ||  &&  == != < <= > >=  + -  * / %  ! -(unary)
//
// with Go's precedence. A name is letters, digits and underscores: a dash
// is always a minus (applied-lost is applied - lost), except that it
// continues a parameter's name when a letter follows ($commit-every). There
// are no assignments and no loops: a file states, the harness does.
// Numbers are 64-bit integers, and arithmetic that overflows is an error,
// never a wrap. An expression nests at most MaxDepth levels.

// expr is a parsed expression.
type expr interface {
	eval(e *env) (any, error)
}

// env is what an expression can read.
type env struct {
	params   Values
	counters map[string]any
	bound    map[string]harness.Fields
	vars     map[string]int // repeat's "as i", a counter loop's variable
	h        harness.Harness
	calls    *[]Executed // the verbs called so far, when the run keeps them
	budget   Budget
	splits   map[[3]int]int // split_size's answers so far: a counter loop asks the same one again
}

type (
	lit   struct{ v any }
	param struct{ name string }
	name  struct{ name string }
	field struct{ label, field string }
	call  struct {
		fn   string
		args []expr
	}
	unary struct {
		op string
		x  expr
	}
	binary struct {
		op   string
		x, y expr
	}
	cond struct{ c, a, b expr }
)

// kind is an expression's type as far as the parser can tell: a literal's,
// an operator's result, a built-in's; anyKind for what only the run knows
// (an observable, a counter, a bound field).
type kind int

const (
	anyKind kind = iota
	intKind
	stringKind
	boolKind
)

// key is the kind's catalogue key: "a number", "a string", "true or false".
func (k kind) key() string {
	return [...]string{"file.kind.any", "file.kind.number", "file.kind.string", "file.kind.bool"}[k]
}

func kindOf(v any) kind {
	switch v.(type) {
	case int:
		return intKind
	case string:
		return stringKind
	case bool:
		return boolKind
	}
	return anyKind
}

// builtinFn is a function every drill file may call, in every section. This
// table is the one list of them: the parser checks a call's name, its
// number of arguments and the kinds it can see against it, and the
// evaluator checks the kinds again and calls fn.
type builtinFn struct {
	name     string
	min, max int    // how many arguments; max -1 for any number
	args     []kind // each argument's kind; the last one repeats
	result   kind
	fn       func(e *env, args []any) (any, error)
}

var builtins = []builtinFn{
	{name: "min", min: 1, max: -1, args: []kind{intKind}, result: intKind, fn: extreme(func(a, b int) bool { return a < b })},
	{name: "max", min: 1, max: -1, args: []kind{intKind}, result: intKind, fn: extreme(func(a, b int) bool { return a > b })},
	{name: "yesno", min: 1, max: 1, args: []kind{boolKind}, result: stringKind, fn: func(_ *env, a []any) (any, error) {
		if a[0].(bool) {
			return "yes", nil
		}
		return "no", nil
	}},
	// The book's producers first, then numbered ones.
	{name: "producer", min: 1, max: 1, args: []kind{intKind}, result: stringKind, fn: func(_ *env, a []any) (any, error) {
		i := a[0].(int)
		if i < 0 {
			return nil, bad("file.err.call.negative", "producer", 1, i)
		}
		if names := []string{"checkout", "refund"}; i < len(names) {
			return names[i], nil
		}
		return "producer-" + strconv.Itoa(i+1), nil
	}},
	// The size of shard i when keys are split into n shards, before any
	// split: what a parameter's bound can depend on.
	{name: "split_size", min: 3, max: 3, args: []kind{intKind, intKind, intKind}, result: intKind, fn: func(e *env, a []any) (any, error) {
		q := [3]int{a[0].(int), a[1].(int), a[2].(int)}
		if n, ok := e.splits[q]; ok {
			return n, nil
		}
		if err := e.size("split_size", "keys", q[0]); err != nil {
			return nil, err
		}
		n, err := harness.SplitSize(q[0], q[1], q[2])
		if err != nil {
			return nil, err
		}
		if e.splits == nil {
			e.splits = map[[3]int]int{}
		}
		e.splits[q] = n
		return n, nil
	}},
}

func extreme(better func(a, b int) bool) func(*env, []any) (any, error) {
	return func(_ *env, args []any) (any, error) {
		best := args[0].(int)
		for _, a := range args[1:] {
			if n := a.(int); better(n, best) {
				best = n
			}
		}
		return best, nil
	}
}

// lookupBuiltin finds a built-in by name.
func lookupBuiltin(name string) (builtinFn, bool) {
	for _, b := range builtins {
		if b.name == name {
			return b, true
		}
	}
	return builtinFn{}, false
}

// argKind is the kind of a built-in's i-th argument.
func (b builtinFn) argKind(i int) kind { return b.args[min(i, len(b.args)-1)] }

// arity checks a call's number of arguments.
func (b builtinFn) arity(n int) error {
	switch {
	case b.max < 0 && n < b.min:
		return bad("file.err.call.at-least", b.name, b.min, n)
	case b.max >= 0 && (n < b.min || n > b.max):
		return bad("file.err.call.arity", b.name, b.min, n)
	}
	return nil
}

// size checks a size a built-in or a step asks for against the budget.
func (e *env) size(who, what string, n int) error {
	b := e.budget.withDefaults()
	switch {
	case n < 0:
		return bad("file.err.size.negative", who, what, n)
	case n > b.Keys:
		return bad("file.err.budget.keys", who, what, n, b.Keys)
	}
	return nil
}

func (l lit) eval(*env) (any, error) { return l.v, nil }

func (p param) eval(e *env) (any, error) {
	v, ok := e.params[p.name]
	if !ok {
		return nil, bad("file.err.eval.no-param", p.name)
	}
	return v, nil
}

func (n name) eval(e *env) (any, error) {
	if v, ok := e.vars[n.name]; ok {
		return v, nil
	}
	if v, ok := e.counters[n.name]; ok {
		return v, nil
	}
	if e.h == nil {
		return nil, bad("file.err.eval.before-run", n.name)
	}
	return e.h.Observe(n.name, nil)
}

func (f field) eval(e *env) (any, error) {
	b, ok := e.bound[f.label]
	if !ok {
		return nil, bad("file.err.eval.no-label", f.label)
	}
	v, ok := b[f.field]
	if !ok {
		return nil, bad("file.err.eval.no-field", f.label, f.field)
	}
	return v, nil
}

func (c call) eval(e *env) (any, error) {
	args := make([]any, len(c.args))
	for i, a := range c.args {
		v, err := a.eval(e)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	if b, ok := lookupBuiltin(c.fn); ok {
		if err := b.arity(len(args)); err != nil {
			return nil, err
		}
		for i, a := range args {
			if k := b.argKind(i); kindOf(a) != k {
				return nil, bad("file.err.call.kind", c.fn, i+1, bad(k.key()), harness.Format(a))
			}
		}
		return b.fn(e, args)
	}
	if e.h == nil {
		return nil, bad("file.err.eval.before-run-call", c.fn)
	}
	return e.h.Observe(c.fn, args)
}

func (u unary) eval(e *env) (any, error) {
	v, err := u.x.eval(e)
	if err != nil {
		return nil, err
	}
	if u.op == "!" {
		b, ok := v.(bool)
		if !ok {
			return nil, bad("file.err.op.bool", "!", harness.Format(v))
		}
		return !b, nil
	}
	n, ok := v.(int)
	if !ok {
		return nil, bad("file.err.op.number", "-", harness.Format(v))
	}
	if n == math.MinInt {
		return nil, bad("file.err.overflow.neg", n)
	}
	return -n, nil
}

func (b binary) eval(e *env) (any, error) {
	x, err := b.x.eval(e)
	if err != nil {
		return nil, err
	}
	// && and || do not evaluate what they need not.
	if b.op == "&&" || b.op == "||" {
		xb, ok := x.(bool)
		if !ok {
			return nil, bad("file.err.op.bool", b.op, harness.Format(x))
		}
		if (b.op == "&&") != xb {
			return xb, nil
		}
		y, err := b.y.eval(e)
		if err != nil {
			return nil, err
		}
		yb, ok := y.(bool)
		if !ok {
			return nil, bad("file.err.op.bool", b.op, harness.Format(y))
		}
		return yb, nil
	}
	y, err := b.y.eval(e)
	if err != nil {
		return nil, err
	}
	switch b.op {
	case "==":
		return harness.Format(x) == harness.Format(y), nil
	case "!=":
		return harness.Format(x) != harness.Format(y), nil
	}
	xn, ok1 := x.(int)
	yn, ok2 := y.(int)
	if !ok1 || !ok2 {
		return nil, bad("file.err.op.numbers", b.op, harness.Format(x), harness.Format(y))
	}
	switch b.op {
	case "<":
		return xn < yn, nil
	case "<=":
		return xn <= yn, nil
	case ">":
		return xn > yn, nil
	case ">=":
		return xn >= yn, nil
	}
	return arith(b.op, xn, yn)
}

// arith is +, -, *, / or % on 64-bit integers; a result that does not fit
// is an error, never a wrap.
func arith(op string, x, y int) (int, error) {
	var r int
	overflow := false
	switch op {
	case "+":
		r = x + y
		overflow = (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0)
	case "-":
		r = x - y
		overflow = (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0)
	case "*":
		r = x * y
		overflow = x != 0 && (r/x != y || (x == -1 && y == math.MinInt) || (y == -1 && x == math.MinInt))
	case "/", "%":
		if y == 0 {
			return 0, bad("file.err.div-zero", x, op)
		}
		if op == "%" {
			return x % y, nil // MinInt % -1 is 0, as in Go
		}
		if x == math.MinInt && y == -1 {
			return 0, bad("file.err.overflow", x, op, y)
		}
		return x / y, nil
	}
	if overflow {
		return 0, bad("file.err.overflow", x, op, y)
	}
	return r, nil
}

func (c cond) eval(e *env) (any, error) {
	v, err := c.c.eval(e)
	if err != nil {
		return nil, err
	}
	b, ok := v.(bool)
	if !ok {
		return nil, bad("file.err.op.bool", "?:", harness.Format(v))
	}
	if b {
		return c.a.eval(e)
	}
	return c.b.eval(e)
}

// walk visits every plain name, call and field an expression reads, so
// the parser can check them against the harness before any run.
func walk(x expr, visit func(x expr)) {
	visit(x)
	switch x := x.(type) {
	case call:
		for _, a := range x.args {
			walk(a, visit)
		}
	case unary:
		walk(x.x, visit)
	case binary:
		walk(x.x, visit)
		walk(x.y, visit)
	case cond:
		walk(x.c, visit)
		walk(x.a, visit)
		walk(x.b, visit)
	}
}

// kindOfExpr is x's kind as far as the parser can tell, and an error for
// an operator or a built-in given a kind it cannot take: "a" + 1,
// producer("x"), !5.
func kindOfExpr(x expr) (kind, error) {
	switch x := x.(type) {
	case lit:
		return kindOf(x.v), nil
	case param:
		return intKind, nil
	case call:
		b, isBuiltin := lookupBuiltin(x.fn)
		for i, a := range x.args {
			k, err := kindOfExpr(a)
			if err != nil {
				return anyKind, err
			}
			if !isBuiltin || k == anyKind {
				continue
			}
			if want := b.argKind(i); k != want {
				return anyKind, bad("file.err.call.kind", x.fn, i+1, bad(want.key()), bad(k.key()))
			}
		}
		if isBuiltin {
			return b.result, nil
		}
	case unary:
		k, err := kindOfExpr(x.x)
		want := intKind
		if x.op == "!" {
			want = boolKind
		}
		if err == nil && k != anyKind && k != want {
			err = bad("file.err.op.kind", x.op, bad(want.key()), bad(k.key()))
		}
		return want, err
	case binary:
		kx, err := kindOfExpr(x.x)
		if err != nil {
			return anyKind, err
		}
		ky, err := kindOfExpr(x.y)
		if err != nil {
			return anyKind, err
		}
		switch x.op {
		case "==", "!=":
			return boolKind, nil
		case "&&", "||":
			return boolKind, wantKinds(x.op, boolKind, kx, ky)
		case "<", "<=", ">", ">=":
			return boolKind, wantKinds(x.op, intKind, kx, ky)
		}
		return intKind, wantKinds(x.op, intKind, kx, ky)
	case cond:
		kc, err := kindOfExpr(x.c)
		if err == nil && kc != anyKind && kc != boolKind {
			err = bad("file.err.op.kind", "?:", bad(boolKind.key()), bad(kc.key()))
		}
		if err != nil {
			return anyKind, err
		}
		ka, err := kindOfExpr(x.a)
		if err != nil {
			return anyKind, err
		}
		kb, err := kindOfExpr(x.b)
		if err != nil || ka != kb {
			return anyKind, err
		}
		return ka, nil
	}
	return anyKind, nil
}

func wantKinds(op string, want kind, ks ...kind) error {
	for _, k := range ks {
		if k != anyKind && k != want {
			return bad("file.err.op.kind", op, bad(want.key()), bad(k.key()))
		}
	}
	return nil
}

// constant is x's value when it reads nothing but literals and built-ins
// (3, min(2, 5), 1000000000000): a size the parser can check before any
// run. ok is false for anything that depends on the run or a parameter.
func constant(x expr) (v any, ok bool) {
	pure := true
	walk(x, func(y expr) {
		switch y := y.(type) {
		case name, field, param:
			pure = false
		case call:
			if _, ok := lookupBuiltin(y.fn); !ok {
				pure = false
			}
		}
	})
	if !pure {
		return nil, false
	}
	v, err := x.eval(&env{})
	return v, err == nil
}

// depthOf is how deeply x nests.
func depthOf(x expr) int {
	d := 0
	switch x := x.(type) {
	case call:
		for _, a := range x.args {
			d = max(d, depthOf(a))
		}
	case unary:
		d = depthOf(x.x)
	case binary:
		d = max(depthOf(x.x), depthOf(x.y))
	case cond:
		d = max(depthOf(x.c), depthOf(x.a), depthOf(x.b))
	}
	return d + 1
}
