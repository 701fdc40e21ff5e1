package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"archlab/ui/watch"
)

// BenchmarkSaveToVerdict is the student's feedback loop: the time from
// saving an exercise to its verdict on screen, at the default scope,
// rebuild included. "watch" is `archlab check --watch consumer-handler`
// running in a copy of the clone, timed from each save to the line that
// closes the verdict; "go-run" is the same edit followed by `go run
// ./cmd/archlab check consumer-handler`, the loop without --watch, as the
// baseline measured in the same run. The copy's exercise holds the book's
// handler, so each verdict is a pass, and each edit is a comment added.
//
//	go test ./cmd/archlab -run '^$' -bench SaveToVerdict -benchtime 5x
func BenchmarkSaveToVerdict(b *testing.B) {
	root := copyClone(b)
	writeBookHandler(b, filepath.Join(root, "exercises", "consumer_handler.go"))
	// The ledger, a mechanism: its verdict includes the model (the calls
	// in sequence and at once) before the drills and the schedules.
	right, err := os.ReadFile(filepath.Join("..", "..", "check", "testdata", "replay", "right", "ledger.go"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "exercises", "ledger.go"), right, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, ex := range []struct{ name, file string }{{"consumer-handler", "consumer_handler.go"}, {"ledger", "ledger.go"}} {
		b.Run(ex.name, func(b *testing.B) { saveToVerdict(b, root, ex.name, filepath.Join(root, "exercises", ex.file)) })
	}
}

// saveToVerdict times the loop on one exercise, whose file holds a right
// answer: with --watch, and with go run.
func saveToVerdict(b *testing.B, root, exercise, file string) {
	edit := func(i int) {
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\n// edit %d\n", i)
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("watch", func(b *testing.B) {
		exe, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cmd := exec.CommandContext(ctx, exe, "check", "--watch", exercise)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), asArchlab+"=1", "LC_ALL=", "LANG=")
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer cmd.Wait()
		defer cmd.Process.Kill()
		verdicts := make(chan string)
		go func() {
			sc := bufio.NewScanner(out)
			var last string
			for sc.Scan() {
				line := sc.Text()
				if strings.HasPrefix(line, "✓") || strings.HasPrefix(line, "✗") || strings.HasPrefix(line, "○") {
					last = line
				}
				if strings.HasSuffix(line, "exercises done") {
					verdicts <- last
				}
			}
			close(verdicts)
		}()
		wait := func() {
			select {
			case v, ok := <-verdicts:
				if !ok {
					b.Fatal("archlab check --watch ended")
				}
				if !strings.HasPrefix(v, "✓ "+exercise) {
					b.Fatalf("verdict %q, want a pass", v)
				}
			case <-time.After(5 * time.Minute):
				b.Fatal("no verdict in 5 minutes")
			}
		}
		wait() // the first check, and the first build of the checker
		// The poll's tick may fall anywhere: wait past it so the first
		// save is seen as every later one is.
		time.Sleep(watch.PollEvery)
		b.ResetTimer()
		for i := range b.N {
			edit(i)
			wait()
		}
	})

	b.Run("go-run", func(b *testing.B) {
		for i := range b.N {
			edit(1000 + i)
			cmd := exec.Command("go", "run", "./cmd/archlab", "check", exercise)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "LC_ALL=", "LANG=")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
}

// writeBookHandler writes the book's §8.2 handler into the stub's body.
func writeBookHandler(tb testing.TB, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	stub := "\t// Write your handler here. 在这里写你的处理函数。\n\treturn ErrNotImplemented"
	if !strings.Contains(string(src), stub) {
		tb.Fatalf("%s: no stub to replace", file)
	}
	book := "\tif _, err := d.ApplyOnce(); err != nil {\n\t\treturn err\n\t}\n\tif err := d.Notify(d.Message()); err != nil {\n\t\treturn err\n\t}\n\treturn d.Ack()"
	if err := os.WriteFile(file, []byte(strings.Replace(string(src), stub, book, 1)), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// copyClone copies this clone's source (not .git, not nested modules, not
// a built binary) into a temporary directory, as a student's clone.
func copyClone(tb testing.TB) string {
	src, err := filepath.Abs("../..")
	if err != nil {
		tb.Fatal(err)
	}
	dst := tb.TempDir()
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		// .git is a file in a git worktree ("gitdir: …"): copied, it
		// would make the copy the worktree itself to git, and a git
		// command run in the copy would commit to the clone's branch.
		if rel == "archlab" || rel == ".git" || strings.HasSuffix(rel, ".test") || !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		tb.Fatal(err)
	}
	return dst
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// BenchmarkCheckInAChild is what running each exercise in a child process
// (so that a loop that never returns can be stopped) adds to a passing
// check: `archlab check` on the book's logic, every exercise, in this
// process ("in-process", the baseline) and each in a child ("child").
//
//	go test ./cmd/archlab -run '^$' -bench CheckInAChild -benchtime 5x
func BenchmarkCheckInAChild(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv(testStudentsEnv, "book") // the children's code
	for _, mode := range []struct {
		name string
		exe  func() (string, error)
	}{{"in-process", nil}, {"child", func() (string, error) { return exe, nil }}} {
		b.Run(mode.name, func(b *testing.B) {
			for range b.N {
				var out, errb strings.Builder
				io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" },
					Students: scriptIO().Students, Exe: mode.exe}
				if code := run(io, []string{"check"}); code != 0 {
					b.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
				}
			}
		})
	}
}
