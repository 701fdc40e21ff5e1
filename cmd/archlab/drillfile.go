package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"archlab/drills"
	"archlab/harness"
)

// loadFiles reads --file: one drill file, or every *.txtar file of a
// directory in name order.
func (o *drillOptions) loadFiles() ([]*drills.Drill, error) {
	g := o.g
	paths := []string{o.file}
	st, err := os.Stat(o.file)
	switch {
	case err != nil:
		return nil, &usageError{msg: g.t("err.file.open", o.file, unwrapPathErr(err))}
	case st.IsDir():
		entries, err := os.ReadDir(o.file)
		if err != nil {
			return nil, &usageError{msg: g.t("err.file.open", o.file, unwrapPathErr(err))}
		}
		paths = nil
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".txtar") {
				paths = append(paths, filepath.Join(o.file, e.Name()))
			}
		}
		if len(paths) == 0 {
			return nil, &usageError{msg: g.t("err.file.empty-dir", o.file)}
		}
	}
	var list []*drills.Drill
	for _, p := range paths {
		data, err := readLimited(p)
		if err != nil {
			return nil, &usageError{msg: g.t("err.file.open", p, unwrapPathErr(err))}
		}
		d, err := drills.Parse(p, data)
		if err != nil {
			return nil, &usageError{msg: drills.ErrorText(g.lang, err), hint: g.t("err.hint.verbs")}
		}
		// A copy of a built-in drill's file, unchanged, is that drill.
		if b, err := drills.Lookup(d.Name); err == nil && !o.rewrite {
			if src, err := drills.Source(b); err == nil && bytes.Equal(src, data) {
				d = b
			}
		}
		list = append(list, d)
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

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// rewrite runs each file with its own defaults and writes what it counted
// into its expect part, the way cockroachdb/datadriven's -rewrite does: a
// teacher writes the steps, archlab fills in the counters, the teacher
// reviews them. A file whose expect part already says so is not touched.
func (o *drillOptions) rewriteFiles(list []*drills.Drill) error {
	g := o.g
	for _, d := range list {
		res, err := d.Run(d.Defaults())
		if err != nil {
			return o.paramError(err)
		}
		if res.Err != nil {
			return &mismatchError{msg: g.t("cli.fail.error", d.Name, res.Err)}
		}
		data, err := os.ReadFile(d.Path)
		if err != nil {
			return err
		}
		arc := txtar.Parse(data)
		var b strings.Builder
		for _, c := range res.Counters {
			fmt.Fprintf(&b, "%s %s\n", c.Name, c.Value)
		}
		expect := txtar.File{Name: "expect", Data: []byte(b.String())}
		if i := slices.IndexFunc(arc.Files, func(f txtar.File) bool { return f.Name == "expect" }); i >= 0 {
			arc.Files[i].Data = expect.Data
		} else {
			at := slices.IndexFunc(arc.Files, func(f txtar.File) bool { return f.Name == "checks" }) + 1
			arc.Files = slices.Insert(arc.Files, at, expect)
		}
		out := txtar.Format(arc)
		if bytes.Equal(out, data) {
			fmt.Fprintln(g.io.Err, g.t("cli.rewrite.same", d.Path))
			continue
		}
		if err := writeAtomic(d.Path, out); err != nil {
			return &usageError{msg: g.t("err.file.write", d.Path, unwrapPathErr(err))}
		}
		fmt.Fprintln(g.io.Err, g.t("cli.rewrite.done", d.Path, len(res.Counters)))
	}
	return nil
}

// writeAtomic replaces path by data through a temporary file in the same
// directory, so a crash leaves the old file or the new one, never half.
func writeAtomic(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".archlab-rewrite-*")
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
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// printVerbs prints a section's verbs, one a line with its explanation, and
// the names counters and checks may read: the program's own list, so the
// README cannot drift from it.
func (o *drillOptions) printVerbs(section string) error {
	g := o.g
	s, ok := harness.SectionByName(section)
	if !ok {
		return &usageError{msg: g.t("err.verbs", section)}
	}
	w := g.io.Out
	fmt.Fprintln(w, g.t("cli.verbs.head", s.ID, s.Harness))
	for _, v := range s.Verbs {
		fmt.Fprintf(w, "  %s\n      %s\n", v.Usage(), g.t(v.HelpKey(s.ID)))
	}
	var obs []string
	for _, ob := range s.Observables {
		if ob.Args > 0 {
			obs = append(obs, ob.Name+"(…)")
		} else {
			obs = append(obs, ob.Name)
		}
	}
	fmt.Fprintln(w, g.t("cli.verbs.observables", strings.Join(obs, ", ")))
	if len(s.Strategies) > 0 {
		fmt.Fprintln(w, g.t("cli.verbs.strategies", strings.Join(s.Strategies, ", ")))
	}
	return nil
}
