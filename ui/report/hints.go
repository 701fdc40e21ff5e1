package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"archlab/check"
	"archlab/ui/term"
)

// Graduated hints: `archlab check --hint` gives the first of an exercise's
// hints (check.Exercise.Hints), asking again the next, and the last one
// again once they run out. Each exercise's count is kept in a small file
// in the clone's own directory of the user's cache (cloneCache, as the
// archlab variants are), so that two clones, two students on one machine,
// count apart. The count is a convenience: a file that cannot be read
// or written costs one warning line, never the check, and the hints then
// start from the first.

// HintsFile is the file, in the clone's cache directory, that holds the
// counts.
const HintsFile = "hints.json"

// hintCountsVersion is the form of the file: another version is read as
// unreadable, and replaced.
const hintCountsVersion = 1

// hintCounts is the file: how many hints each exercise has shown.
type hintCounts struct {
	Version int            `json:"version"`
	Shown   map[string]int `json:"shown"`
}

// Hint is one hint given: the exercise, its number and how many
// there are, its text. It is part of `check --hint --json`.
type Hint struct {
	Exercise string `json:"exercise"`
	Number   int    `json:"number"`
	Of       int    `json:"of"`
	Text     string `json:"text"`
}

// NextHint gives the next hint for res's exercise and counts it in the
// file at path (HintsFile in the clone's cache; pathErr if it has none). warn is
// the one line to say on stderr when the count could not be read or kept
// ("" otherwise); the hint is given either way.
func (r *Report) NextHint(path string, pathErr error, res *check.Result) (h *Hint, warn string) {
	// The exercise's graduated hints, less the one the report above has
	// just printed (the one written for the mistake the check named):
	// asking for a hint never gives back the same words.
	var hints []string
	for _, h := range res.Exercise.Hints(r.Lang) {
		if h != res.Hint(r.Lang) {
			hints = append(hints, h)
		}
	}
	if len(hints) == 0 {
		return nil, ""
	}
	counts := hintCounts{Version: hintCountsVersion, Shown: map[string]int{}}
	if pathErr != nil {
		path, warn = "", r.t("check.hints.err.cache", pathErr)
	} else {
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			// No count yet (or no cache directory to hold one: saving says so).
		case err != nil:
			warn = r.t("check.hints.err.read", path, term.OSReason(r.Lang, err))
		default:
			var c hintCounts
			if err := json.Unmarshal(b, &c); err != nil || c.Version != hintCountsVersion || c.Shown == nil {
				warn = r.t("check.hints.err.read", path, r.t("check.hints.err.corrupt"))
			} else {
				counts = c
			}
		}
	}
	name := res.Exercise.Name
	i := min(max(counts.Shown[name], 0), len(hints)-1)
	counts.Shown[name] = i + 1
	if path != "" {
		if err := saveHintCounts(path, counts); err != nil && warn == "" {
			warn = r.t("check.hints.err.write", path, term.OSReason(r.Lang, err))
		}
	}
	return &Hint{Exercise: name, Number: i + 1, Of: len(hints), Text: hints[i]}, warn
}

// saveHintCounts writes the counts whole or not at all (writeWhole), so
// that two runs at once leave one count or the other, never a mix.
func saveHintCounts(path string, c hintCounts) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(c) // a map's keys come out sorted: the same counts, the same bytes
	if err != nil {
		return err
	}
	return writeWhole(path, append(b, '\n'), 0o600)
}

// HintFor is the exercise --hint is about: the one named, or else the
// one the student is working on: the first started and not done, and
// only when none is, the first not started. nil when there is none
// (every exercise done, or the one named is).
func HintFor(results []*check.Result) *check.Result {
	for _, r := range results {
		if r.Status != check.Done && r.Status != check.NotStarted {
			return r
		}
	}
	for _, r := range results {
		if r.Status == check.NotStarted {
			return r
		}
	}
	return nil
}

// ShowHint prints the hint given, or why none was needed.
func (r *Report) ShowHint(h *Hint) {
	fmt.Fprintln(r.Out)
	switch {
	case h == nil && r.Only != "":
		r.Para(r.t("check.hints.not-needed", r.Only), r.P.Good.Sprint)
	case h == nil:
		r.Para(r.t("check.hints.all-done"), r.P.Good.Sprint)
	case h.Number == h.Of:
		r.Para(r.t("check.hints.last", h.Number, h.Of, h.Exercise, h.Text), fmt.Sprint)
	default:
		r.Para(r.t("check.hints.line", h.Number, h.Of, h.Exercise, h.Text), fmt.Sprint)
		again := r.cmd()
		for _, a := range r.Args {
			again += " " + term.ShellWord(a)
		}
		r.Para(r.t("check.hints.next", strings.TrimSpace(again)), r.P.Dim.Sprint)
	}
}
