package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/view"
)

// The state pages: /explore/{section}/state/{path} is one state of a
// section's harness, the path the steps from its start, one a segment
// (deliver-m1.ack-lost/deliver-m1). The page shows the run so far as a
// sequence diagram, what the state holds, the section's invariants here,
// every step possible next (a link each, numbered for the keyboard), the
// fewest steps to a violation, and the same path under another strategy
// beside it. /explore/{section}/save/{path} is the path as a drill file.
//
// A start is the explorer's default scope, a built-in drill's world
// (?from=ack-lost, with the drill's parameters), or a counterexample's
// (?from=explore-inbox-naive). Every drill page and counterexample links
// each of its steps to the state before it: branch here.

// stateCache holds what the state pages learn once: each start, resolved.
type stateCache struct {
	mu      sync.Mutex
	origins map[string]*origin
}

// maxOrigins bounds the starts kept: a start's key holds a drill's
// parameters, which a reader may vary without end.
const maxOrigins = 256

func (s *Server) stateRoutes() {
	s.states.origins = map[string]*origin{}
	s.mux.HandleFunc("GET /explore/{mechanism}/state/{path...}", s.state)
	s.mux.HandleFunc("GET /explore/{mechanism}/save/{path...}", s.save)
}

// stateURL is the page of the state path reaches.
func stateURL(mech string, path []string, q url.Values) string {
	segs := make([]string, len(path))
	for i, p := range path {
		segs[i] = url.PathEscape(p)
	}
	u := "/explore/" + mech + "/state/" + strings.Join(segs, "/")
	if enc := q.Encode(); enc != "" {
		u += "?" + enc
	}
	return u
}

// branchLinks are a run's links to the state each of its steps has
// reached: one for the start, then one per step of its trace ("" where the
// walk stopped). A move of the state pages (a delivery with its fault) is
// several steps of a drill's trace: at its last one the class has watched
// it whole, and the link opens the state after it, with those steps on
// the diagram; within it, the state before it, where that move can be
// taken otherwise. (Every step used to open the state before its move:
// after three steps of ack-lost, the state after 0 moves, an empty
// diagram.)
func branchLinks(o *origin, mech string, lang i18n.Lang) (start string, rows []string) {
	q := cloneQuery(o.query)
	q.Set("strategy", o.start.Strategy)
	q.Set("lang", string(lang))
	start = stateURL(mech, nil, q)
	for i, k := range o.walk.Rows {
		if k < 0 {
			rows = append(rows, "")
			continue
		}
		end := k
		if k < len(o.path) && (i+1 == len(o.walk.Rows) || o.walk.Rows[i+1] != k) {
			end = k + 1 // the move's last step: watched whole
		}
		rows = append(rows, stateURL(mech, o.path[:end], q))
	}
	return start, rows
}

func cloneQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

// stateView is a state page laid out.
type stateView struct {
	Mech, Section string
	Title         string
	From          string // what the start is: a drill, a counterexample, the scope
	FromLink      string
	Strategy      string
	Strategies    []link
	Compare       []link
	Crumbs        []link
	Parent        string
	Start         string
	SVG           template.HTML
	Rows          []stateRow
	Actions       []actionView
	Props         []propView
	Reach         *reachView
	NoReach       string
	Parts         []partView
	Legend        string
	Save          string
	Hidden        []hidden // the query, for the forms
	Err           string
	StepErr       string // a path with a step that cannot be taken
	Vs            *compareView
}

type link struct {
	Text, URL string
	Current   bool
	Dim       bool // a step that changed nothing
}

type stateRow struct {
	N       int
	Branch  string
	Current bool
}

type actionView struct {
	N        int
	Segment  string
	Doc      string
	URL      string
	Fault    bool
	NoEffect bool
	Ignored  string
	Dist     int
	Took     bool // the drill or counterexample took this step from here
	Form     *formView
}

type formView struct {
	Action        string
	Prefix        string
	Min, Max, Def int
}

type hidden struct{ Name, Value string }

type propView struct {
	Name, Value string
	Broken      bool
}

type reachView struct {
	Head   string
	Steps  []link
	Within string
	URL    string
}

type partView struct {
	Title string
	Head  []string
	Rows  [][]string
}

type compareView struct {
	Cols []compareCol
	Diff int // the first step where the two runs part, 1-based; 0: none
	Back string
}

type compareCol struct {
	Strategy string
	SVG      template.HTML
	Props    []propView
	Err      string
	Steps    int
}

// diagramWidth is the width, in the diagram's units, a state page's
// diagram is laid out for: its panel's width in CSS pixels at 1280×720,
// so that its text is as large as a drill page's.
const (
	diagramWidth = 800
	compareWidth = 600
)

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	mech := r.PathValue("mechanism")
	if sec, ok := harness.SectionByName(mech); ok && sec.Harness != mech {
		target := "/explore/" + sec.Harness + "/state/" + r.PathValue("path")
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusPermanentRedirect)
		return
	}
	if !slices.Contains(Mechanisms, mech) {
		s.fail(w, p, http.StatusNotFound, p.T("explore.err.unknown", mech, strings.Join(Mechanisms, ", ")))
		return
	}
	path, bad := splitPath(r.PathValue("path"))
	q := r.URL.Query()
	if then := q.Get("then"); then != "" {
		s.then(w, r, p, mech, path, then)
		return
	}
	// A state's page replays its path for every step it offers: it runs
	// as a what-if does, in a slot, under the deadline, and stops when its
	// reader goes.
	ctx, release, err := s.pageSlot(r)
	if err != nil {
		status, msg, _ := s.runError(p, err)
		s.fail(w, p, status, msg)
		return
	}
	defer release()
	o, err := s.resolve(ctx, q, p, mech)
	if err != nil {
		var pr *problem
		if errors.As(err, &pr) {
			s.fail(w, p, pr.status, pr.msg)
			return
		}
		s.fail(w, p, http.StatusInternalServerError, err.Error())
		return
	}
	st := o.start
	if v := q.Get("strategy"); v != "" {
		st.Strategy = v
	}
	base := cloneQuery(o.query)
	base.Set("strategy", st.Strategy)
	base.Set("lang", string(p.Lang))
	sec, _ := harness.SectionByName(mech)
	v := &stateView{Mech: mech, Section: p.T(sec.TitleKey()), Strategy: st.Strategy, Start: stateURL(mech, nil, base)}
	p.StateView = v
	p.Title = "explore " + mech + " — " + p.T("web.state.title")
	if bad >= 0 {
		v.Title = p.T("web.state.err.title")
		v.StepErr = p.T("web.state.err.step", bad+1, "", p.T("web.state.err.empty-step"))
		s.render(w, http.StatusNotFound, "state.html", p)
		return
	}
	state, err := openState(ctx, st, path)
	if status, msg, ok := s.runError(p, err); ok {
		s.fail(w, p, status, msg)
		return
	}
	if err != nil {
		var pe *explore.PathError
		var se *explore.StartError
		switch {
		case errors.As(err, &pe):
			v.Title = p.T("web.state.err.title")
			v.StepErr = p.T("web.state.err.step", pe.Step, pe.Segment, p.T(pe.Why.Key, pe.Why.Args...))
			v.Parent = stateURL(mech, path[:pe.Step-1], base)
			s.render(w, http.StatusNotFound, "state.html", p)
		case errors.As(err, &se):
			s.fail(w, p, http.StatusNotFound, p.T(se.Why.Key, se.Why.Args...))
		default:
			s.fail(w, p, http.StatusInternalServerError, err.Error())
		}
		return
	}
	if vs := q.Get("vs"); vs != "" {
		// An unknown strategy to compare with is the reader's to fix,
		// as an unknown strategy is.
		if all := explore.StateStrategies(sec, nil); !slices.Contains(all, vs) {
			s.fail(w, p, http.StatusNotFound, p.T("state.err.strategy", vs, mech, strings.Join(all, ", ")))
			return
		}
	}
	s.layoutState(p, v, o, state, base)
	if vs := q.Get("vs"); vs != "" {
		v.Vs = s.compare(ctx, p, o, st, path, vs, state, base)
	}
	s.render(w, http.StatusOK, "state.html", p)
}

// pageSlot is a state page's run slot, held until release, and its
// context: the request's, under the server's deadline.
func (s *Server) pageSlot(r *http.Request) (context.Context, func(), error) {
	ctx, cancel := context.WithTimeout(r.Context(), s.deadline)
	ctx, release, err := s.slot(ctx)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return ctx, func() { release(); cancel() }, nil
}

// openState opens a state, until ctx ends; a student's code that panics
// is an error of the page, not of the server.
func openState(ctx context.Context, st explore.Start, path []string) (state *explore.State, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("the student's code panicked: %v", x)
		}
	}()
	return explore.OpenContext(ctx, st, path)
}

// splitPath splits a path into its segments; bad is the index of an empty
// one, -1 for none. A trailing slash is the same path.
func splitPath(p string) (segs []string, bad int) {
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil, -1
	}
	segs = strings.Split(p, "/")
	for i, s := range segs {
		if s == "" {
			return segs, i
		}
	}
	return segs, -1
}

// then is a form's step with a number (?then=run-shard-0.e1.crash-&n=37):
// the state one step on.
func (s *Server) then(w http.ResponseWriter, r *http.Request, p *page, mech string, path []string, then string) {
	q := r.URL.Query()
	n, err := strconv.Atoi(strings.TrimSpace(q.Get("n")))
	if err != nil || n < 0 {
		s.fail(w, p, http.StatusBadRequest, p.T("web.err.number", "n", q.Get("n")))
		return
	}
	q.Del("then")
	q.Del("n")
	http.Redirect(w, r, stateURL(mech, append(slices.Clone(path), then+strconv.Itoa(n)), q), http.StatusSeeOther)
}

// layoutState fills the view of a state.
func (s *Server) layoutState(p *page, v *stateView, o *origin, st *explore.State, base url.Values) {
	mech, lang := v.Mech, p.Lang
	path := st.Segments()
	v.Title = p.T(harness.Plural("web.state.head", len(path)), len(path))
	switch {
	case o.from == "":
		v.From = p.T("web.state.from.scope")
	case strings.HasPrefix(o.from, "explore-"):
		v.From, v.FromLink = p.T("web.state.from.counterexample", strings.TrimPrefix(o.from, "explore-"+mech+"-")), o.link+"?lang="+string(lang)
	default:
		v.From, v.FromLink = p.T("web.state.from.drill", o.from), withLang(o.link, lang)
	}
	for _, name := range explore.StateStrategies(st.Start.Section, nil) {
		q := cloneQuery(base)
		q.Set("strategy", name)
		v.Strategies = append(v.Strategies, link{Text: name, URL: stateURL(mech, path, q), Current: name == st.Start.Strategy})
		if name != st.Start.Strategy {
			q := cloneQuery(base)
			q.Set("vs", name)
			v.Compare = append(v.Compare, link{Text: name, URL: stateURL(mech, path, q)})
		}
	}
	v.Crumbs = append(v.Crumbs, link{Text: p.T("web.state.start"), URL: stateURL(mech, nil, base), Current: len(path) == 0})
	for i, step := range st.Path {
		v.Crumbs = append(v.Crumbs, link{Text: step.Segment, URL: stateURL(mech, path[:i+1], base), Current: i == len(path)-1, Dim: !step.Effect})
	}
	if len(path) > 0 {
		v.Parent = stateURL(mech, path[:len(path)-1], base)
	}
	// The diagram: every step so far; the last step's are the current
	// ones, and each links to the state before the path step it is in.
	rows := view.Rows(lang, st.Steps)
	cur := map[int]string{}
	first := len(rows)
	if n := len(st.Path); n > 0 {
		first = st.Path[n-1].From
	}
	for i := range rows {
		sr := stateRow{N: i + 1, Branch: stateURL(mech, nil, base)}
		for k, step := range st.Path {
			if i >= step.From && i < step.To {
				sr.Branch = stateURL(mech, path[:k], base)
			}
		}
		if i >= first {
			sr.Current = true
			cur[i+1] = "current"
		}
		v.Rows = append(v.Rows, sr)
	}
	v.SVG = markSteps(svgIn(view.DiagramOf(rows), diagramWidth), cur)
	// The steps possible next.
	took := ""
	if len(o.path) > len(path) && slices.Equal(o.path[:len(path)], path) {
		took = o.path[len(path)]
	}
	hiddenQ := []hidden{}
	for _, k := range sortedKeys(base) {
		hiddenQ = append(hiddenQ, hidden{k, base.Get(k)})
	}
	v.Hidden = hiddenQ
	for i, a := range st.Actions {
		av := actionView{N: i + 1, Segment: a.Segment, Doc: p.T(a.Doc.Key, a.Doc.Args...), Fault: a.Fault, NoEffect: !a.Effect, Dist: a.Dist, Took: a.Segment == took}
		switch {
		case a.Ignored.Key != "":
			av.Ignored = p.T(a.Ignored.Key, a.Ignored.Args...)
		case a.Form != nil:
			av.Form = &formView{Action: stateURL(mech, path, nil), Prefix: a.Form.Prefix, Min: a.Form.Min, Max: a.Form.Max, Def: a.Form.Def}
			if strings.HasPrefix(took, a.Form.Prefix) {
				av.Took = true
				if n, err := strconv.Atoi(strings.TrimPrefix(took, a.Form.Prefix)); err == nil {
					av.Form.Def = n
				}
			}
			av.Segment = a.Form.Prefix + "K"
		default:
			av.URL = stateURL(mech, append(slices.Clone(path), a.Segment), base)
		}
		v.Actions = append(v.Actions, av)
	}
	v.Props = props(p, st)
	if st.Reach != nil {
		n := len(st.Reach.Steps)
		rv := &reachView{Head: p.T(harness.Plural("web.state.reach", n), n, strings.Join(st.Reach.Broken, ", ")), Within: p.T(st.Reach.Within.Key, st.Reach.Within.Args...)}
		full := slices.Clone(path)
		for _, seg := range st.Reach.Steps {
			full = append(full, seg)
			rv.Steps = append(rv.Steps, link{Text: seg, URL: stateURL(mech, full, base)})
		}
		rv.URL = stateURL(mech, full, base)
		v.Reach = rv
	} else if !st.Broken() && st.NoReach.Key != "" {
		v.NoReach = p.T("web.state.no-reach", p.T(st.NoReach.Key, st.NoReach.Args...))
	}
	for _, part := range st.Parts {
		pv := partView{Title: p.T(part.Title.Key, part.Title.Args...)}
		for _, h := range part.Head {
			pv.Head = append(pv.Head, p.T(h.Key, h.Args...))
		}
		for _, row := range part.Rows {
			var cells []string
			for _, c := range row {
				cells = append(cells, p.T(c.Key, c.Args...))
			}
			pv.Rows = append(pv.Rows, cells)
		}
		v.Parts = append(v.Parts, pv)
	}
	if len(st.Legend) > 0 {
		v.Legend = strings.Join(st.Legend, " · ")
	}
	v.Err = st.Err
	q := cloneQuery(base)
	v.Save = strings.Replace(stateURL(mech, path, q), "/state/", "/save/", 1)
}

func withLang(u string, lang i18n.Lang) string {
	if strings.Contains(u, "?") {
		return u + "&lang=" + string(lang)
	}
	return u + "?lang=" + string(lang)
}

func sortedKeys(q url.Values) []string {
	var keys []string
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func props(p *page, st *explore.State) []propView {
	var out []propView
	for _, pr := range st.Props {
		out = append(out, propView{Name: pr.Name, Broken: pr.Broken, Value: p.T(pr.Value.Key, pr.Value.Args...)})
	}
	return out
}

// compare opens the same path under strategy vs, and lays the two runs
// side by side with the first step where they part.
func (s *Server) compare(ctx context.Context, p *page, o *origin, st explore.Start, path []string, vs string, here *explore.State, base url.Values) *compareView {
	c := &compareView{Back: stateURL(st.Section.Harness, path, base)}
	rowsA := view.Rows(p.Lang, here.Steps)
	other := st
	other.Strategy = vs
	col := compareCol{Strategy: vs}
	var rowsB []view.Row
	there, err := openState(ctx, other, path)
	var pe *explore.PathError
	switch {
	case errors.As(err, &pe):
		// The other strategy cannot take the path that far: show what it
		// can, and why it stops.
		col.Err = p.T("web.state.err.step", pe.Step, pe.Segment, p.T(pe.Why.Key, pe.Why.Args...))
		if part, perr := openState(ctx, other, path[:pe.Step-1]); perr == nil {
			rowsB = view.Rows(p.Lang, part.Steps)
			col.Props = props(p, part)
		}
	case err != nil:
		col.Err = err.Error()
	default:
		rowsB = view.Rows(p.Lang, there.Steps)
		col.Props = props(p, there)
	}
	c.Diff = firstDiff(rowsA, rowsB)
	mark := map[int]string{}
	if c.Diff > 0 {
		mark[c.Diff] = "differ"
	}
	col.SVG, col.Steps = markSteps(svgIn(view.DiagramOf(rowsB), compareWidth), mark), len(rowsB)
	c.Cols = []compareCol{{Strategy: st.Strategy, SVG: markSteps(svgIn(view.DiagramOf(rowsA), compareWidth), mark), Props: props(p, here), Steps: len(rowsA)}, col}
	return c
}

// firstDiff is the first step where two runs' traces part, 1-based; 0
// when they are the same.
func firstDiff(a, b []view.Row) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) {
			return i + 1
		}
		x, y := a[i], b[i]
		if x.FromID != y.FromID || x.ToID != y.ToID || x.Action != y.Action || x.Result != y.Result || x.Tone != y.Tone {
			return i + 1
		}
	}
	return 0
}

var stepTag = regexp.MustCompile(`<g class="step( fault)?" data-step="(\d+)">`)

// markSteps adds a class to some of a diagram's steps: current, differ.
func markSteps(svg template.HTML, classes map[int]string) template.HTML {
	if len(classes) == 0 {
		return svg
	}
	out := stepTag.ReplaceAllStringFunc(string(svg), func(tag string) string {
		m := stepTag.FindStringSubmatch(tag)
		n, _ := strconv.Atoi(m[2])
		cls, ok := classes[n]
		if !ok {
			return tag
		}
		return fmt.Sprintf(`<g class="step%s %s" data-step="%s">`, m[1], cls, m[2])
	})
	return template.HTML(out)
}

// save is the path as a drill file, to download: `archlab drill --file`
// replays it to the same state and verdict.
func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	mech := r.PathValue("mechanism")
	if !slices.Contains(Mechanisms, mech) {
		s.fail(w, p, http.StatusNotFound, p.T("explore.err.unknown", mech, strings.Join(Mechanisms, ", ")))
		return
	}
	path, bad := splitPath(r.PathValue("path"))
	ctx, release, err := s.pageSlot(r)
	if err != nil {
		status, msg, _ := s.runError(p, err)
		s.fail(w, p, status, msg)
		return
	}
	defer release()
	o, err := s.resolve(ctx, r.URL.Query(), p, mech)
	var pr *problem
	if errors.As(err, &pr) {
		s.fail(w, p, pr.status, pr.msg)
		return
	}
	if err != nil || bad >= 0 {
		s.fail(w, p, http.StatusNotFound, p.T("web.state.err.save"))
		return
	}
	st := o.start
	if v := r.URL.Query().Get("strategy"); v != "" {
		st.Strategy = v
	}
	state, err := openState(ctx, st, path)
	if status, msg, ok := s.runError(p, err); ok {
		s.fail(w, p, status, msg)
		return
	}
	if err != nil {
		var pe *explore.PathError
		if errors.As(err, &pe) {
			s.fail(w, p, http.StatusNotFound, p.T("web.state.err.step", pe.Step, pe.Segment, p.T(pe.Why.Key, pe.Why.Args...)))
			return
		}
		s.fail(w, p, http.StatusNotFound, err.Error())
		return
	}
	name := "branch-" + mech
	if o.from != "" {
		name = "branch-" + o.from
	}
	base := cloneQuery(o.query)
	base.Set("strategy", st.Strategy)
	text, err := state.DrillFile(p.Lang, name, stateURL(mech, path, base))
	if err != nil {
		s.fail(w, p, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.txtar"`)
	w.Write([]byte(text))
}

// drillBranches links each step of a drill's run to the state before it.
func (s *Server) drillBranches(ctx context.Context, p *page, d *drills.Drill, values drills.Values) {
	sec := d.Sec()
	q := url.Values{}
	for _, dp := range d.Params {
		if values[dp.Name] != dp.Default {
			q.Set(dp.Name, strconv.Itoa(values[dp.Name]))
		}
	}
	q.Set("from", d.Name)
	o, err := s.resolve(ctx, q, p, sec.Harness)
	if err != nil {
		return // no links: the state pages cannot walk this run
	}
	p.Run.Branch0, p.Run.Branch = branchLinks(o, sec.Harness, p.Lang)
}

// counterexampleBranches links each step of a counterexample's run to the
// state before it.
func (s *Server) counterexampleBranches(r *http.Request, p *page, mech, strategy string, rows int) {
	o, err := s.resolve(r.Context(), url.Values{"from": {"explore-" + mech + "-" + strategy}}, p, mech)
	if err != nil || len(o.walk.Rows) != rows {
		return
	}
	p.Run.Branch0, p.Run.Branch = branchLinks(o, mech, p.Lang)
}
