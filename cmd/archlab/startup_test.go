package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartup runs whole processes: archlab's `drill --all` on the
// model, beside its floors: a hello-world binary; deps, a binary that
// imports archlab's dependencies and does nothing (their init cost);
// deps-linked, the same with the entry points archlab calls linked in
// (their size too); deps-before, deps without the broker packages.
// archlab's own share is its time above a deps floor.
//
// Each iteration runs every binary once, in turn, so that a loaded
// machine slows them alike; each reports its wall time and its CPU time
// (user + system, of the child: the steadier of the two on a shared
// machine).
//
//	ARCHLAB_OTHERS=before=/tmp/archlab-before go test ./cmd/archlab -run '^$' -bench Startup -benchtime 30x -count 6
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	build := func(name, pkg string) string {
		out := filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir = filepath.Join("..", "..")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
		return out
	}
	type bin struct {
		name      string
		path      string
		args      []string
		wall, cpu time.Duration
	}
	bins := []*bin{
		{name: "hello", path: build("hello", "./cmd/archlab/testdata/startup/hello")},
		{name: "deps-before", path: build("depsbefore", "./cmd/archlab/testdata/startup/depsbefore")},
		{name: "deps", path: build("deps", "./cmd/archlab/testdata/startup/deps")},
		{name: "deps-linked", path: build("depslinked", "./cmd/archlab/testdata/startup/depslinked")},
		{name: "archlab", path: build("archlab", "./cmd/archlab"), args: []string{"drill", "--all"}},
	}
	// ARCHLAB_OTHERS=name=path,…: archlab binaries built elsewhere (from
	// an earlier commit), run the same way.
	for _, kv := range strings.Split(os.Getenv("ARCHLAB_OTHERS"), ",") {
		if name, path, ok := strings.Cut(kv, "="); ok {
			bins = append(bins, &bin{name: name, path: path, args: []string{"drill", "--all"}})
		}
	}
	for b.Loop() {
		for _, x := range bins {
			cmd := exec.Command(x.path, x.args...)
			cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			x.wall += time.Since(start)
			x.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
	}
	for _, x := range bins {
		b.ReportMetric(float64(x.wall.Microseconds())/1000/float64(b.N), x.name+"-wall-ms")
		b.ReportMetric(float64(x.cpu.Microseconds())/1000/float64(b.N), x.name+"-cpu-ms")
	}
	b.ReportMetric(0, "ns/op") // the sum of all binaries means nothing
}
