// Package watch is `check --watch`: it checks again each time an exercise
// is saved. The archlab running is built from the files as they were when it started, so it
// cannot run the code just saved: it rebuilds the small checker
// (cmd/archlab-check: the checker and the exercises, no command line)
// from the clone into the user's cache and runs each exercise in it, under
// the time limit, as a plain check runs each in itself. Go's build cache
// recompiles only the exercises and links a binary a tenth of archlab's
// size, so a verdict follows a save in about a second (docs/benchmarks.md).
//
// Saves are seen two ways at once: fsnotify, which is immediate where the
// file system reports changes, and a poll of the exercises' sizes and
// times twice a second, which also sees the saves that file systems such
// as WSL's /mnt/c or a network disk never report. Either wakes the loop;
// an editor's burst of writes (a temporary file, a rename) is one save.
package watch

import (
	"archlab/built"

	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"archlab/adapters/ondemand"
	"archlab/check"
	"archlab/i18n"
	"archlab/ui/report"
	"archlab/ui/status"
)

// Options are check --watch's: the report the rounds are printed in, the
// one exercise named (or "" for all) and each exercise's time limit.
type Options struct {
	Report *report.Report
	Only   string
	Limit  time.Duration
	// Tick is stderr when a person watches it: the checker's rebuild
	// after a save counts its seconds there (ondemand.Tick).
	Tick io.Writer
}

// PollEvery is how often the exercises are polled.
const PollEvery = 500 * time.Millisecond

// settle is how long a burst of writes has to go quiet to count as one save.
const settle = 80 * time.Millisecond

// Run is `check --watch`: a first check, then one after every save, until
// Ctrl-C.
func Run(ctx context.Context, o Options) error {
	r := o.Report
	t := func(key string, args ...any) string { return i18n.T(r.Lang, key, args...) }
	root, err := workRoot()
	if err != nil {
		return &status.CouldNotRun{Msg: t("check.watch.no-source", err)}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return &status.CouldNotRun{Msg: t("check.watch.no-go")}
	}
	cache, err := ondemand.OwnCache(root)
	var notOwn *ondemand.NotOwnedError
	if errors.As(err, &notOwn) {
		return &status.CouldNotRun{Msg: t("err.ondemand.not-own", notOwn.Path, notOwn.Why(r.Lang))}
	}
	if err != nil {
		return &status.CouldNotRun{Msg: t("err.ondemand.no-cache", "archlab-check", err)}
	}
	dir := filepath.Join(root, "exercises")
	saves, stop, err := watchDir(ctx, dir)
	if err != nil {
		return &status.CouldNotRun{Msg: t("check.watch.no-dir", dir, err)}
	}
	defer stop()
	bin := filepath.Join(cache, "archlab-check")
	names := o.watched(nil)
	for {
		if err := o.round(ctx, goTool, root, bin, names); err != nil {
			return err
		}
		r.Para(t("check.watch.waiting", filepath.Join(root, "exercises")), fmt.Sprint)
		select {
		case <-ctx.Done():
			return &status.Interrupted{Msg: t("check.watch.stopped"), Code: status.SignalStatus(ctx)}
		case files := <-saves:
			names = o.watched(files)
			fmt.Fprintln(r.Out)
			r.Para(t("check.watch.saved", strings.Join(files, ", "), strings.Join(names, ", ")), fmt.Sprint)
		}
	}
}

// watched is the exercises to check after files were saved: the one named
// on the command line; else those whose files were saved; else, for a
// file that is no exercise's (doc.go, a helper of the student's) or at the
// start, every exercise.
func (o Options) watched(files []string) []string {
	if o.Only != "" {
		return []string{o.Only}
	}
	var out []string
	for _, e := range check.Exercises {
		if slices.Contains(files, filepath.Base(e.File)) {
			out = append(out, e.Name)
		}
	}
	if len(out) == 0 || len(out) < len(files) {
		return check.Names()
	}
	return out
}

// round rebuilds the small checker and checks names in it. Code that
// does not compile is said as go says it, and the loop waits for the next
// save.
func (o Options) round(ctx context.Context, goTool, root, bin string, names []string) error {
	r := o.Report
	t := func(key string, args ...any) string { return i18n.T(r.Lang, key, args...) }
	building := ondemand.Tick(o.Tick, r.Lang, t("check.watch.tick"))
	err := ondemand.Build(ctx, goTool, root, bin, "./cmd/archlab-check", nil, built.WithRace)
	building(err == nil)
	if err != nil {
		if ctx.Err() != nil {
			return &status.Interrupted{Msg: t("check.watch.stopped"), Code: status.SignalStatus(ctx)}
		}
		fmt.Fprintln(r.Out, t("check.watch.compile"))
		fmt.Fprintln(r.Out, compileErrors(err.Error()))
		return nil
	}
	var results []*check.Result
	done := 0
	for _, name := range names {
		e, _ := check.Lookup(name)
		r := check.RunChild(ctx, []string{bin, "--lang", string(r.Lang), name}, os.Environ(), e, o.Limit)
		if ctx.Err() != nil {
			return &status.Interrupted{Msg: t("check.watch.stopped"), Code: status.SignalStatus(ctx)}
		}
		var start *check.StartError
		if errors.As(r.Err, &start) {
			return &status.CouldNotRun{Msg: t("check.err.exe", start.Err)}
		}
		if r.Status == check.Done {
			done++
		}
		results = append(results, r)
	}
	return r.Text(results, done)
}

// compileErrors is go build's complaint without its first line (the
// command that failed), the compiler's lines as they are.
func compileErrors(msg string) string {
	if _, rest, ok := strings.Cut(msg, "\n"); ok {
		msg = rest
	}
	return strings.TrimSpace(msg)
}

// workRoot is the archlab clone the student works in: the module of the
// working directory, else the one this archlab was built from.
func workRoot() (string, error) {
	if root, ok := ondemand.WorkingModule(); ok {
		return root, nil
	}
	return ondemand.SourceRoot()
}

// watchDir reports each save in dir: the names of the Go files that
// changed, once a burst of writes has settled. fsnotify and a poll feed
// it; stop ends both.
func watchDir(ctx context.Context, dir string) (<-chan []string, func(), error) {
	before, err := snapshot(dir)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	// fsnotify where it works; where it does not (or is not told of the
	// change), the poll below still is.
	if w, err := fsnotify.NewWatcher(); err == nil {
		if addTree(w, dir) != nil {
			w.Close()
		} else {
			go func() {
				defer w.Close()
				for {
					select {
					case <-ctx.Done():
						return
					case ev, ok := <-w.Events:
						if !ok {
							return
						}
						if strings.HasSuffix(ev.Name, ".go") {
							poke()
						}
					case _, ok := <-w.Errors:
						if !ok {
							return
						}
					}
				}
			}()
		}
	}
	go func() {
		t := time.NewTicker(PollEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				poke()
			}
		}
	}()
	saves := make(chan []string)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-wake:
			}
			// Let the burst settle, then compare with what was there.
			for quiet := false; !quiet; {
				select {
				case <-ctx.Done():
					return
				case <-wake:
				case <-time.After(settle):
					quiet = true
				}
			}
			now, err := snapshot(dir)
			if err != nil {
				continue
			}
			if changed := changedFiles(before, now); len(changed) > 0 {
				select {
				case saves <- changed:
					before = now
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return saves, cancel, nil
}

// fileState is what a save changes: the size and the modification time.
type fileState struct {
	size int64
	mod  time.Time
}

// snapshot is the Go files of dir and of its subfolders (a helper
// package of the student's), by their paths under dir, and their states.
func snapshot(dir string) (map[string]fileState, error) {
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed between the listing and now
		}
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && skipped(name) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = fileState{info.Size(), info.ModTime()}
		return nil
	})
	return out, err
}

// skipped is a file or folder go build leaves out.
func skipped(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata"
}

// addTree watches dir and its subfolders. A subfolder made later is seen
// by the poll.
func addTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != dir && skipped(d.Name()) {
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}

// changedFiles is the files added, removed or changed, sorted.
func changedFiles(before, now map[string]fileState) []string {
	var out []string
	for name, st := range now {
		if old, ok := before[name]; !ok || old != st {
			out = append(out, name)
		}
	}
	for name := range before {
		if _, ok := now[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
