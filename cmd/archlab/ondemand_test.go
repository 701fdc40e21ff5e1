package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"archlab/i18n"
	"archlab/ui/cli"
)

// TestLightBinaryLeavesOutHeavyParts: the archlab that `go run
// ./cmd/archlab` builds links none of the heavy dependencies; each comes
// with its build tag, and only with it.
func TestLightBinaryLeavesOutHeavyParts(t *testing.T) {
	heavy := map[string][]string{
		"brokers": {"github.com/nats-io/nats-server/v2/server", "github.com/twmb/franz-go/pkg/kfake", "archlab/adapters/broker/natsbroker"},
		"sqlite":  {"modernc.org/sqlite", "archlab/adapters/sqlstore", "archlab/adapters/consumerproc"},
		"web":     {"net/http", "archlab/ui/web"},
	}
	deps := func(tags string) []string {
		cmd := exec.Command("go", "list", "-deps", "-tags", tags, ".")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -tags %q: %v", tags, err)
		}
		return strings.Fields(string(out))
	}
	light := deps("")
	for tag, pkgs := range heavy {
		withTag := deps(tag)
		for _, p := range pkgs {
			if slices.Contains(light, p) {
				t.Errorf("the light archlab links %s", p)
			}
			if !slices.Contains(withTag, p) {
				t.Errorf("archlab built with -tags %s does not link %s", tag, p)
			}
		}
	}
	// tablewriter stays: the product draws its tables with it (the brief
	// fixes it, like cobra and color).
	for _, p := range []string{"github.com/schollz/progressbar/v3", "crypto/tls"} {
		if slices.Contains(light, p) {
			t.Errorf("the light archlab links %s", p)
		}
	}
}

// freshCache is a user cache directory with nothing built in it, for a
// test that watches the first build. Go's own build cache stays the
// user's (it would otherwise move under the new directory, empty).
func freshCache(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+dir, "GOCACHE="+strings.TrimSpace(string(gocache)))
	return dir
}

// TestOnDemandBuild: the first --store sqlite run on a clone builds the
// archlab with SQLite, saying so in one line that names the file, and
// runs the drill in it; the next run says nothing and builds nothing.
func TestOnDemandBuild(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if cli.Linked("sqlite") {
		t.Skip("this test binary has SQLite linked in: nothing is handed over (go test ./... tests it)")
	}
	args := []string{"drill", "ack-lost", "--store", "sqlite"}
	cmd := archlabCmd(t, args...)
	cache := freshCache(t, cmd)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "PASS  ack-lost") {
		t.Fatalf("first run: %v\n%s%s", err, out, stderr.String())
	}
	want := regexp.MustCompile(`^archlab: --store sqlite needs SQLite, which everyday runs do without; building (/.*/archlab-sqlite(-race)?) for it, once \(a minute or two on a fresh clone\)\n$`)
	m := want.FindStringSubmatch(stderr.String())
	if m == nil || !strings.HasPrefix(m[1], cache) {
		t.Fatalf("stderr %q, want one line: %v, under %s", stderr.String(), want, cache)
	}
	if fi, err := os.Stat(m[1]); err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("no executable at %s: %v", m[1], err)
	}
	cmd = archlabCmd(t, args...)
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+cache)
	stderr.Reset()
	cmd.Stderr = &stderr
	if out2, err := cmd.Output(); err != nil || string(out2) != string(out) || stderr.Len() != 0 {
		t.Fatalf("second run: %v, stderr %q\n%s", err, stderr.String(), out2)
	}
}

// TestOnDemandInterrupt: Ctrl-C while the first run builds exits 130,
// says so, and leaves no binary, whole or partial, and no work files.
func TestOnDemandInterrupt(t *testing.T) {
	t.Parallel() // a child process's test: it waits more than it computes
	if cli.Linked("sqlite") {
		t.Skip("this test binary has SQLite linked in: nothing is handed over (go test ./... tests it)")
	}
	cmd := archlabCmd(t, "drill", "ack-lost", "--store", "sqlite")
	cache := freshCache(t, cmd)
	// An empty Go build cache: the build then compiles SQLite, for a
	// minute and more, so an archlab that waited for it to finish could
	// not stop within the bound below on any machine, busy or quiet.
	cmd.Env = append(cmd.Env, "GOCACHE="+t.TempDir())
	errPipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(errPipe)
	line, err := r.ReadString('\n')
	if err != nil || !strings.Contains(line, "building") {
		t.Fatalf("no building line: %q, %v", line, err)
	}
	// The line is printed once Ctrl-C is archlab's to handle, before go
	// build starts: the build is under way.
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest := new(strings.Builder)
	r.WriteTo(rest)
	start := time.Now()
	code := exitStatus(t, cmd.Wait())
	if code != exitInterrupted || !strings.Contains(rest.String(), "interrupted: the build of ") {
		t.Fatalf("exit %d, stderr %q; want 130 and the interrupted line", code, rest.String())
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("took %v to stop: it waits for the build", d)
	}
	var left []string
	filepath.Walk(filepath.Join(cache, "archlab"), func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			left = append(left, path)
		}
		if err == nil && info.IsDir() && strings.HasPrefix(info.Name(), ".build-") {
			left = append(left, path)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// variantReady builds the archlab with parts, if this test binary was built
// without them, before a test that times what the runs handed to it do.
func variantReady(t *testing.T, parts ...string) {
	t.Helper()
	ne, ok := cli.NeedParts("test", parts...).(*cli.NeedsError)
	if !ok {
		return
	}
	g := &cli.Env{IO: &IO{Err: io.Discard}, Lang: i18n.EN}
	if _, err := g.Variant(t.Context(), ne); err != nil {
		t.Fatalf("building the archlab with %v: %v", parts, err)
	}
}
