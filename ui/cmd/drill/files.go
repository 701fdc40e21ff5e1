package drill

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"archlab/drills"
	"archlab/ui/cli"
	"archlab/ui/status"
	"archlab/ui/term"
)

// LoadFiles reads --file: one drill file, or every *.txtar file of a
// directory in name order.
func (o *Options) LoadFiles() ([]*drills.Drill, error) {
	g := o.G
	paths := []string{o.File}
	st, err := os.Stat(o.File)
	switch {
	case err != nil:
		return nil, &status.Usage{Msg: g.T("err.file.open", o.File, g.OSReason(err))}
	case !st.IsDir() && !st.Mode().IsRegular():
		// A FIFO or a device would block the read, or never end it.
		return nil, &status.Usage{Msg: g.T("err.file.not-regular", o.File)}
	case st.IsDir():
		entries, err := os.ReadDir(o.File)
		if err != nil {
			return nil, &status.Usage{Msg: g.T("err.file.open", o.File, g.OSReason(err))}
		}
		paths = nil
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".txtar") {
				paths = append(paths, filepath.Join(o.File, e.Name()))
			}
		}
		if len(paths) == 0 {
			return nil, &status.Usage{Msg: g.T("err.file.empty-dir", o.File)}
		}
	}
	var list []*drills.Drill
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && !st.Mode().IsRegular() {
			return nil, &status.Usage{Msg: g.T("err.file.not-regular", p)}
		}
		data, err := readLimited(p)
		if err != nil {
			return nil, &status.Usage{Msg: g.T("err.file.open", p, g.OSReason(err))}
		}
		d, err := drills.ParseBudget(p, data, o.Budget)
		if err != nil {
			e := &status.Usage{Msg: drills.ErrorText(g.Lang, err), Hint: g.T("err.hint.verbs")}
			if fe := (*drills.FileError)(nil); errors.As(err, &fe) && fe.Budget() {
				e.Hint = "" // the message names the flag that raises it
			}
			return nil, e
		}
		// A copy of a built-in drill's file, unchanged, is that drill.
		if b, err := drills.Lookup(d.Name); err == nil && !o.Rewrite {
			if src, err := drills.Source(b); err == nil && bytes.Equal(src, data) {
				d = b
			}
		}
		list = append(list, d)
		o.paths = append(o.paths, p)
	}
	return list, nil
}

// readLimited reads a drill file, refusing one larger than a drill file
// may be before reading it all.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(f, drills.MaxFileBytes+1)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unwrapPathErr is the system's reason alone (ui/term).
func unwrapPathErr(err error) error { return term.UnwrapPathErr(err) }

// rewrite runs each file with its own defaults and writes what it counted
// into its expect part, the way cockroachdb/datadriven's -rewrite does: a
// teacher writes the steps, archlab fills in the counters, the teacher
// reviews them. A file whose expect part already says so is not touched.
// The run is not compared with the old expect part (a counter just added
// to the counters part is written, not refused), and what is written is
// the bytes the run read, with the new part: a file saved again while the
// drill ran is left alone.
func (o *Options) RewriteFiles(list []*drills.Drill) (err error) {
	g := o.G
	ctx, stop := status.SignalContext(context.Background())
	defer stop()
	for _, d := range list {
		res, err := d.RunContext(ctx, d.Defaults(), drills.RunOptions{Budget: o.Budget, NoCompare: true})
		if ctx.Err() != nil {
			return &status.Interrupted{Msg: g.T("err.interrupted.memory"), Code: status.SignalStatus(ctx)}
		}
		if err != nil {
			return o.paramError(err)
		}
		if res.Err != nil {
			return &status.Mismatch{Msg: g.T("cli.fail.error", d.Name, res.Err)}
		}
		data, err := drills.Source(d)
		if err != nil {
			return err
		}
		var counters []drills.Counter
		for _, c := range res.Counters {
			counters = append(counters, drills.Counter{Name: c.Name, Value: c.Value})
		}
		out, err := d.WithExpect(counters)
		if err != nil {
			return &status.Usage{Msg: drills.ErrorText(g.Lang, err)}
		}
		if bytes.Equal(out, data) {
			fmt.Fprintln(g.IO.Err, g.T("cli.rewrite.same", d.Path))
			continue
		}
		if err := rewriteFile(g, d.Path, data, out); err != nil {
			return err
		}
		fmt.Fprintln(g.IO.Err, g.T("cli.rewrite.done", d.Path, len(res.Counters)))
	}
	return nil
}

// rewriteFile replaces the file at path, which held was when it was read,
// by data. It writes through a symbolic link (the link stays, its target
// is rewritten) and keeps the file's mode and owner; a read-only file, one
// whose owner cannot be kept, or one changed since it was read is refused
// and left as it is (exit 3: the file's state, not the reader's typing).
func rewriteFile(g *cli.Env, path string, was, data []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return &status.CouldNotRun{Msg: g.T("err.file.write", path, unwrapPathErr(err))}
	}
	st, err := os.Stat(target)
	if err != nil {
		return &status.CouldNotRun{Msg: g.T("err.file.write", path, unwrapPathErr(err))}
	}
	// Root may write any file, and a rename replaces a read-only one: a
	// file without a write bit says "leave me", whoever runs archlab.
	if st.Mode().Perm()&0o222 == 0 || unix.Access(target, unix.W_OK) != nil {
		return &status.CouldNotRun{Msg: g.T("err.file.read-only", path)}
	}
	if now, err := readLimited(target); err != nil || !bytes.Equal(now, was) {
		return &status.CouldNotRun{Msg: g.T("err.file.changed", path)}
	}
	if err := writeAtomic(target, st, data); err != nil {
		return &status.CouldNotRun{Msg: g.T("err.file.write", path, unwrapPathErr(err))}
	}
	return nil
}

// writeAtomic replaces target, whose FileInfo is st, by data through a
// temporary file in the same directory, so a crash leaves the old file or
// the new one, never half. The new file gets st's mode and owner before
// it takes target's place.
func writeAtomic(target string, st os.FileInfo, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), ".archlab-rewrite-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && (int(sys.Uid) != os.Geteuid() || int(sys.Gid) != os.Getegid()) {
		if err := tmp.Chown(int(sys.Uid), int(sys.Gid)); err != nil {
			tmp.Close()
			return fmt.Errorf("cannot keep the owner %d:%d: %w", sys.Uid, sys.Gid, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}
