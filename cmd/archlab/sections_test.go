package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"archlab/check"
	"archlab/drills"
	"archlab/exercises"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/cli"
)

// missingRows names every per-section table of the layers above the lab
// that has no row for sec: what a new section of the book still needs,
// each with the file to open. The tables are keyed on the section value,
// so this walks them rather than a list of names.
func missingRows(t *testing.T, sec *harness.Section) []string {
	t.Helper()
	var missing []string
	miss := func(row string) { missing = append(missing, row) }

	// the drivers
	if _, ok := explore.Mechanisms[sec]; !ok {
		miss("the explorer's row: explore.Mechanisms (explore/mechanism.go)")
	}
	if !slices.ContainsFunc(check.Exercises, func(e *check.Exercise) bool { return e.Section == sec && e.Tier == check.TierProtocol }) {
		miss("its protocol exercise: check.Exercises (check/exercise.go)")
	}
	for _, name := range sec.Exercises {
		if e, err := check.Lookup(name); err != nil || e.Section != sec {
			miss("its mechanism exercise " + name + ": check.Exercises (check/exercise.go)")
		}
	}
	for _, plug := range []struct {
		where    string
		students *harness.Students
	}{{"exercises.Students (exercises/doc.go)", exercises.Students()}, {"check.Book (check/book.go)", check.Book()}} {
		if !slices.Contains(explore.StateStrategies(sec, plug.students), harness.Student) {
			miss("the student's code plugged in: " + plug.where + ", and the explorer's row saying so (explore/mechanism.go)")
		}
	}
	if list, err := drills.InSection(sec.ID); err != nil || len(list) == 0 {
		miss("a drill: drills/files/" + sec.ID + "/")
	}

	// the ui
	var buf bytes.Buffer
	root := newRootCmd(&cli.Env{IO: &IO{Out: &buf, Err: &buf, Getenv: func(string) string { return "" }}, Lang: i18n.EN})
	if sub, _, err := root.Find([]string{"explore", sec.Harness}); err != nil || sub.Name() != sec.Harness {
		miss("archlab explore " + sec.Harness + ": its scope's flags (ui/cmd/explore/cmd.go)")
	}
	for _, lang := range i18n.Langs {
		for _, key := range []string{sec.TitleKey(), "explore.help." + sec.Harness + ".short", "explore.help." + sec.Harness + ".long", "explore.help." + sec.Harness + ".example"} {
			if !i18n.Has(lang, key) {
				miss("the words " + key + " (i18n/, " + string(lang) + ")")
			}
		}
	}
	readme, err := os.ReadFile("../../docs/drill-files.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte("<!-- verbs "+sec.ID+" -->")) {
		miss("its verbs block <!-- verbs " + sec.ID + " --> (docs/drill-files.md; TestReadmeVerbs holds its lines)")
	}
	return missing
}

// TestEverySectionHasEveryRow: every table an upper layer keys on a
// section has a row for each of harness.Sections, and the test names each
// row a section lacks, so a new section fails here with its list.
func TestEverySectionHasEveryRow(t *testing.T) {
	for _, sec := range harness.Sections {
		if missing := missingRows(t, sec); len(missing) > 0 {
			t.Errorf("§%s (%s) has no row in:\n\t%s", sec.ID, sec.Harness, strings.Join(missing, "\n\t"))
		}
	}
}

// TestANewSectionIsToldEveryRow: the coverage test above can fail, and
// for each table: a section no table knows (modelled on §11.2, which is
// not in harness.Sections, so nothing else sees it) is told all of them.
func TestANewSectionIsToldEveryRow(t *testing.T) {
	fourth := harness.ShardjobSection
	fourth.ID, fourth.Harness = "12.1", "saga"
	missing := missingRows(t, &fourth)
	for _, table := range []string{"explore.Mechanisms", "check.Exercises", "exercises.Students", "check.Book", "drills/files/12.1/",
		"archlab explore saga", "section.12.1 (i18n/, zh)", "section.12.1 (i18n/, en)", "explore.help.saga.long (i18n/, zh)", "<!-- verbs 12.1 -->"} {
		if !slices.ContainsFunc(missing, func(m string) bool { return strings.Contains(m, table) }) {
			t.Errorf("a section with no rows is not told %q; it is told:\n\t%s", table, strings.Join(missing, "\n\t"))
		}
	}
	t.Logf("what a new section is told:\n\t%s", strings.Join(missing, "\n\t"))
}

// sectionValue says whether x is one section's value, harness.InboxSection
// or &harness.InboxSection: a table may hold it as a row's key, but code
// that compares with it is a switch on the section by another name.
func sectionValue(x ast.Expr) bool {
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = u.X
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "harness" && strings.HasSuffix(sel.Sel.Name, "Section") && sel.Sel.Name != "Section"
}

// TestNoSectionNameOutsideTheLab: a section of the book is one value
// (harness.Sections), so no code above the lab spells a section's name or
// ID: a switch on "inbox" or a literal "8.2" is a table row a fourth
// section would have to find by hand. Only harness/ (which defines them),
// internal/ (the book) and i18n/ (whose keys name them) may. Comments and
// strings that merely contain a name ("explore {inbox | ordering}") are
// words, not a switch; a string literal that is exactly a name is caught
// wherever it stands, and so is a comparison or a case with one section's
// value (sec == &harness.InboxSection).
func TestNoSectionNameOutsideTheLab(t *testing.T) {
	var names []string
	for _, s := range harness.Sections {
		names = append(names, s.ID, s.Harness)
	}
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case ".git", "harness", "internal", "i18n", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		at := func(n ast.Node) string {
			return filepath.ToSlash(rel) + ":" + strconv.Itoa(fset.Position(n.Pos()).Line)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && slices.Contains(names, v) {
					t.Errorf("%s: %s names a section: key a table on its *harness.Section instead", at(n), n.Value)
				}
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (sectionValue(n.X) || sectionValue(n.Y)) {
					t.Errorf("%s: compares with one section's value: key a table on the section instead", at(n))
				}
			case *ast.CaseClause:
				if slices.ContainsFunc(n.List, sectionValue) {
					t.Errorf("%s: a case for one section's value: key a table on the section instead", at(n))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
