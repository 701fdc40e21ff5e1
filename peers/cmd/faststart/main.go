// Command faststart measures how long `archlab drill --all` takes from exec
// to exit, next to a hello-world Go program: the least any Go binary costs
// to start. Both are built with go build; then every round runs each
// command once, in a rotating order, so machine noise falls on all of them
// alike (interleaved runs). It prints the median, 10th and 90th percentile
// wall time of each and the ratio of medians to hello-world.
//
//	cd peers && go run ./cmd/faststart                 # 101 rounds
//	cd peers && go run ./cmd/faststart -static -n 201  # also CGO_ENABLED=0 builds
//
// With -static it also builds both with CGO_ENABLED=0. archlab imports net
// (through pflag), and with cgo on the linker then makes a dynamically
// linked binary, which costs the loader's work at every start; hello-world
// does not import net and is static either way.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

const hello = `package main

import "fmt"

func main() { fmt.Println("hello, world") }
`

type command struct {
	name  string
	argv  []string
	times []time.Duration
}

func main() {
	rounds := flag.Int("n", 101, "rounds; each runs every command once")
	warmup := flag.Int("warmup", 5, "untimed rounds first")
	root := flag.String("archlab", "..", "the archlab module's directory")
	static := flag.Bool("static", false, "also build both with CGO_ENABLED=0")
	flag.Parse()
	if err := run(*root, *rounds, *warmup, *static); err != nil {
		fmt.Fprintln(os.Stderr, "faststart:", err)
		os.Exit(1)
	}
}

func run(root string, rounds, warmup int, static bool) error {
	dir, err := os.MkdirTemp("", "faststart")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	helloDir := filepath.Join(dir, "hello")
	if err := os.Mkdir(helloDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(helloDir, "main.go"), []byte(hello), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(helloDir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}

	var cmds []*command
	builds := []struct {
		suffix string
		env    []string
	}{{"", nil}}
	if static {
		builds = append(builds, struct {
			suffix string
			env    []string
		}{" (CGO_ENABLED=0)", []string{"CGO_ENABLED=0"}})
	}
	for i, b := range builds {
		helloBin := filepath.Join(dir, fmt.Sprint("hello", i))
		archlabBin := filepath.Join(dir, fmt.Sprint("archlab", i))
		if err := build(helloDir, ".", helloBin, b.env); err != nil {
			return err
		}
		if err := build(root, "./cmd/archlab", archlabBin, b.env); err != nil {
			return err
		}
		cmds = append(cmds,
			&command{name: "hello-world" + b.suffix, argv: []string{helloBin}},
			&command{name: "archlab drill --all" + b.suffix, argv: []string{archlabBin, "drill", "--all"}})
	}

	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer devnull.Close()
	for r := range warmup + rounds {
		for k := range cmds {
			c := cmds[(r+k)%len(cmds)] // rotate who goes first
			d, err := timeOne(c.argv, devnull)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if r >= warmup {
				c.times = append(c.times, d)
			}
		}
	}

	fmt.Printf("%d interleaved rounds after %d warm-up rounds; wall time from exec to exit\n\n", rounds, warmup)
	fmt.Printf("%-36s %10s %10s %10s %8s\n", "command", "median", "p10", "p90", "ratio")
	for i, c := range cmds {
		base := cmds[i/2*2] // the hello-world built the same way
		fmt.Printf("%-36s %10s %10s %10s %7.2fx\n", c.name,
			ms(pct(c.times, 50)), ms(pct(c.times, 10)), ms(pct(c.times, 90)),
			float64(pct(c.times, 50))/float64(pct(base.times, 50)))
	}
	return nil
}

func build(dir, pkg, out string, env []string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s in %s: %v\n%s", pkg, dir, err, strings.TrimSpace(string(msg)))
	}
	return nil
}

// timeOne runs argv with its output thrown away and returns the wall time
// from start to exit. A non-zero exit is an error: a failing drill is not a
// fast start.
func timeOne(argv []string, devnull *os.File) (time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = devnull, devnull
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), err
}

// pct is the p-th percentile of ds (nearest rank).
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
