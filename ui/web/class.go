package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"archlab/drills"
	"archlab/harness"
	"archlab/ui/class"
)

// The class page (archlab serve --class DIR): the table `archlab class`
// prints, read again from DIR on every request, so a result a student
// hands in shows at the next reload. Names stay hidden (numbers) unless
// the server was started with --names: the page is on a projector, and a
// query parameter would let anyone in the room show them. Each mistake a
// strategy of the book's makes too links to that strategy's
// counterexample in the explorer, whose steps open the state pages; each
// shortest run can be fetched as the file that replays it.

// mistakePages are the explorer's counterexamples that make a known
// mistake of the exercises: its section's and a strategy's.
var mistakePages = map[string]explorePage{
	"mark-before-effect": {&harness.InboxSection, "mark-before-effect"},
	"no-key":             {&harness.InboxSection, "naive"},
	"prune-too-much":     {&harness.InboxSection, "early-prune"},
	"no-fence":           {&harness.ShardjobSection, "fence-at-first-commit"},
}

// explorePage is a strategy's counterexample page in the explorer.
type explorePage struct {
	sec      *harness.Section
	strategy string
}

func (pg explorePage) path() string { return "/explore/" + pg.sec.Harness + "/" + pg.strategy }

// mistakeDrills are, for the known mistakes no strategy of the explorer
// makes, the drill that shows the same harm, or its refusal, on the
// book's code, step by step (its steps open the explorer's state pages
// too). A mistake in neither table has no link.
var mistakeDrills = map[string]string{
	"ack-first":             "ack-before-effect",
	"no-recovery":           "durable-inbox",
	"notify-only-when-new":  "exactly-once-boundary",
	"key-without-producer":  "dedup-scope",
	"key-concatenation":     "dedup-scope",
	"prune-too-little":      "prune-keeps-newer",
	"window-by-arrival":     "prune-out-of-order",
	"duplicate-as-conflict": "redelivered-event",
	"past-budget":           "retry-budget",
	"dead-before-budget":    "retry-budget",
	"poison-retried":        "poison",
	"poison-as-conflict":    "poison",
	"gap-applied":           "gap",
	"version-back":          "out-of-order",
	"dlq-lost":              "reconcile",
	"repair-forgotten":      "reconcile-gaps",
	"resume-from-zero":      "crash-resume",
	"cadence-from-zero":     "commit-cadence",
	"stale-epoch-accepted":  "stale-epoch",
	"runs-on-after-refusal": "stale-epoch",
	"stale-offset-accepted": "rerun-commit",
	"equal-offset-refused":  "rerun-commit",
}

// mistakeLink is where a mistake row links, and its words: the
// explorer's counterexample of a strategy that makes the mistake, else
// the drill that shows it; "" for none.
func mistakeLink(p *page, mistake string) (href, text string) {
	if pg, ok := mistakePages[mistake]; ok {
		return pg.path() + "?lang=" + string(p.Lang), p.T("web.class.see")
	}
	if d, ok := mistakeDrills[mistake]; ok {
		return "/drill/" + d + "?lang=" + string(p.Lang), p.T("web.class.see-drill", d)
	}
	return "", ""
}

// lessonDrill is the drill a lesson row's check or counter is of
// ("drill/ack-lost/not-doubled"), where the class can watch it; "" for a
// lesson of the explorer's or the model's.
func lessonDrill(id string) string {
	kind, rest, _ := strings.Cut(id, "/")
	name, _, _ := strings.Cut(rest, "/")
	if kind != "drill" && kind != "counter" {
		return ""
	}
	if _, err := drills.Lookup(name); err != nil {
		return ""
	}
	return name
}

// classView is the class page's content.
type classView struct {
	*class.Summary
	Names bool
	Rows  []classRow
	// RefusedHidden is how many files were refused, when names are
	// hidden: the files are named by the students' names.
	RefusedHidden int
}

type classRow struct {
	N int
	class.Row
	Mistake  bool
	Link     string // the explorer's counterexample of the same mistake, or a drill's page
	LinkText string
}

func (s *Server) classPage(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	p.Title = p.T("web.class.title")
	sum, err := s.readClass(r, p)
	if code, msg, busy := s.runError(p, err); busy {
		s.fail(w, p, code, msg)
		return
	}
	if err != nil {
		s.fail(w, p, http.StatusInternalServerError, p.T("class.err.dir", s.class, err))
		return
	}
	v := &classView{Summary: sum, Names: s.classNames}
	if !s.classNames {
		// The files refused are named by the students' names: on the
		// projector, only how many (issue 43); the terminal's archlab
		// class names them for the teacher.
		v.RefusedHidden, v.Refused = len(sum.Refused), nil
	}
	for i, row := range sum.Rows {
		cr := classRow{N: i + 1, Row: row, Mistake: row.Kind == "mistake"}
		if cr.Mistake {
			cr.Link, cr.LinkText = mistakeLink(p, row.ID)
		} else if d := lessonDrill(row.ID); d != "" {
			cr.Link, cr.LinkText = "/drill/"+d+"?lang="+string(p.Lang), p.T("web.class.watch-drill", d)
		}
		v.Rows = append(v.Rows, cr)
	}
	p.Class = v
	s.render(w, http.StatusOK, "class.html", p)
}

// classRun serves row N's shortest run as the file that replays it, shown
// in the browser as text (saved under its own name, if the teacher saves
// it).
func (s *Server) classRun(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	sum, err := s.readClass(r, p)
	if code, msg, busy := s.runError(p, err); busy {
		http.Error(w, msg, code)
		return
	}
	if err != nil {
		http.Error(w, p.T("class.err.dir", s.class, err), http.StatusInternalServerError)
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > len(sum.Rows) || sum.Rows[n-1].Example == nil {
		http.Error(w, p.T("web.class.no-run", r.PathValue("n")), http.StatusNotFound)
		return
	}
	e := sum.Rows[n-1].Example
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="`+e.File+`"`)
	w.Write([]byte(e.Body))
}

// readClass reads and counts the class folder, names hidden unless the
// server shows them. A class of thousands of files is a run like any
// other a request asks for: it waits for a run slot, within the request's
// deadline, and stops when that passes (issue 43: 16 requests from
// another site each read the whole folder at once, up to 49 s each).
func (s *Server) readClass(r *http.Request, p *page) (*class.Summary, error) {
	ctx, cancel := context.WithTimeout(r.Context(), s.deadline)
	defer cancel()
	ctx, release, err := s.slot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	c, err := class.ReadContext(ctx, p.Lang, s.class)
	if err != nil {
		return nil, err
	}
	sum := class.Count(p.Lang, c)
	if !s.classNames {
		sum.Hide(c)
	}
	return sum, nil
}
