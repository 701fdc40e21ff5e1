package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLongSweepsRunInCI: every test that reads longOn (a part left out of
// go test ./..., run with -tags long) is named by .ci/long-tests, the
// -run pattern .ci/run gives the long sweep, and every name there is such
// a test. A test that gains a long part and is not listed would never
// run that part anywhere; this test fails first, naming it.
func TestLongSweepsRunInCI(t *testing.T) {
	b, err := os.ReadFile("../../.ci/long-tests")
	if err != nil {
		t.Fatal(err)
	}
	pattern, err := regexp.Compile(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf(".ci/long-tests: %v", err)
	}
	var long []string // "pkg.TestName"
	fset := token.NewFileSet()
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "peers" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			reads := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == "longOn" {
					reads = true
				}
				return !reads
			})
			if reads {
				long = append(long, filepath.Dir(path)+" "+fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(long) == 0 {
		t.Fatal("no test reads longOn: the walk found nothing")
	}
	var names []string
	for _, l := range long {
		name := l[strings.LastIndexByte(l, ' ')+1:]
		names = append(names, name)
		if !pattern.MatchString(name) {
			t.Errorf("%s reads longOn, but .ci/long-tests (%s) does not name it: its long part never runs", l, pattern)
		}
	}
	for _, name := range regexp.MustCompile(`Test[A-Za-z0-9_]+`).FindAllString(pattern.String(), -1) {
		if !slices.Contains(names, name) {
			t.Errorf(".ci/long-tests names %s, which reads no longOn", name)
		}
	}
}
