package drills

import (
	"fmt"
	"strconv"
	"strings"

	"archlab/harness"
)

// Expressions are how a drill file computes its counters, states its checks
// and writes a step's numbers: integers, "strings", true and false; $param;
// a name (a counter already computed, a bound step's field such as
// first.attempts, or a harness observable such as effects); a call of an
// observable, balance("o-1"); and the operators
//
//	?:  ||  &&  == != < <= > >=  + -  * / %  ! -(unary)
//
// with Go's precedence. There are no assignments and no loops: a file
// states, the harness does.

// expr is a parsed expression.
type expr interface {
	eval(e *env) (any, error)
}

// env is what an expression can read.
type env struct {
	params   Values
	counters map[string]any
	bound    map[string]harness.Fields
	vars     map[string]int // repeat's "as i"
	h        harness.Harness
	calls    *[]Executed // the verbs called so far, when the run keeps them
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

func (l lit) eval(*env) (any, error) { return l.v, nil }

func (p param) eval(e *env) (any, error) {
	v, ok := e.params[p.name]
	if !ok {
		return nil, fmt.Errorf("no parameter $%s", p.name)
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
		return nil, fmt.Errorf("%s is not known before the run", n.name)
	}
	return e.h.Observe(n.name, nil)
}

func (f field) eval(e *env) (any, error) {
	b, ok := e.bound[f.label]
	if !ok {
		return nil, fmt.Errorf("no step is bound to %s", f.label)
	}
	v, ok := b[f.field]
	if !ok {
		return nil, fmt.Errorf("%s has no field %s", f.label, f.field)
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
	switch c.fn {
	case "min", "max":
		if len(args) == 0 {
			return nil, fmt.Errorf("%s needs arguments", c.fn)
		}
		best := 0
		for i, a := range args {
			n, ok := a.(int)
			if !ok {
				return nil, fmt.Errorf("%s takes numbers, got %v", c.fn, a)
			}
			if i == 0 || (c.fn == "min" && n < best) || (c.fn == "max" && n > best) {
				best = n
			}
		}
		return best, nil
	case "yesno":
		if len(args) != 1 {
			return nil, fmt.Errorf("yesno takes one argument")
		}
		b, ok := args[0].(bool)
		if !ok {
			return nil, fmt.Errorf("yesno takes a boolean, got %v", args[0])
		}
		if b {
			return "yes", nil
		}
		return "no", nil
	case "producer":
		// The book's producers first, then numbered ones.
		i, ok := args[0].(int)
		if len(args) != 1 || !ok {
			return nil, fmt.Errorf("producer takes one number")
		}
		if names := []string{"checkout", "refund"}; i >= 0 && i < len(names) {
			return names[i], nil
		}
		return fmt.Sprintf("producer-%d", i+1), nil
	case "split_size":
		a, ok1 := intArg(args, 0)
		b, ok2 := intArg(args, 1)
		c, ok3 := intArg(args, 2)
		if len(args) != 3 || !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("split_size takes three numbers: keys, shards, shard")
		}
		return harness.SplitSize(a, b, c)
	}
	if e.h == nil {
		return nil, fmt.Errorf("%s() is not known before the run", c.fn)
	}
	return e.h.Observe(c.fn, args)
}

func intArg(args []any, i int) (int, bool) {
	if i >= len(args) {
		return 0, false
	}
	n, ok := args[i].(int)
	return n, ok
}

func (u unary) eval(e *env) (any, error) {
	v, err := u.x.eval(e)
	if err != nil {
		return nil, err
	}
	switch u.op {
	case "!":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("! needs a boolean, got %v", v)
		}
		return !b, nil
	default: // "-"
		n, ok := v.(int)
		if !ok {
			return nil, fmt.Errorf("- needs a number, got %v", v)
		}
		return -n, nil
	}
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
			return nil, fmt.Errorf("%s needs booleans, got %v", b.op, x)
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
			return nil, fmt.Errorf("%s needs booleans, got %v", b.op, y)
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
		return nil, fmt.Errorf("%s needs numbers, got %v and %v", b.op, x, y)
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
	case "+":
		return xn + yn, nil
	case "-":
		return xn - yn, nil
	case "*":
		return xn * yn, nil
	}
	if yn == 0 {
		return nil, fmt.Errorf("division by zero")
	}
	if b.op == "/" {
		return xn / yn, nil
	}
	return xn % yn, nil
}

func (c cond) eval(e *env) (any, error) {
	v, err := c.c.eval(e)
	if err != nil {
		return nil, err
	}
	b, ok := v.(bool)
	if !ok {
		return nil, fmt.Errorf("?: needs a boolean condition, got %v", v)
	}
	if b {
		return c.a.eval(e)
	}
	return c.b.eval(e)
}

// parseExpr parses one expression; the whole text must be used.
func parseExpr(s string) (expr, error) {
	p := &exprParser{src: s}
	p.next()
	x, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if p.tok != "" {
		return nil, fmt.Errorf("unexpected %q after the expression", p.tok)
	}
	return x, nil
}

type exprParser struct {
	src  string
	pos  int
	tok  string // "" at the end
	kind byte   // 'n' number, 's' string, 'i' identifier, '$' param, 'o' operator
	err  error
}

var operators = []string{"&&", "||", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "!", "(", ")", ",", "?", ":"}

func (p *exprParser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.tok, p.kind = "", 0
		return
	}
	start, c := p.pos, p.src[p.pos]
	switch {
	case c >= '0' && c <= '9':
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		p.kind = 'n'
	case c == '"':
		p.pos++
		for p.pos < len(p.src) && p.src[p.pos] != '"' {
			p.pos++
		}
		if p.pos >= len(p.src) {
			p.err = fmt.Errorf("a string opened with \" is never closed")
			p.tok, p.kind = "", 0
			return
		}
		p.pos++
		p.kind = 's'
	case c == '$' || isIdentStart(c):
		p.pos++
		p.kind = 'i'
		if c == '$' {
			p.kind = '$'
		}
		for p.pos < len(p.src) {
			d := p.src[p.pos]
			// A dash continues a parameter's name when a letter follows
			// ($commit-every), else it is a minus ($deliveries-1).
			if d == '-' && c == '$' && p.pos+1 < len(p.src) && isIdentStart(p.src[p.pos+1]) {
				p.pos++
				continue
			}
			if !isIdentChar(d) && d != '.' {
				break
			}
			p.pos++
		}
	default:
		p.kind = 'o'
		for _, op := range operators {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += len(op)
				p.tok = op
				return
			}
		}
		p.err = fmt.Errorf("unexpected character %q", c)
		p.tok, p.kind = "", 0
		return
	}
	p.tok = p.src[start:p.pos]
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

func (p *exprParser) expect(op string) error {
	if p.err != nil {
		return p.err
	}
	if p.tok != op || p.kind != 'o' {
		if p.tok == "" {
			return fmt.Errorf("expected %q, the expression ended", op)
		}
		return fmt.Errorf("expected %q, got %q", op, p.tok)
	}
	p.next()
	return nil
}

func (p *exprParser) ternary() (expr, error) {
	c, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	if p.kind != 'o' || p.tok != "?" {
		return c, nil
	}
	p.next()
	a, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	b, err := p.ternary()
	if err != nil {
		return nil, err
	}
	return cond{c, a, b}, nil
}

var precedence = [][]string{{"||"}, {"&&"}, {"==", "!=", "<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *exprParser) binary(level int) (expr, error) {
	if level == len(precedence) {
		return p.unary()
	}
	x, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for p.kind == 'o' && contains(precedence[level], p.tok) {
		op := p.tok
		p.next()
		y, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		x = binary{op, x, y}
	}
	return x, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *exprParser) unary() (expr, error) {
	if p.kind == 'o' && (p.tok == "!" || p.tok == "-") {
		op := p.tok
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return unary{op, x}, nil
	}
	return p.primary()
}

func (p *exprParser) primary() (expr, error) {
	if p.err != nil {
		return nil, p.err
	}
	tok, kind := p.tok, p.kind
	switch kind {
	case 0:
		return nil, fmt.Errorf("expected a value, the expression ended")
	case 'n':
		p.next()
		n, err := strconv.Atoi(tok)
		if err != nil {
			return nil, fmt.Errorf("number %s is out of range", tok)
		}
		return lit{n}, nil
	case 's':
		p.next()
		return lit{tok[1 : len(tok)-1]}, nil
	case '$':
		p.next()
		if len(tok) == 1 {
			return nil, fmt.Errorf("$ must be followed by a parameter's name")
		}
		return param{tok[1:]}, nil
	case 'i':
		p.next()
		switch tok {
		case "true":
			return lit{true}, nil
		case "false":
			return lit{false}, nil
		}
		if label, f, ok := strings.Cut(tok, "."); ok {
			if label == "" || f == "" || strings.Contains(f, ".") {
				return nil, fmt.Errorf("%q is not a name: use label.field", tok)
			}
			return field{label, f}, nil
		}
		if p.kind == 'o' && p.tok == "(" {
			p.next()
			var args []expr
			for !(p.kind == 'o' && p.tok == ")") {
				a, err := p.ternary()
				if err != nil {
					return nil, err
				}
				args = append(args, a)
				if p.kind == 'o' && p.tok == "," {
					p.next()
				} else if !(p.kind == 'o' && p.tok == ")") {
					return nil, p.expect(")")
				}
			}
			p.next()
			return call{tok, args}, nil
		}
		return name{tok}, nil
	}
	if tok == "(" {
		p.next()
		x, err := p.ternary()
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	}
	return nil, fmt.Errorf("unexpected %q", tok)
}

// names lists every plain name, call and field an expression reads, so
// the parser can check them against the harness before any run.
func names(x expr, visit func(kind, name string, args int)) {
	switch x := x.(type) {
	case name:
		visit("name", x.name, 0)
	case call:
		visit("call", x.fn, len(x.args))
		for _, a := range x.args {
			names(a, visit)
		}
	case field:
		visit("field", x.label+"."+x.field, 0)
	case param:
		visit("param", x.name, 0)
	case unary:
		names(x.x, visit)
	case binary:
		names(x.x, visit)
		names(x.y, visit)
	case cond:
		names(x.c, visit)
		names(x.a, visit)
		names(x.b, visit)
	}
}
