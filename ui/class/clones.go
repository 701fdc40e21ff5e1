package class

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"archlab/adapters/ondemand"
	"archlab/check"
	"archlab/i18n"
	"archlab/ui/report"
	"archlab/ui/term"
)

// A teacher with no Actions grades the class on one machine: a folder of
// the students' repositories, cloned (`archlab class --clones DIR`). Only
// a student's exercises/ is read, never the rest of the clone: its .go
// files are compiled into the small checker (cmd/archlab-check) in place
// of the teacher's own, with `go build -overlay`, so every student is
// judged by the teacher's archlab, and a clone whose archlab was edited
// judges nothing differently. Each verdict becomes the student's
// `check --json`, which Read then reads like any class folder.
//
// A clone comes from a student's hands like a result file, and the same
// rules hold: a name with a control character, a link out of the folder,
// a FIFO or a device, a file over MaxFile, too many files or folders too
// deep, or nothing to check: one line naming it, and the rest of the
// class is still graded. A helper package in a subfolder of exercises/ is
// the student's, and compiled in with the rest. The student's code runs on
// this machine as it would under check, each exercise in a child process
// under its time limit: grade in a container or a virtual machine you
// can throw away (docs/teachers.md).

// Grade checks every clone in dir with the teacher's archlab (its
// sources at root, its version version), each exercise under limit, and
// reads the verdicts as a class. work is a folder of its own for the
// checkers and the results, removed by the caller. progress says which
// student is being checked (stderr).
func Grade(ctx context.Context, lang i18n.Lang, root, version, dir, work string, limit time.Duration, progress io.Writer) (*Class, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	results := filepath.Join(work, "results")
	if err := os.MkdirAll(results, 0o700); err != nil {
		return nil, err
	}
	var refused []Refused
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintln(progress, i18n.T(lang, "class.clones.checking", printable(name)))
		data, err := gradeClone(ctx, lang, goTool, root, version, real, name, filepath.Join(work, "build"), limit)
		if err == nil {
			err = os.WriteFile(filepath.Join(results, name+".json"), data, 0o600)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			refused = append(refused, Refused{File: printable(name), Why: why(lang, err)})
		}
	}
	c, err := Read(lang, results)
	if err != nil {
		return nil, err
	}
	c.Dir = dir
	c.Refused = append(refused, c.Refused...)
	return c, nil
}

// gradeClone checks one clone: its exercises copied out under the rules,
// the checker built with them, each exercise run, and check --json's
// output returned.
func gradeClone(ctx context.Context, lang i18n.Lang, goTool, root, version, dir, name, build string, limit time.Duration) ([]byte, error) {
	if !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) || utf8.RuneCountInString(name) > 100 {
		return nil, refuse("class.err.name")
	}
	_, info, err := inside(dir, name)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, refuse("class.err.not-clone")
	}
	src, info, err := inside(dir, filepath.Join(name, "exercises"))
	if errors.Is(err, os.ErrNotExist) || err == nil && !info.IsDir() {
		return nil, refuse("class.err.not-clone")
	}
	if err != nil {
		return nil, err
	}
	// The student's files, copied out first: what is compiled is what was
	// checked against the rules, whatever the clone becomes meanwhile.
	if err := os.RemoveAll(build); err != nil {
		return nil, err
	}
	own := filepath.Join(build, "exercises")
	if err := os.MkdirAll(own, 0o700); err != nil {
		return nil, err
	}
	if err := copyExercises(dir, src, own); err != nil {
		return nil, err
	}
	overlay, err := overlayFor(root, own)
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(build, "archlab-check")
	if err := ondemand.Build(ctx, goTool, root, bin, "./cmd/archlab-check", nil, false, "-overlay", overlay); err != nil {
		// Code that does not compile is the student's, as under check:
		// every exercise failed, with go's words.
		return compileFailed(lang, version, own, err)
	}
	sources, err := check.Fingerprint(os.DirFS(own))
	if err != nil {
		return nil, err
	}
	var out []*check.Result
	done := 0
	for _, e := range check.Exercises {
		r := check.RunChild(ctx, []string{bin, "--lang", string(lang), e.Name}, os.Environ(), e, limit)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var start *check.StartError
		if errors.As(r.Err, &start) {
			return nil, start.Err
		}
		if r.Status == check.Done {
			done++
		}
		out = append(out, r)
	}
	rep := &report.Report{Renderer: &term.Renderer{Lang: lang}, Info: report.GraderInfo{ArchlabVersion: version, SourcesSHA256: sources}}
	return json.Marshal(rep.JSON(out, done))
}

// maxCloneFiles is the most Go files a student's exercises/ may hold:
// the exercises are six files and a helper or two.
const maxCloneFiles = 200

// copyExercises copies the Go files of the student's exercises/ (src,
// inside dir), its subfolders' too (a helper package), into own,
// refusing what a result file would be refused for: a link out of the
// class folder, a file that is not a regular one or is over MaxFile, a
// name with a control character; and more files than maxCloneFiles. As
// check's fingerprint does, names starting with . or _ and testdata are
// left out, and so are the student's own tests.
func copyExercises(dir, src, own string) error {
	n := 0
	var walk func(rel string, depth int) error
	walk = func(rel string, depth int) error {
		entries, err := os.ReadDir(filepath.Join(src, rel))
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" {
				continue
			}
			if !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) || utf8.RuneCountInString(name) > 100 {
				return refuse("class.err.name")
			}
			r, err := filepath.Rel(dir, filepath.Join(src, rel, name))
			if err != nil {
				return err
			}
			path, info, err := inside(dir, r)
			if err != nil {
				return err
			}
			shown := filepath.ToSlash(filepath.Join("exercises", rel, name))
			switch {
			case info.IsDir():
				if depth >= 4 {
					return refuse("class.err.clone-deep", shown)
				}
				if err := os.MkdirAll(filepath.Join(own, rel, name), 0o700); err != nil {
					return err
				}
				if err := walk(filepath.Join(rel, name), depth+1); err != nil {
					return err
				}
				continue
			case !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go"):
				continue
			case !info.Mode().IsRegular():
				return refuse("class.err.not-regular", shown)
			case info.Size() > MaxFile:
				return refuse("class.err.huge", MaxFile>>20)
			}
			if n++; n > maxCloneFiles {
				return refuse("class.err.clone-files", maxCloneFiles)
			}
			data, err := readLimited(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(own, rel, name), data, 0o600); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(".", 0); err != nil {
		return err
	}
	if n == 0 {
		return refuse("class.err.not-clone")
	}
	return nil
}

// readLimited reads at most MaxFile bytes of path, refusing a file that
// grew past it since it was looked at.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err == nil && len(data) > MaxFile {
		err = refuse("class.err.huge", MaxFile>>20)
	}
	return data, err
}

// overlayFor writes go build's -overlay file: each Go file of the
// teacher's exercises/ (its subfolders' too) taken away, and the
// student's, copied into own, put in their places.
func overlayFor(root, own string) (string, error) {
	replace := map[string]string{}
	ex := filepath.Join(root, "exercises")
	goFiles := func(top string, each func(rel, path string)) error {
		return filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			rel, err := filepath.Rel(top, path)
			if err == nil {
				each(rel, path)
			}
			return err
		})
	}
	if err := goFiles(ex, func(rel, _ string) { replace[filepath.Join(ex, rel)] = "" }); err != nil {
		return "", err
	}
	if err := goFiles(own, func(rel, path string) { replace[filepath.Join(ex, rel)] = path }); err != nil {
		return "", err
	}
	b, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(filepath.Dir(own), "overlay.json")
	return path, os.WriteFile(path, b, 0o600)
}

// compileFailed is check --json's output for code that does not compile:
// every exercise failed, with the compiler's first lines.
func compileFailed(lang i18n.Lang, version, own string, err error) ([]byte, error) {
	if errors.Is(err, context.Canceled) {
		return nil, err
	}
	var out []*check.Result
	for _, e := range check.Exercises {
		out = append(out, &check.Result{Exercise: e, Status: check.Failed, Err: errors.New(printable(firstLines(err.Error(), 5)))})
	}
	sources, _ := check.Fingerprint(os.DirFS(own))
	rep := &report.Report{Renderer: &term.Renderer{Lang: lang}, Info: report.GraderInfo{ArchlabVersion: version, SourcesSHA256: sources}}
	return json.Marshal(rep.JSON(out, 0))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
