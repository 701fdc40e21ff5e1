package check

import (
	"fmt"
	"go/format"
	"strings"
)

// A model's counterexample replays as a Go test: the drill language speaks
// of deliveries, crashes and takeovers, not of one call to Prune, so the
// calls are written as Go the student can paste next to the exercise and
// run with go test. Each call is checked against the book's answer as the
// check saw it, and the last call's reads too, where the two parted.

// goTest is what a machine writes a replay with.
type goTest struct {
	Type    string   // the student's type: "Ledger"
	Imports []string // besides fmt and testing
	Setup   string   // the line that opens the student's value
	// Sentinels are the book's errors the answers name, as Go
	// expressions: "ordering.ErrPoison".
	Sentinels []string
	// Vars are the variables the calls assign, declared once.
	Vars string
}

// goLine is one call or read in the test: the statement that makes it and
// the expression that prints what it returned as the check does.
type goLine struct {
	Stmt, Got string
}

// write is the test file: every call with its book's answer, then the
// reads after the last call.
func (g goTest) write(calls []Call, lines [][]goLine) string {
	var b strings.Builder
	name := "Test" + g.Type + "Replay"
	lower := strings.ToLower(g.Type[:1]) + g.Type[1:]
	fmt.Fprintf(&b, "package exercises\n\n")
	// Lines under 80 columns: the file is pasted into a student's editor.
	fmt.Fprintf(&b, "// %s replays the shortest run `archlab check` found\n", name)
	fmt.Fprintf(&b, "// where your %s answers otherwise than the book's. Save it as\n", g.Type)
	fmt.Fprintf(&b, "// exercises/%s_replay_test.go and run:\n", strings.ToLower(g.Type))
	fmt.Fprintf(&b, "// go test ./exercises -run %s\n\n", name)
	fmt.Fprintf(&b, "import (\n")
	for _, imp := range append([]string{"errors", "fmt", "testing"}, g.Imports...) {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	fmt.Fprintf(&b, ")\n\n")
	fmt.Fprintf(&b, "func %s(t *testing.T) {\n", name)
	fmt.Fprintf(&b, "\t%s\n", g.Setup)
	if g.Vars != "" {
		fmt.Fprintf(&b, "\t%s\n", g.Vars)
	}
	for i, c := range calls {
		for j, l := range lines[i] {
			if i < len(calls)-1 && j > 0 {
				break // the reads only after the call that differs
			}
			if l.Stmt != "" {
				fmt.Fprintf(&b, "\t%s\n", l.Stmt)
			}
			what := c.Book[j].What
			fmt.Fprintf(&b, "\t%sWant(t, %d, %s, %s, %q)\n", lower, i+1, goQuote(what), l.Got, c.Book[j].Value)
		}
	}
	fmt.Fprintf(&b, "\t_ = errors.Is // not every run names an error\n")
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// %sWant fails the test where your answer is not the book's.\n", lower)
	fmt.Fprintf(&b, "func %sWant(t *testing.T, call int, what, yours, book string) {\n", lower)
	fmt.Fprintf(&b, "\tt.Helper()\n\tif yours != book {\n")
	fmt.Fprintf(&b, "\t\tt.Fatalf(\"call %%d, %%s: the book's answers %%s, yours %%s\", call, what, book, yours)\n\t}\n}\n\n")
	fmt.Fprintf(&b, "// %sErr names an error as the check does: nil, the book's sentinel it\n", lower)
	fmt.Fprintf(&b, "// wraps, or an error of your own.\n")
	fmt.Fprintf(&b, "func %sErr(err error) string {\n", lower)
	fmt.Fprintf(&b, "\tif err == nil {\n\t\treturn \"nil\"\n\t}\n")
	for _, s := range g.Sentinels {
		_, short, _ := strings.Cut(s, ".")
		fmt.Fprintf(&b, "\tif errors.Is(err, %s) {\n\t\treturn %q\n\t}\n", s, short)
	}
	fmt.Fprintf(&b, "\treturn fmt.Sprintf(\"error(%%q)\", err.Error())\n}\n")
	return b.String()
}

// gofmt is src as gofmt writes it (src itself if it does not parse, which
// a test of the replay would show).
func gofmt(src string) string {
	out, err := format.Source([]byte(src))
	if err != nil {
		return src
	}
	return string(out)
}

// goQuote is s as a Go string literal, backquoted when it holds quotes.
func goQuote(s string) string {
	if strings.Contains(s, `"`) && !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return fmt.Sprintf("%q", s)
}
