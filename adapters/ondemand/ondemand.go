// Package ondemand builds, from the clone archlab came from, the archlab
// with the heavy parts a run needs (SQLite, the embedded brokers, the web
// page), keeps it in the user's cache under a stamp of its source, and
// hands the run to it. It is an adapter to a real part: the go command.
package ondemand

import (
	"archlab/built"

	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"archlab/i18n"
)

// Some runs need a heavy dependency that every other run would pay for if
// it were linked in: --broker nats|kafka needs the embedded NATS server and
// Kafka cluster, --store sqlite (with --db and --crash real) needs SQLite,
// serve needs net/http. Compiling them doubled the time of the README's
// first command on a fresh clone, and linking them tripled the time every
// command took to start (docs/benchmarks.md, issue 27).
//
// So the archlab that `go run ./cmd/archlab` builds leaves them out. Each
// is a build tag, and its wiring is a file of its own that only that tag
// compiles: ui/cmd/drill's with_brokers.go and with_sqlite.go,
// ui/cmd/serve's with_web.go (each registers its part, ui/cli.Link). A run that needs
// one of them is checked as usual (a bad flag is still exit 2 at once),
// then handed to an archlab built with the tags it needs: the first time,
// archlab builds that one with `go build -tags …` from its own source into
// the user's cache, saying so in one line, and then runs it with the same
// command line, in the same process (exec), so signals and exit statuses
// are that archlab's own.
//
// Why a build tag and not a module or a second main package: the wiring
// stays beside the front end it belongs to (the drill command's flags,
// errors and words), the light and the full archlab are the same code, and the
// tests of the adapters stay in `go test ./...`. `go install -tags
// brokers,sqlite,web ./cmd/archlab` builds the full one directly.
// Parts are the build tags a variant may have.
var Parts = []string{"brokers", "sqlite", "web"}

// HandedIO carries an injected IO's terminal (width, whether stdout and
// stdin are terminals) to the archlab a run is handed to as a child: its
// own streams are pipes.
const HandedIO = "ARCHLAB_HANDED_IO"

// Want is a variant asked for: the build tags a run needs, what asked
// for them ("--broker nats", "serve"), the reader's language for the lines
// said, and where to say them (stderr).
type Want struct {
	Parts []string // sorted, no duplicates
	Asker string
	Lang  i18n.Lang
	Err   io.Writer
	// Tick, when set, is a terminal a person watches (not CI, not
	// --json): a build keeps a line there that counts its seconds, and
	// says when it is done.
	Tick io.Writer
}

// Error is a variant that could not be had, in the reader's words: an
// environment failure (cmd/archlab says it and exits 3), or, with
// Interrupted, a build that a signal stopped (exit 128+signal).
type Error struct {
	Msg, Hint   string
	Interrupted bool
}

func (e *Error) Error() string { return e.Msg }

// Variant is the path of the archlab built with w's parts, built or
// brought up to date first. It is kept in the user's cache, in a
// directory of the clone's own (two clones never share one), named by its
// parts: archlab-brokers, archlab-brokers+sqlite. A file beside it stamps
// the source it was built from; while the stamp holds, nothing is built.
// Ctrl-C (which cancels ctx) stops the build, and leaves nothing behind.
func Variant(ctx context.Context, w Want) (string, error) {
	t := func(key string, args ...any) string { return i18n.T(w.Lang, key, args...) }
	what := partsWords(w.Lang, w.Parts)
	hint := t("err.ondemand.hint", strings.Join(Parts, ","))
	root, err := SourceRoot()
	if err != nil {
		return "", &Error{Msg: t("err.ondemand.no-source", w.Asker, what, err), Hint: hint}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", &Error{Msg: t("err.ondemand.no-go", w.Asker, what), Hint: hint}
	}
	cache, err := OwnCache(root)
	var notOwn *NotOwnedError
	if errors.As(err, &notOwn) {
		return "", &Error{Msg: t("err.ondemand.not-own", notOwn.Path, notOwn.Why(w.Lang)), Hint: t("err.ondemand.not-own.hint")}
	}
	if err != nil {
		return "", &Error{Msg: t("err.ondemand.no-cache", what, err)}
	}
	return variantIn(ctx, w, goTool, root, cache, "./cmd/archlab")
}

// sayRebuildAfter is how long a rebuild runs before it says so (a test
// sets 0, to hear every line a rebuild can say).
var sayRebuildAfter = time.Second

// variantIn is Variant once the clone, go and the cache are found: pkg
// built with w's parts into cache, unless its stamp holds.
func variantIn(ctx context.Context, w Want, goTool, root, cache, pkg string) (string, error) {
	t := func(key string, args ...any) string { return i18n.T(w.Lang, key, args...) }
	what := partsWords(w.Lang, w.Parts)
	sweep(cache)
	withRace := built.WithRace
	name := "archlab-" + strings.Join(w.Parts, "+")
	if withRace {
		name += "-race"
	}
	bin := filepath.Join(cache, name)
	stamp, err := sourceStamp(root, w.Parts, withRace)
	if err != nil {
		return "", &Error{Msg: t("err.ondemand.no-source", w.Asker, what, err)}
	}
	old, _ := os.ReadFile(bin + ".stamp")
	oldStamp, sum, _ := strings.Cut(string(old), "\n")
	oldStamp += "\n"
	_, statErr := os.Stat(bin)
	// The binary must still be the one built, whole and executable, for
	// go build to start from it: a file cut short keeps the build ID at
	// its start, and go build would call it up to date and leave it as
	// it is (issue 43). A damaged one is never reused, and never run.
	intact := statErr == nil && binaryMatches(bin, sum)
	if intact && oldStamp == stamp {
		return bin, nil
	}
	damageSaid := false
	if statErr == nil && !intact {
		if sum != "" { // a stamp from before the sum was kept says nothing
			fmt.Fprintln(w.Err, t("ondemand.damaged", bin))
			damageSaid = true
		}
		// Not handed to go build (Build links the old binary in): a
		// new one is linked, and renamed over where it was.
		os.Remove(bin)
	}
	// The first build says what it builds and where, at once; a rebuild
	// after an edit says so only if it takes long enough to be noticed
	// (go build finds most edits leave the binary as it is). A damaged
	// binary was said above: not "the source changed" after it.
	if statErr != nil {
		fmt.Fprintln(w.Err, t("ondemand.building", w.Asker, what, bin))
	} else if !damageSaid {
		var saying sync.Mutex // held while the timer's goroutine says it
		timer := time.AfterFunc(sayRebuildAfter, func() {
			saying.Lock()
			defer saying.Unlock()
			fmt.Fprintln(w.Err, t("ondemand.rebuilding", bin))
		})
		defer func() {
			// Once fired, the line is waited for: nothing said after this
			// call may withRace it for w.Err.
			if !timer.Stop() {
				saying.Lock()
				saying.Unlock()
			}
		}()
	}
	done := Tick(w.Tick, w.Lang, t("ondemand.tick", name))
	err = Build(ctx, goTool, root, bin, pkg, w.Parts, withRace)
	done(err == nil)
	if err != nil {
		if ctx.Err() != nil {
			return "", &Error{Msg: t("err.interrupted.build", bin), Interrupted: true}
		}
		return "", &Error{Msg: t("err.ondemand.build", bin, err)}
	}
	sum, err = binarySum(bin)
	if err == nil {
		err = writeStamp(bin+".stamp", stamp+sum)
	}
	if err != nil {
		return "", &Error{Msg: t("err.ondemand.no-cache", what, err)}
	}
	return bin, nil
}

// Tick keeps, on w, a terminal a person watches, a line that counts the
// seconds of a wait (redrawn in place); done erases it and, for a wait of
// a second or more that ended well, says how long it took. With w nil
// (CI, --json, a pipe) both do nothing.
func Tick(w io.Writer, lang i18n.Lang, what string) (done func(ok bool)) {
	if w == nil {
		return func(bool) {}
	}
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		frames := `|/-\`
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				fmt.Fprintf(w, "\r\x1b[2K%c %s %d s", frames[n%len(frames)], what, int(time.Since(start).Seconds()))
			}
		}
	}()
	return func(ok bool) {
		close(stop)
		wg.Wait()
		took := time.Since(start)
		if took < time.Second {
			return
		}
		fmt.Fprint(w, "\r\x1b[2K")
		if ok {
			fmt.Fprintln(w, i18n.T(lang, "ondemand.built", took.Round(100*time.Millisecond).Seconds()))
		}
	}
}

// OwnCache is CloneCache, made if it is missing, and checked: it and the
// archlab folder above it must be folders (not links) of this user's that
// no one else may write. Otherwise another user could put a program there
// that archlab would run as you (XDG_CACHE_HOME on a shared folder); a
// *NotOwnedError says which folder, and why.
func OwnCache(root string) (string, error) {
	dir, err := CloneCache(root)
	if err != nil {
		return "", err
	}
	// The user's cache folder itself may not exist yet (a fresh
	// account, a new XDG_CACHE_HOME): it is made as any program would;
	// the two folders of archlab's are held to the rules below.
	if err := os.MkdirAll(filepath.Dir(filepath.Dir(dir)), 0o700); err != nil {
		return "", err
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		info, err := os.Lstat(d)
		if err != nil {
			return "", err
		}
		st, _ := info.Sys().(*syscall.Stat_t)
		switch {
		case !info.IsDir():
			return "", &NotOwnedError{Path: d, Kind: "not-dir"}
		case st != nil && int(st.Uid) != os.Getuid():
			return "", &NotOwnedError{Path: d, Kind: "owner", Uid: int(st.Uid)}
		case info.Mode().Perm()&0o022 != 0:
			return "", &NotOwnedError{Path: d, Kind: "mode", Mode: info.Mode().Perm()}
		}
	}
	return dir, nil
}

// NotOwnedError is a cache folder archlab will not run a program from.
type NotOwnedError struct {
	Path string
	Kind string // "not-dir" (a file or a link), "owner", "mode"
	Uid  int
	Mode fs.FileMode
}

func (e *NotOwnedError) Error() string { return e.Path + ": " + e.Why(i18n.EN) }

// Why is what is wrong with the folder, in lang.
func (e *NotOwnedError) Why(lang i18n.Lang) string {
	switch e.Kind {
	case "owner":
		return i18n.T(lang, "err.ondemand.not-own.owner", e.Uid, os.Getuid())
	case "mode":
		return i18n.T(lang, "err.ondemand.not-own.mode", fmt.Sprintf("%04o", uint32(e.Mode)))
	}
	return i18n.T(lang, "err.ondemand.not-own.not-dir")
}

// sweep removes what builds killed outright (SIGKILL, a power cut) left in
// dir: their .build-* folders, once they are old enough that no build is
// still writing them.
func sweep(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".build-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleBuild {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// staleBuild is how old a build folder must be to be swept: far longer
// than a build takes on a fresh clone.
const staleBuild = 15 * time.Minute

// binarySum is the line a stamp ends with: the binary's size and SHA-256.
func binarySum(bin string) (string, error) {
	f, err := os.Open(bin)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("bin %d %x\n", n, h.Sum(nil)), nil
}

// binaryMatches says whether bin is the binary whose sum is want, and is
// executable: a binary truncated, replaced or without its x bit is not.
func binaryMatches(bin, want string) bool {
	info, err := os.Stat(bin)
	if err != nil || info.Mode().Perm()&0o100 == 0 {
		return false
	}
	got, err := binarySum(bin)
	return err == nil && got == want
}

// CloneCache is the directory of the user's cache that belongs to the
// clone at root: two clones never share one. It is not made here.
func CloneCache(root string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	h := fnv.New64a()
	h.Write([]byte(root))
	return filepath.Join(cache, "archlab", fmt.Sprintf("%016x", h.Sum64())), nil
}

// Build runs go build of pkg in a temporary directory beside bin and renames the
// result into place, so bin is whole or absent: Ctrl-C (which cancels
// ctx) kills go and its compilers and leaves nothing behind. The old
// binary is linked in first, so that go build sees it is up to date when
// it is and does not link it again. flags are go build's own, more of them
// (archlab class --clones: -overlay).
func Build(ctx context.Context, goTool, root, bin, pkg string, tags []string, race bool, flags ...string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(bin), ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, filepath.Base(bin))
	_ = os.Link(bin, out) // absent the first time
	args := []string{"build", "-tags", strings.Join(tags, ","), "-o", out}
	if race {
		args = append(args, "-race")
	}
	args = append(args, flags...)
	cmd := exec.CommandContext(ctx, goTool, append(args, pkg)...)
	cmd.Dir = root
	// go's own work files go in tmp too, removed with it.
	cmd.Env = append(os.Environ(), "GOTMPDIR="+tmp)
	var msg strings.Builder
	cmd.Stdout, cmd.Stderr = &msg, &msg
	// In a process group of its own, so that Ctrl-C is archlab's to
	// handle, and cancelling kills go with the compilers it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%v\n%s", err, strings.TrimSpace(msg.String()))
	}
	return os.Rename(out, bin)
}

// writeStamp writes the stamp whole or not at all.
func writeStamp(path, stamp string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, []byte(stamp), 0o600); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// SourceRoot is the clone this archlab was built from: the compiler
// recorded this file's path (`go run` and `go build` keep it absolute);
// in a binary built with -trimpath, the module of the working directory.
func SourceRoot() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	if filepath.IsAbs(file) {
		if root := filepath.Dir(filepath.Dir(filepath.Dir(file))); isArchlabRoot(root) {
			return root, nil
		}
	}
	if root, ok := WorkingModule(); ok {
		return root, nil
	}
	return "", fmt.Errorf("no archlab module at %s or above the working directory", filepath.Dir(file))
}

// WorkingModule is the archlab clone at or above the working directory.
func WorkingModule() (string, bool) {
	dir, err := os.Getwd()
	for err == nil {
		if isArchlabRoot(dir) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// isArchlabRoot reports whether dir holds archlab's go.mod.
func isArchlabRoot(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return f[1] == "archlab"
		}
	}
	return false
}

// sourceStamp sums what a build reads: the name, size and modification
// time of every file of the clone (not .git, not peers/ or another nested
// module), the tags, and the toolchain and settings this archlab was
// built with. A stamp that changed is only a reason to ask go build,
// which decides; walking a few hundred files takes about a millisecond.
func sourceStamp(root string, tags []string, race bool) (string, error) {
	h := fnv.New128a()
	fmt.Fprintln(h, runtime.Version(), runtime.GOOS, runtime.GOARCH, tags, race)
	for _, k := range []string{"GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOTOOLCHAIN"} {
		fmt.Fprintf(h, "%s=%s\n", k, os.Getenv(k))
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(name, ".") {
			return nil
		}
		info, err := os.Stat(path) // through a symbolic link, as go build reads it
		if err != nil {
			return nil // a link to nothing: go build ignores it too
		}
		fmt.Fprintf(h, "%s %d %d\n", path[len(root):], info.Size(), info.ModTime().UnixNano())
		return nil
	})
	return fmt.Sprintf("%x\n", h.Sum(nil)), err
}

// partsWords names the parts in the reader's language: "the embedded
// NATS and Kafka servers and SQLite".
func partsWords(lang i18n.Lang, parts []string) string {
	words := make([]string, len(parts))
	for i, p := range parts {
		words[i] = i18n.T(lang, "ondemand.part."+p)
	}
	return strings.Join(words, i18n.T(lang, "ondemand.and"))
}

// Streams are what the run handed over sees: the process's own (Replace
// set: it execs, and signals and exit statuses are the variant's), or a
// test's injected IO (the variant runs as a child on these streams).
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
	Getenv   func(string) string
	// Width, OutIsTerminal, InIsTerminal: what the IO says of the
	// terminal, carried to a child in HandedIO.
	Width                       int
	OutIsTerminal, InIsTerminal bool
	Replace                     func(path string, argv, env []string) error
}

// HandOver runs the command line args in the variant bin: in this
// process, by exec, when s is the real process's; as a child whose streams
// are s's otherwise (the tests). It returns the exit status of that run,
// or an error (with the reader's words) if it could not start it.
func HandOver(bin string, args []string, s Streams, lang i18n.Lang) (int, error) {
	if s.Replace != nil {
		err := s.Replace(bin, append([]string{bin}, args...), os.Environ())
		return 0, &Error{Msg: i18n.T(lang, "err.ondemand.exec", bin, err)} // Replace returns only when it failed
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.In, s.Out, s.Err
	cmd.Env = os.Environ()
	// What the injected environment says about the language and colour
	// holds in the child too, and so does what IO says of the terminal.
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR", "TERM"} {
		cmd.Env = append(cmd.Env, k+"="+s.Getenv(k))
	}
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d,%t,%t", HandedIO, s.Width, s.OutIsTerminal, s.InIsTerminal))
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, &Error{Msg: i18n.T(lang, "err.ondemand.exec", bin, err)}
	}
	return 0, nil
}
