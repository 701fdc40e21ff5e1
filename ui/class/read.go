package class

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"archlab/check"
	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/report"
)

// A class folder comes from sixty hands, so every file in it is untrusted:
// read at most MaxFile bytes of it, never follow a link out of the folder
// or open anything but a regular file (a FIFO would block the read), and
// keep no string that could move the terminal's cursor or is not one of
// the words check writes. A file that breaks a rule is refused with one
// line naming it (Refused), and the rest of the class is still read.

// MaxFile is the largest result file read: check's JSON for every
// exercise, its drill files included, is a few tens of KiB.
const MaxFile = 4 << 20

// The files a student's folder may hold, in the order they are looked for:
// `check --json` saved as check.json, Gradescope's results.json, JUnit XML.
var folderFiles = []string{"check.json", "results.json", "junit.xml"}

// Student is one student's results, as read.
type Student struct {
	Name   string // the file's name without .json, or the folder's
	Source string // the file read, relative to the class folder
	Format string // json, gradescope or junit
	// Version and SHA256 are the archlab that judged and the hash of the
	// sources it judged.
	Version, SHA256 string
	Exercises       []Exercise // in check's order
}

// Exercise is one exercise's verdict in a student's results.
type Exercise struct {
	Name    string
	Status  check.Status
	Lessons []Lesson
	Mistake string // a known mistake's key, "" for none
	// Replay is the shortest run, when the result carries it (check
	// --json does, the graders' formats do not).
	Replay *Replay
}

// Lesson is a broken lesson: its ID (check.Lesson.ID) and its text as the
// result gave it, for the lessons whose text only the result has.
type Lesson struct {
	ID, Text string
}

// Replay is a counterexample a result carries: a drill file (strategy
// student) or a Go test of calls, and its length in steps or calls.
type Replay struct {
	DrillFile string
	GoTest    string
	Steps     int
}

// Refused is a file or folder not read, and why, in the reader's language.
type Refused struct {
	File, Why string
}

// Class is a class folder read.
type Class struct {
	Dir      string
	Students []Student // by name
	Refused  []Refused // by file
}

// Read reads every result in dir. Its error is only for dir itself; a bad
// result is one more Refused.
func Read(lang i18n.Lang, dir string) (*Class, error) {
	return ReadContext(context.Background(), lang, dir)
}

// ReadContext is Read, stopped with ctx's error when ctx ends (a page's
// deadline).
func ReadContext(ctx context.Context, lang i18n.Lang, dir string) (*Class, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	c := &Class{Dir: dir}
	seen := map[string]string{}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := e.Name()
		if strings.HasPrefix(name, ".") { // .DS_Store, .git: not a student
			continue
		}
		s, err := readEntry(root, name)
		if err == nil {
			if first, dup := seen[lookAlike(s.Name)]; dup {
				err = &refusal{"class.err.same-student", []any{first}}
				if stem(first) != stem(name) { // not NAME.json beside NAME/: only reads the same
					err = &refusal{"class.err.look-alike", []any{first}}
				}
			}
		}
		if err != nil {
			c.Refused = append(c.Refused, Refused{File: printable(name), Why: why(lang, err)})
			continue
		}
		seen[lookAlike(s.Name)] = name
		c.Students = append(c.Students, *s)
	}
	slices.SortFunc(c.Students, func(a, b Student) int { return strings.Compare(a.Name, b.Name) })
	return c, nil
}

// refusal is why a file is refused: a catalogue key and its arguments.
type refusal struct {
	key  string
	args []any
}

func (r *refusal) Error() string { return i18n.T(i18n.EN, r.key, r.args...) }

func refuse(key string, args ...any) error { return &refusal{key, args} }

// why is err in lang: a refusal's words, or the system's reason.
func why(lang i18n.Lang, err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return i18n.T(lang, r.key, r.args...)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return printable(err.Error())
}

// readEntry reads one entry of the class folder: NAME.json, or a folder
// NAME holding one of folderFiles.
func readEntry(root, name string) (*Student, error) {
	if !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) || utf8.RuneCountInString(name) > 100 {
		return nil, refuse("class.err.name")
	}
	path, info, err := inside(root, name)
	if err != nil {
		return nil, err
	}
	switch {
	case info.IsDir():
		for _, f := range folderFiles {
			p, fi, err := inside(root, filepath.Join(name, f))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if !fi.Mode().IsRegular() {
				return nil, refuse("class.err.not-regular", f)
			}
			s, err := readFile(p, f)
			if err != nil {
				return nil, err
			}
			s.Source = filepath.ToSlash(filepath.Join(name, f))
			s.Name, err = studentName(name)
			return s, err
		}
		return nil, refuse("class.err.empty-folder", strings.Join(folderFiles, ", "))
	case !info.Mode().IsRegular():
		return nil, refuse("class.err.special")
	case !strings.HasSuffix(name, ".json") || name == ".json":
		return nil, refuse("class.err.not-result")
	}
	s, err := readFile(path, "check.json")
	if err != nil {
		return nil, err
	}
	s.Source = name
	s.Name, err = studentName(strings.TrimSuffix(name, ".json"))
	return s, err
}

// inside is rel under root, followed if it is a link, and refused if it
// leads out of root.
func inside(root, rel string) (string, fs.FileInfo, error) {
	path := filepath.Join(root, rel)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", nil, err
	}
	if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", nil, refuse("class.err.outside")
	}
	info, err := os.Stat(real)
	return real, info, err
}

// readFile reads one result file: kind is which of folderFiles it is.
func readFile(path, kind string) (*Student, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFile {
		return nil, refuse("class.err.huge", MaxFile>>20)
	}
	var s *Student
	switch kind {
	case "check.json":
		s, err = fromCheckJSON(data)
	case "results.json":
		s, err = fromGradescope(data)
	default:
		s, err = fromJUnit(data)
	}
	if err != nil {
		return nil, err
	}
	return s, s.valid()
}

// openRegular opens path for reading only if it is a regular file, as it
// is when opened: a link or a FIFO swapped in after the folder was listed
// is refused, not followed or waited on (issue 43: a FIFO put in place
// between stat and open hung archlab class). O_NONBLOCK makes the open of
// a FIFO return at once; fstat then says what was opened.
func openRegular(path string) (*os.File, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, refuse("class.err.special")
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, refuse("class.err.special")
	}
	return os.NewFile(uintptr(fd), path), nil
}

// strict decodes one JSON value, and nothing after it.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return refuse("class.err.json", printable(err.Error()))
	}
	if dec.More() {
		return refuse("class.err.json", "data after the result")
	}
	return nil
}

func fromCheckJSON(data []byte) (*Student, error) {
	var doc struct {
		Exercises *[]report.JSONExercise `json:"exercises"`
		report.GraderInfo
	}
	if err := strict(data, &doc); err != nil {
		return nil, err
	}
	if doc.Exercises == nil {
		return nil, refuse("class.err.schema", "exercises")
	}
	s := &Student{Format: "json", Version: doc.ArchlabVersion, SHA256: doc.SourcesSHA256}
	for _, j := range *doc.Exercises {
		e := Exercise{Name: j.Name, Status: check.Status(j.Status), Mistake: j.Mistake}
		if len(j.LessonIDs) != len(j.Lessons) {
			return nil, refuse("class.err.schema", "lesson_ids")
		}
		for i, id := range j.LessonIDs {
			e.Lessons = append(e.Lessons, Lesson{ID: id, Text: j.Lessons[i]})
		}
		switch {
		case len(j.Calls) > 0 || j.GoTest != "":
			r, err := rebuilt(j)
			if err != nil {
				return nil, err
			}
			e.Replay = r
		case j.DrillFile != "":
			// A drill file is data that archlab drill --file runs: it
			// must parse as one.
			if _, err := drills.Parse("drill_file.txtar", []byte(j.DrillFile)); err != nil {
				return nil, refuse("class.err.field", "drill_file")
			}
			e.Replay = &Replay{DrillFile: j.DrillFile, Steps: drillSteps(j.DrillFile)}
		}
		s.Exercises = append(s.Exercises, e)
	}
	return s, nil
}

// rebuilt is an exercise's counterexample of calls as archlab writes it:
// the calls checked against the exercise's model, the Go test written
// again from them. The result's own go_test is never kept: it is the
// student's machine's text, and the teacher would run it.
func rebuilt(j report.JSONExercise) (*Replay, error) {
	calls := make([]check.ResultCall, len(j.Calls))
	for i, c := range j.Calls {
		calls[i] = check.ResultCall{Text: c.Call, Book: c.Book, Yours: c.Yours}
	}
	test, n, err := check.RebuildRun(j.Name, calls)
	if err != nil {
		return nil, refuse("class.err.calls", printable(j.Name))
	}
	return &Replay{GoTest: test, Steps: n}, nil
}

func fromGradescope(data []byte) (*Student, error) {
	var doc report.Gradescope
	if err := strict(data, &doc); err != nil {
		return nil, err
	}
	if doc.ExtraData.Exercises == nil {
		return nil, refuse("class.err.schema", "extra_data.exercises")
	}
	s := &Student{Format: "gradescope", Version: doc.ExtraData.ArchlabVersion, SHA256: doc.ExtraData.SourcesSHA256}
	for _, x := range doc.ExtraData.Exercises {
		s.Exercises = append(s.Exercises, summaryExercise(x.Name, x.Status, x.LessonIDs, x.Mistake))
	}
	return s, nil
}

func fromJUnit(data []byte) (*Student, error) {
	var doc report.JUnitSuites
	dec := xml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, refuse("class.err.xml", printable(err.Error()))
	}
	s := &Student{Format: "junit"}
	for _, suite := range doc.Suites {
		p := map[string]string{}
		for _, prop := range suite.Properties {
			p[prop.Name] = prop.Value
		}
		if p["status"] == "" {
			return nil, refuse("class.err.schema", "testsuite status")
		}
		s.Version, s.SHA256 = p["archlab_version"], p["sources_sha256"]
		s.Exercises = append(s.Exercises, summaryExercise(suite.Name, p["status"], strings.Fields(p["lessons"]), p["mistake"]))
	}
	if len(doc.Suites) == 0 {
		return nil, refuse("class.err.schema", "testsuite")
	}
	return s, nil
}

// summaryExercise is an exercise of a grader's format, whose lessons have
// no text of their own.
func summaryExercise(name, status string, ids []string, mistake string) Exercise {
	e := Exercise{Name: name, Status: check.Status(status), Mistake: mistake}
	for _, id := range ids {
		e.Lessons = append(e.Lessons, Lesson{ID: id})
	}
	return e
}

// drillSteps is how many steps a drill file's steps section has: its
// lines that are neither blank nor a comment.
func drillSteps(file string) int {
	_, steps, ok := strings.Cut(file, "-- steps --\n")
	if !ok {
		return 0
	}
	steps, _, _ = strings.Cut(steps, "\n-- ")
	n := 0
	for _, l := range strings.Split(steps, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			n++
		}
	}
	return n
}

var (
	idPattern      = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._:/-]{0,99}$`) // "unit/TestDedupKeyIncludesProducer"
	versionPattern = regexp.MustCompile(`^[\x21-\x7e][\x20-\x7e]{0,99}$`)      // "(devel) go1.26.8", "v1.2.0 0123456789ab+dirty go1.26.8"
	shaPattern     = regexp.MustCompile(`^[0-9a-f]{64}$`)
	statuses       = []check.Status{check.Done, check.NotDone, check.NotStarted, check.Failed, check.Hung}
)

// valid holds a result to what check writes: known exercises, once each;
// known statuses and mistakes; IDs, a version and a hash of their own
// shapes; and texts with nothing a terminal would act on.
func (s *Student) valid() error {
	if !versionPattern.MatchString(s.Version) {
		return refuse("class.err.field", "archlab_version")
	}
	if !shaPattern.MatchString(s.SHA256) {
		return refuse("class.err.field", "sources_sha256")
	}
	seen := map[string]bool{}
	for _, e := range s.Exercises {
		if _, err := check.Lookup(e.Name); err != nil || seen[e.Name] {
			return refuse("class.err.exercise", printable(e.Name))
		}
		seen[e.Name] = true
		if !slices.Contains(statuses, e.Status) {
			return refuse("class.err.status", e.Name, printable(string(e.Status)))
		}
		if e.Status == check.Done && (len(e.Lessons) > 0 || e.Mistake != "") {
			return refuse("class.err.done-broken", e.Name)
		}
		if e.Mistake != "" && !i18n.Has(i18n.EN, "check.mistake."+e.Mistake) {
			return refuse("class.err.field", "mistake")
		}
		for _, l := range e.Lessons {
			if !idPattern.MatchString(l.ID) {
				return refuse("class.err.field", "lesson_ids")
			}
			if !check.KnownLessonID(e.Name, l.ID) {
				return refuse("class.err.lesson", e.Name, l.ID)
			}
			if !plainText(l.Text, false) || utf8.RuneCountInString(l.Text) > 500 {
				return refuse("class.err.field", "lessons")
			}
		}
		if r := e.Replay; r != nil && (len(r.DrillFile)+len(r.GoTest) > 256<<10 || !plainText(r.DrillFile, true) || !plainText(r.GoTest, true)) {
			return refuse("class.err.field", "drill_file")
		}
	}
	return nil
}

// plainText is valid UTF-8 with no control character (but newlines and
// tabs where lines are allowed).
func plainText(s string, lines bool) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && !(lines && (r == '\n' || r == '\t')) || invisible(r)
	})
}

// printable is s with every control character and invalid byte shown as
// an escape, for a line that names what was refused.
func printable(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsControl(r) || invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
