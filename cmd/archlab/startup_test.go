package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartup runs whole processes: the archlab that `go run
// ./cmd/archlab` builds (version, drill --all, drill ack-lost) beside its
// floors: hello, a binary that prints one line, which issue 27's targets
// are measured against (version at most 2×, drill --all at most 3×); and
// deps, a binary that imports archlab's dependencies and does nothing
// (their init cost, and the dynamic linking pflag's import of net brings).
//
// Each iteration runs every command once, in turn, so that a loaded
// machine slows them alike; each reports its wall time and its CPU time
// (user + system, of the child: the steadier of the two on a shared
// machine), archlab's commands also their ratio to hello's, and the
// binary's size.
//
//	go test ./cmd/archlab -run '^$' -bench Startup -benchtime 200x -count 6
//
// ARCHLAB_OTHERS=name=path,… runs archlab binaries built elsewhere (from
// an earlier commit) the same way.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	type bin struct {
		name      string
		path      string
		args      []string
		wall, cpu time.Duration
	}
	hello := &bin{name: "hello", path: goBuild(b, dir, "hello", "./cmd/archlab/testdata/startup/hello")}
	archlab := goBuild(b, dir, "archlab", "./cmd/archlab")
	bins := []*bin{
		hello,
		{name: "deps", path: goBuild(b, dir, "deps", "./cmd/archlab/testdata/startup/deps")},
		{name: "version", path: archlab, args: []string{"version"}},
		{name: "all", path: archlab, args: []string{"drill", "--all"}},
		{name: "ack-lost", path: archlab, args: []string{"drill", "ack-lost"}},
	}
	for _, kv := range strings.Split(os.Getenv("ARCHLAB_OTHERS"), ",") {
		if name, path, ok := strings.Cut(kv, "="); ok {
			bins = append(bins, &bin{name: name + "-version", path: path, args: []string{"version"}},
				&bin{name: name + "-all", path: path, args: []string{"drill", "--all"}})
		}
	}
	for b.Loop() {
		for _, x := range bins {
			cmd := exec.Command(x.path, x.args...)
			cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%s %v: %v", x.path, x.args, err)
			}
			x.wall += time.Since(start)
			x.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
	}
	for _, x := range bins {
		b.ReportMetric(float64(x.wall.Microseconds())/1000/float64(b.N), x.name+"-wall-ms")
		b.ReportMetric(float64(x.cpu.Microseconds())/1000/float64(b.N), x.name+"-cpu-ms")
		if x != hello && x.args != nil {
			b.ReportMetric(float64(x.wall)/float64(hello.wall), x.name+"-wall-x-hello")
			b.ReportMetric(float64(x.cpu)/float64(hello.cpu), x.name+"-cpu-x-hello")
		}
	}
	if fi, err := os.Stat(archlab); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "archlab-MB")
	}
	b.ReportMetric(0, "ns/op") // the sum of all binaries means nothing
}

// BenchmarkRebuild is a student's loop: edit exercises/, build archlab
// again. Each iteration edits exercises' first file through go build's
// -overlay (the tree is not touched), with a new value each time so the
// build cache cannot answer, in two ways:
//
//   - body: a function that only the package sees changes, as when a
//     handler's body is edited; exercises compiles again and archlab
//     links again;
//   - api: an exported name changes, as when an edit reaches what
//     importers see (an inlined body, a signature); exercises, check and
//     archlab's main package compile again, and archlab links again.
//
// The baseline, in the same iteration, is the same go build with nothing
// changed: the go command's own cost of finding that out. Issue 27's
// target: a rebuild at most 1.5 s, the binary under 25 MB.
//
//	go test ./cmd/archlab -run '^$' -bench Rebuild -benchtime 5x -count 6
func BenchmarkRebuild(b *testing.B) {
	dir := b.TempDir()
	out := goBuild(b, dir, "archlab", "./cmd/archlab")
	files, _ := filepath.Glob(filepath.Join("..", "..", "exercises", "*.go"))
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
	if len(files) == 0 {
		b.Fatal("no exercises/*.go")
	}
	src, err := os.ReadFile(files[0])
	if err != nil {
		b.Fatal(err)
	}
	abs, _ := filepath.Abs(files[0])
	edited := filepath.Join(dir, "edited.go")
	overlay := filepath.Join(dir, "overlay.json")
	ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{abs: edited}})
	if err := os.WriteFile(overlay, ov, 0o600); err != nil {
		b.Fatal(err)
	}
	rebuild := func(pkg, format string, i int) time.Duration {
		edit := fmt.Appendf(slices.Clone(src), format, time.Now().UnixNano()+int64(i))
		if err := os.WriteFile(edited, edit, 0o600); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		goBuild(b, dir, filepath.Base(pkg)+"-edited", pkg, "-overlay", overlay)
		return time.Since(start)
	}
	goBuild(b, dir, "archlab-check", "./cmd/archlab-check")
	var unchanged, body, api, checker time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		goBuild(b, dir, "archlab", "./cmd/archlab")
		unchanged += time.Since(start)
		body += rebuild("./cmd/archlab", "\nfunc benchmarkEdit() int64 { return %d }\n", i)
		api += rebuild("./cmd/archlab", "\nvar BenchmarkEdit = %d\n", i)
		// What check --watch rebuilds after a save: the small checker.
		checker += rebuild("./cmd/archlab-check", "\nfunc benchmarkEdit() int64 { return %d }\n", i)
	}
	b.ReportMetric(unchanged.Seconds()/float64(b.N), "unchanged-s")
	b.ReportMetric(body.Seconds()/float64(b.N), "body-s")
	b.ReportMetric(api.Seconds()/float64(b.N), "api-s")
	b.ReportMetric(checker.Seconds()/float64(b.N), "checker-body-s")
	if fi, err := os.Stat(out); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "archlab-MB")
	}
	b.ReportMetric(0, "ns/op")
}

// goBuild builds pkg (relative to the module) into dir/name.
func goBuild(tb testing.TB, dir, name, pkg string, flags ...string) string {
	tb.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", append(append([]string{"build", "-o", out}, flags...), pkg)...)
	cmd.Dir = filepath.Join("..", "..")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}
