package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers is every package of the module and its layer, lowest first
// (docs/architecture.md): the book, the harness, the drivers, the
// adapters, the ui, the commands. A package may use its own layer and
// those below it, never one above. A package not in the table fails
// TestLayers until it is placed.
var layers = map[string]int{
	// 0 the book: the mechanisms, pure.
	"internal/inbox": 0, "internal/ordering": 0, "internal/shardjob": 0,
	// 1 the harness: the faults around the book's code.
	"harness": 1,
	// i18n is the catalogue of words every layer above the book prints;
	// it imports nothing of archlab, and the book must not print.
	"i18n": 1,
	// built says how this binary was built (-race); it imports nothing.
	"built": 1,
	// 2 the drivers: scenarios as data, the explorer, the checker.
	"drills": 2, "drills/fuzz": 2, "explore": 2, "check": 2, "check/subreaper": 2,
	// exercises is the student's code, which check drives: it may use
	// only the book's types and the harness's, as the book's code does.
	"exercises": 2,
	// 3 the adapters: real parts behind the harness's vocabulary.
	"adapters/broker": 3, "adapters/broker/brokertest": 3, "adapters/broker/natsbroker": 3,
	"adapters/broker/kafkabroker": 3, "adapters/sqlstore": 3, "adapters/consumerproc": 3,
	// ondemand is an adapter to the go command: it builds archlab variants.
	"adapters/ondemand": 3,
	// 4 the ui: what a run looks like, on the terminal and the page.
	"ui/view": 4, "ui/term": 4, "ui/web": 4, "ui/status": 4, "ui/numflag": 4, "ui/cli": 4,
	// wrap breaks lines between words (Chinese too) for both front ends.
	"ui/wrap": 4,
	// the ui of one command or one driver still lives under ui/, so a
	// folder holds one layer: check's report in each format, --watch and
	// the class view; each command's package (ui/cmd/NAME: NewCmd,
	// Options, run).
	"ui/report": 4, "ui/watch": 4, "ui/class": 4,
	"ui/cmd/drill": 4, "ui/cmd/explore": 4, "ui/cmd/check": 4, "ui/cmd/class": 4,
	"ui/cmd/serve": 4, "ui/cmd/list": 4, "ui/cmd/explain": 4, "ui/cmd/completion": 4,
	// 5 the commands: wiring only.
	"cmd/archlab": 5, "cmd/archlab-check": 5,
}

// TestLayers: no package of the module depends, directly or through
// another, on a package of a layer above its own (go list -deps, with
// every build tag, so the tagged wiring is held to it too). Test files
// are not held to it: cmd's end-to-end tests may reach anything.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "brokers,sqlite,web", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "archlab/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "archlab/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], mod)
		own, ok := layers[pkg]
		if !ok {
			t.Errorf("%s is in no layer: place it in the table in layers_test.go", pkg)
			continue
		}
		for _, dep := range f[1:] {
			d, ok := strings.CutPrefix(dep, mod)
			if !ok {
				continue
			}
			if l, placed := layers[d]; placed && l > own {
				t.Errorf("%s (layer %d) depends on %s (layer %d), a layer above it", pkg, own, d, l)
			}
		}
		// A folder holds one layer: a reader who opens check/ finds the
		// checker, not its report.
		for dir := path.Dir(pkg); dir != "."; dir = path.Dir(dir) {
			if l, placed := layers[dir]; placed && l != own {
				t.Errorf("%s (layer %d) lives under %s (layer %d): move it to the folder of its layer", pkg, own, dir, l)
			}
		}
	}
}

// TestCmdOnlyWires: the commands draw no table, measure no width and
// watch no file themselves (ui/term and ui/watch do), and the whole
// folder stays small enough to read as wiring: root, main and the exit
// statuses; each command is a package of its own under ui/cmd/.
func TestCmdOnlyWires(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	banned := []string{"github.com/olekukonko/tablewriter", "github.com/mattn/go-runewidth", "github.com/fsnotify/fsnotify"}
	const maxLines = 400
	lines := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(src, []byte("\n"))
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if slices.ContainsFunc(banned, func(b string) bool { return path == b || strings.HasPrefix(path, b+"/") }) {
				t.Errorf("%s imports %s: that belongs in ui/term or ui/watch", name, path)
			}
		}
	}
	if lines > maxLines {
		t.Errorf("cmd/archlab has %d lines outside its tests, more than %d: what is not wiring belongs in the command's package under ui/cmd/ or in ui/cli", lines, maxLines)
	}
}

// TestFilesStayReadable: no Go file of the repository grows past 800
// lines. Students read this code a file at a time; a file that long holds
// two subjects, and the split says which (issue 44 split five).
func TestFilesStayReadable(t *testing.T) {
	const most = 800
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(src, []byte("\n")); n > most {
			t.Errorf("%s has %d lines, more than %d: split it where its subjects part", strings.TrimPrefix(path, "../../"), n, most)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
