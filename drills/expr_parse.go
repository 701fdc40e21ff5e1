package drills

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The expression parser: precedence climbing over the tokens of one
// expression, as a counter, a check or a step's argument writes it
// (the grammar is in expr.go's comment).

// parseExpr parses one expression; the whole text must be used.
func parseExpr(s string) (expr, error) {
	p := &exprParser{src: s}
	p.next()
	x, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if p.err != nil {
		return nil, p.err
	}
	if p.tok != "" {
		return nil, bad("file.err.expr.trailing", p.tok)
	}
	if depthOf(x) > MaxDepth {
		return nil, bad("file.err.expr.deep", MaxDepth)
	}
	return x, nil
}

type exprParser struct {
	src   string
	pos   int
	tok   string // "" at the end
	kind  byte   // 'n' number, 's' string, 'i' identifier, '$' param, 'o' operator
	err   error
	depth int // how deeply the expression built so far nests
}

var operators = []string{"&&", "||", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "!", "(", ")", ",", "?", ":"}

// deeper notes one more level of nesting; past MaxDepth the expression is
// refused before the parser's recursion (or the evaluator's) grows with it.
func (p *exprParser) deeper() error {
	if p.depth++; p.depth > MaxDepth {
		return bad("file.err.expr.deep", MaxDepth)
	}
	return nil
}

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
			p.err = bad("file.err.expr.unclosed-string")
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
			// ($commit-every), else it is a minus ($deliveries-1); in any
			// other name it is a minus.
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
		r, _ := utf8.DecodeRuneInString(p.src[p.pos:]) // the whole character, not its first byte
		p.err = bad("file.err.expr.char", string(r))
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
			return bad("file.err.expr.expected-end", op)
		}
		return bad("file.err.expr.expected", op, p.tok)
	}
	p.next()
	return nil
}

func (p *exprParser) ternary() (expr, error) {
	if err := p.deeper(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
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

// precedence lists the binary operators from the loosest to the tightest,
// as Go binds them: || below &&, both below the comparisons.
var precedence = [][]string{{"||"}, {"&&"}, {"==", "!=", "<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *exprParser) binary(level int) (expr, error) {
	if level == len(precedence) {
		return p.unary()
	}
	x, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	// Each operator of a chain (a+b+c…) nests the tree one level deeper.
	depth := p.depth
	defer func() { p.depth = depth }()
	for p.kind == 'o' && contains(precedence[level], p.tok) {
		op := p.tok
		if err := p.deeper(); err != nil {
			return nil, err
		}
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
		if err := p.deeper(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
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
		return nil, bad("file.err.expr.ended")
	case 'n':
		p.next()
		n, err := strconv.Atoi(tok)
		if err != nil {
			return nil, bad("file.err.expr.range", tok)
		}
		return lit{n}, nil
	case 's':
		p.next()
		return lit{tok[1 : len(tok)-1]}, nil
	case '$':
		p.next()
		if len(tok) == 1 {
			return nil, bad("file.err.expr.dollar")
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
				return nil, bad("file.err.expr.dotted", tok)
			}
			return field{label, f}, nil
		}
		if p.kind == 'o' && p.tok == "(" {
			if err := p.deeper(); err != nil {
				return nil, err
			}
			defer func() { p.depth-- }()
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
		if err := p.deeper(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.next()
		x, err := p.ternary()
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	}
	return nil, bad("file.err.expr.unexpected", tok)
}
