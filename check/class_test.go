package check_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"archlab/check"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/class"
	"archlab/ui/report"
	"archlab/ui/term"
)

// A class of 60 built from real verdicts: for each student and each
// exercise a seeded pick of the book's code, no code (not started), a
// known-wrong variant or a handler that panics, each run once through the
// whole check. The students' results are written as check --json files
// (40), Gradescope folders (10) and JUnit folders (10), then read back by
// archlab class and compared with a count the test makes itself, from the
// check results, without the class package.

const classSize = 60

type pick struct {
	name     string
	students *harness.Students
}

// picks are the choices for each exercise, the same for every student.
func picks() map[string][]pick {
	out := map[string][]pick{}
	book := check.Book()
	for _, e := range check.Exercises {
		out[e.Name] = []pick{{"book", book}, {"none", &harness.Students{}}}
	}
	per := map[string]int{}
	for _, v := range check.WrongVariants() {
		if per[v.Exercise] < 2 {
			out[v.Exercise] = append(out[v.Exercise], pick{v.Name, v.Students})
			per[v.Exercise]++
		}
	}
	out["consumer-handler"] = append(out["consumer-handler"], pick{"panics", &harness.Students{Inbox: func(*harness.Delivery) error { panic("a student's bug") }}})
	return out
}

// makeClass runs every pick once and writes the class into dir; it
// returns each student's results, by name.
func makeClass(t testing.TB, dir string) map[string][]*check.Result {
	ps := picks()
	ran := map[string]*check.Result{}
	rng := rand.New(rand.NewPCG(60, 35))
	class := map[string][]*check.Result{}
	for i := range classSize {
		name := fmt.Sprintf("student-%02d", i+1)
		var results []*check.Result
		for _, e := range check.Exercises {
			p := ps[e.Name][rng.IntN(len(ps[e.Name]))]
			key := e.Name + "/" + p.name
			if ran[key] == nil {
				ran[key] = check.Checked(e, p.name, p.students)
			}
			results = append(results, ran[key])
		}
		class[name] = results
		done := 0
		for _, r := range results {
			if r.Status == check.Done {
				done++
			}
		}
		rep := &report.Report{Renderer: &term.Renderer{Lang: i18n.EN, Width: 80},
			Info: report.GraderInfo{ArchlabVersion: "v1.0.0", SourcesSHA256: fmt.Sprintf("%064x", i+1)}}
		switch {
		case i < 40:
			f, err := os.Create(filepath.Join(dir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := term.WriteJSON(f, rep.JSON(results, done)); err != nil {
				t.Fatal(err)
			}
			f.Close()
		case i < 50:
			rep.Out = &strings.Builder{}
			if err := rep.Grader("gradescope", results, done, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		default:
			rep.Out = &strings.Builder{}
			if err := rep.Grader("junit", results, done, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return class
}

func TestClassCounts(t *testing.T) {
	if check.RaceOn {
		t.Skip("runs the whole check on every pick: minutes under the race detector")
	}
	dir := t.TempDir()
	want := makeClass(t, dir)
	c, err := class.Read(i18n.EN, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Refused) > 0 || len(c.Students) != classSize {
		t.Fatalf("read %d students, refused %v", len(c.Students), c.Refused)
	}
	s := class.Count(i18n.EN, c)

	// Each exercise's counts, made here from the check results.
	statuses := map[string]map[check.Status]int{}
	lessons := map[string][]string{} // exercise lesson/mistake → students
	for name, results := range want {
		for _, r := range results {
			if statuses[r.Exercise.Name] == nil {
				statuses[r.Exercise.Name] = map[check.Status]int{}
			}
			statuses[r.Exercise.Name][r.Status]++
			seen := map[string]bool{}
			for i, l := range r.Lessons {
				if l.Counter != "" && i > 0 {
					continue // a drill's counter beside its checks is left out
				}
				k := r.Exercise.Name + " lesson " + l.ID()
				if !seen[k] {
					lessons[k] = append(lessons[k], name)
					seen[k] = true
				}
			}
			if m := r.Mistake; m != "" {
				k := r.Exercise.Name + " mistake " + m
				lessons[k] = append(lessons[k], name)
			}
		}
	}
	kinds := map[check.Status]int{}
	for _, e := range s.Exercises {
		st := statuses[e.Name]
		got := [5]int{e.Done, e.NotDone, e.NotStarted, e.Timeout, e.Error}
		exp := [5]int{st[check.Done], st[check.NotDone], st[check.NotStarted], st[check.Hung], st[check.Failed]}
		if got != exp || e.Missing != 0 {
			t.Errorf("%s: done, not done, not started, timeout, error = %v, want %v", e.Name, got, exp)
		}
		for k, n := range st {
			kinds[k] += n
		}
	}
	for _, k := range []check.Status{check.Done, check.NotDone, check.NotStarted, check.Failed} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the class: the test does not cover it", k)
		}
	}
	if len(s.Rows) != len(lessons) {
		t.Errorf("%d rows, want %d", len(s.Rows), len(lessons))
	}
	for i, row := range s.Rows {
		k := row.Exercise + " " + row.Kind + " " + row.ID
		exp := lessons[k]
		slices.Sort(exp)
		if !slices.Equal(row.Students, exp) {
			t.Errorf("%s: students %v, want %v", k, row.Students, exp)
		}
		if i > 0 && len(row.Students) > len(s.Rows[i-1].Students) {
			t.Errorf("row %d (%s) has more students than the one before it", i+1, k)
		}
	}
	// A row of check --json students has its shortest run.
	examples := 0
	for _, row := range s.Rows {
		if row.Example != nil {
			examples++
			if row.Example.Body == "" || row.Example.Steps == 0 {
				t.Errorf("%s: empty shortest run %+v", row.ID, row.Example)
			}
		}
	}
	if examples == 0 {
		t.Error("no row has a shortest run")
	}
}

// BenchmarkClass reads and counts the class of 60: the target is under a
// second; the baseline reads the same files and decodes them as JSON or
// XML with nothing else, to show what the class's own work costs.
func BenchmarkClass(b *testing.B) {
	dir := b.TempDir()
	makeClass(b, dir)
	b.Run("class", func(b *testing.B) {
		for b.Loop() {
			c, err := class.Read(i18n.EN, dir)
			if err != nil || len(c.Students) != classSize {
				b.Fatal(err)
			}
			class.Count(i18n.EN, c)
		}
	})
	b.Run("baseline-read", func(b *testing.B) {
		for b.Loop() {
			n := 0
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if _, err := os.ReadFile(p); err == nil {
						n++
					}
				}
				return nil
			})
			if n != classSize {
				b.Fatal(n)
			}
		}
	})
}
