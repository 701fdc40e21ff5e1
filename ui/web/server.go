package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
	"archlab/ui/view"
)

//go:embed assets templates
var embedded embed.FS

// MaxBodyBytes bounds a request body: a pasted drill file (at most
// drills.MaxFileBytes) form-encoded, which can triple its size, plus the
// other fields.
const MaxBodyBytes = 3*drills.MaxFileBytes + 4096

// Mechanisms are the explorer's scopes, in book order, as a page's URL
// names them: each section's harness.
var Mechanisms = func() []string {
	var out []string
	for _, sec := range harness.Sections {
		if _, ok := explore.Mechanisms[sec]; ok {
			out = append(out, sec.Harness)
		}
	}
	return out
}()

// Server serves the pages. The zero value is not usable; call New.
//
// A page is reachable by whatever the teacher's browser opens, so the
// server trusts no request: it answers only for the hosts it was told
// (DNS rebinding), refuses a POST from another origin (a page on any
// other port of localhost could post a drill file), may not be framed,
// and runs every drill under a budget and a deadline. A pasted file, or
// a what-if, waits for one of a few run slots, so the book's own pages
// keep answering while one runs; and a run keeps nothing once its page
// is written.
type Server struct {
	lang     i18n.Lang // when a request names none
	tmpl     *template.Template
	mux      *http.ServeMux
	hosts    map[string]bool
	cop      *http.CrossOriginProtection
	budget   drills.Budget
	deadline time.Duration
	slots    chan struct{} // runs that are not the book's own

	exploreMu sync.Mutex
	explored  map[string]*explore.Report // the default scopes, explored once

	states stateCache // the state pages' starts (state.go)

	// class is the class folder the class page reads (class.go), "" for
	// no class page; classNames shows the students' names there.
	class      string
	classNames bool
}

// Options configure a Server.
type Options struct {
	Lang i18n.Lang // when a request names none
	// Hosts are the hosts, beside localhost, 127.0.0.1 and ::1, that a
	// request's Host header may name: where the server listens. A
	// request for any other host is refused.
	Hosts []string
	// Budget bounds every run, as on the command line; a zero field is
	// drills.DefaultBudget's, but for Time: drills.ServeTime.
	Budget drills.Budget
	// Deadline bounds one request's run, waiting for a slot included;
	// zero is the budget's time and 5 seconds more.
	Deadline time.Duration
	// Slots is how many runs other than the book's own (pasted files,
	// what-ifs) may run at once; zero is the number of CPUs.
	Slots int
	// Class is a class folder (archlab class) to show on /class, "" for
	// none; ClassNames shows the students' names there.
	Class      string
	ClassNames bool
}

// New returns a server whose pages speak lang unless a request asks for
// another language (?lang=zh), for requests to localhost only.
func New(lang i18n.Lang) *Server { return NewWith(Options{Lang: lang}) }

// NewWith returns a server configured by o.
func NewWith(o Options) *Server {
	s := &Server{lang: o.Lang, mux: http.NewServeMux(), explored: map[string]*explore.Report{},
		hosts: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}, cop: http.NewCrossOriginProtection(),
		budget: o.Budget, deadline: o.Deadline, class: o.Class, classNames: o.ClassNames}
	for _, h := range o.Hosts {
		s.hosts[strings.ToLower(strings.Trim(h, "[]"))] = true
	}
	if s.budget.Time <= 0 {
		s.budget.Time = drills.ServeTime
	}
	if s.deadline <= 0 {
		s.deadline = s.budget.Time + 5*time.Second
	}
	if o.Slots <= 0 {
		o.Slots = runtime.NumCPU()
	}
	s.slots = make(chan struct{}, o.Slots)
	s.tmpl = template.Must(template.New("").Funcs(template.FuncMap{
		"join":  strings.Join,
		"deref": func(b *bool) bool { return b != nil && *b },
		"ident": identBreaks,
		"at": func(xs []string, i int) string {
			if i < len(xs) {
				return xs[i]
			}
			return ""
		},
	}).ParseFS(embedded, "templates/*.html"))
	assets, _ := fs.Sub(embedded, "assets")
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /drill/{name}", s.drill)
	s.mux.HandleFunc("POST /file", s.file)
	s.mux.HandleFunc("GET /explore/{mechanism}", s.explore)
	s.mux.HandleFunc("GET /explore/{mechanism}/{strategy}", s.counterexample)
	s.stateRoutes()
	if s.class != "" {
		s.mux.HandleFunc("GET /class", s.classPage)
		s.mux.HandleFunc("GET /class/run/{n}", s.classRun)
	}
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	lang := s.lang
	if l, ok := i18n.Parse(r.URL.Query().Get("lang")); ok {
		lang = l
	}
	if !s.hostAllowed(r.Host) {
		// A name that resolves to this machine is how a web page on the
		// internet reaches a server on localhost (DNS rebinding).
		http.Error(w, i18n.T(lang, "web.err.host", r.Host), http.StatusMisdirectedRequest)
		return
	}
	if err := s.cop.Check(r); err != nil {
		http.Error(w, i18n.T(lang, "web.err.origin"), http.StatusForbidden)
		return
	}
	if dest, ok := embeddedElsewhere(r); ok {
		http.Error(w, i18n.T(lang, "web.err.cross-site", dest), http.StatusForbidden)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// embeddedElsewhere reports whether r is a page that runs a drill fetched
// by another site's page as a resource (four <img> tags on a page of
// another port would each run one): GETs pass the origin checks, so the
// browser's Fetch Metadata says where it comes from. A link followed
// (a navigation) is served from anywhere, as a request with no metadata
// (curl, an older browser) is; the run slots bound those.
func embeddedElsewhere(r *http.Request) (dest string, ok bool) {
	site, mode := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Sec-Fetch-Mode")
	if site == "" || site == "same-origin" || site == "none" || mode == "navigate" {
		return "", false
	}
	if !strings.HasPrefix(r.URL.Path, "/drill/") && !strings.HasPrefix(r.URL.Path, "/explore/") && !strings.HasPrefix(r.URL.Path, "/class") {
		return "", false
	}
	dest = r.Header.Get("Sec-Fetch-Dest")
	if dest == "" {
		dest = mode
	}
	return dest, true
}

// hostAllowed reports whether a request's Host names this server.
func (s *Server) hostAllowed(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return s.hosts[strings.ToLower(strings.Trim(host, "[]"))]
}

// page is what every template gets.
type page struct {
	Lang  i18n.Lang
	T     func(key string, args ...any) string
	Title string
	// Other is the language the switch offers, Switch the URL that shows
	// this page in it; a pasted file's page switches by posting again.
	Other    i18n.Lang
	Switch   string
	Error    string
	Sections []section
	Mechs    []string
	Run      *run
	Explore  *exploreView
	Source   string // a pasted file, kept for a rerun in the other language
	Pasted   bool
	// MaxKiB is the largest drill file the page takes, in KiB.
	MaxKiB int
	// StateView is a state page (state.go).
	StateView *stateView
	// Class is the class page (class.go); HasClass puts it in the menu.
	Class    *classView
	HasClass bool
}

type section struct {
	ID, Title string
	Drills    []drillLink
}

type drillLink struct {
	Name, Title string
	Lab         bool
}

// run is one drill run laid out for the page.
type run struct {
	Name, Title, Section string
	WhatIf               string
	Params               []param
	Rows                 []view.Row
	SVG                  template.HTML
	Table                view.Table
	Checks               []view.CheckRow
	Verdict              view.Verdict
	Explain              string
	Action               string // where the what-if form goes
	// Branch0 links to the state page of the run's start, Branch[i] to
	// the state before step i+1 ("" where the state pages cannot go).
	Branch0 string
	Branch  []string
}

type param struct {
	Name, Usage   string
	Value         string
	Default, Min  int
	Max           int
	HasMax        bool
	Changed, Fail bool
}

type exploreView struct {
	Mechanism, Section string
	Scope              string
	Strategies         []view.StrategyRow
	Legend             string
}

func (s *Server) newPage(r *http.Request) *page {
	lang := s.lang
	if l, ok := i18n.Parse(r.FormValue("lang")); ok {
		lang = l
	}
	p := &page{Lang: lang, T: func(key string, args ...any) string { return i18n.T(lang, key, args...) }, MaxKiB: drills.MaxFileBytes / 1024, HasClass: s.class != ""}
	p.Other = i18n.ZH
	if lang == i18n.ZH {
		p.Other = i18n.EN
	}
	q := url.Values{}
	for k, v := range r.URL.Query() {
		q[k] = v
	}
	q.Set("lang", string(p.Other))
	p.Switch = r.URL.Path + "?" + q.Encode()
	p.Mechs = Mechanisms
	return p
}

func (s *Server) render(w http.ResponseWriter, status int, name string, p *page) {
	var buf bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&buf, name, p); err != nil {
		http.Error(w, "archlab: cannot render the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if p.Lang == i18n.ZH {
		w.Write(withBreaks(buf.Bytes()))
		return
	}
	w.Write(buf.Bytes())
}

// fail shows the index with one message saying what was wrong.
func (s *Server) fail(w http.ResponseWriter, p *page, status int, msg string) {
	p.Error = msg
	p.Sections = sections(p.Lang)
	if p.Title == "" {
		p.Title = p.T("web.title")
	}
	s.render(w, status, "index.html", p)
}

func sections(lang i18n.Lang) []section {
	var out []section
	for _, sec := range harness.Sections {
		list, _ := drills.InSection(sec.ID)
		x := section{ID: sec.ID, Title: i18n.T(lang, sec.TitleKey())}
		for _, d := range list {
			x.Drills = append(x.Drills, drillLink{Name: d.Name, Title: d.Title(lang), Lab: d.LabOnly})
		}
		out = append(out, x)
	}
	return out
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	p.Title = p.T("web.title")
	p.Sections = sections(p.Lang)
	s.render(w, http.StatusOK, "index.html", p)
}

// drill runs a built-in drill with the book's parameters, or with the
// ones the what-if form sent (?commit-every=5), bounded as the flags are.
func (s *Server) drill(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	d, err := drills.Lookup(r.PathValue("name"))
	if err != nil {
		s.fail(w, p, http.StatusNotFound, p.T("err.unknown-drill", r.PathValue("name")))
		return
	}
	values := d.Defaults()
	params := make([]param, len(d.Params))
	var bad string
	for i, dp := range d.Params {
		params[i] = param{Name: dp.Name, Usage: d.ParamUsage(p.Lang, dp), Value: strconv.Itoa(dp.Default), Default: dp.Default, Min: dp.Min, Max: dp.Max, HasMax: dp.HasMax}
		// The command line's rule for numbers: "+5", "007" and " 5" are
		// refused there, so here too.
		raw := r.URL.Query().Get(dp.Name)
		if raw == "" {
			continue
		}
		params[i].Value = raw
		n, ok := drills.ParseDecimal(raw)
		if !ok {
			params[i].Fail = true
			if bad == "" {
				bad = p.T("web.err.number", dp.Name, raw)
			}
			continue
		}
		values[dp.Name] = n
		params[i].Changed = n != dp.Default
	}
	if bad != "" {
		s.drillError(w, p, d, params, http.StatusBadRequest, bad)
		return
	}
	res, err := s.runDrill(r.Context(), d, values)
	if err != nil {
		if status, msg, ok := s.runError(p, err); ok {
			s.drillError(w, p, d, params, status, msg)
			return
		}
		s.drillError(w, p, d, params, http.StatusBadRequest, s.paramError(p, err, params))
		return
	}
	p.Run = s.layout(p.Lang, res, params)
	p.Run.Action = "/drill/" + d.Name
	s.drillBranches(r.Context(), p, d, values)
	p.Title = d.Name + " — archlab"
	s.render(w, http.StatusOK, "drill.html", p)
}

// drillError shows the drill's page with its form and the message, and no
// run: a bad value is the reader's to fix, never a server error.
func (s *Server) drillError(w http.ResponseWriter, p *page, d *drills.Drill, params []param, status int, msg string) {
	p.Error = msg
	p.Title = d.Name + " — archlab"
	p.Run = &run{Name: d.Name, Title: d.Title(p.Lang), Section: p.T(d.Sec().TitleKey()), Params: params, Action: "/drill/" + d.Name, Explain: d.Explain(p.Lang)}
	s.render(w, status, "drill.html", p)
}

// paramError says in the reader's language which value is out of range,
// and marks its field.
func (s *Server) paramError(p *page, err error, params []param) string {
	var pe *drills.ParamError
	if !errors.As(err, &pe) {
		return drills.ErrorText(p.Lang, err)
	}
	for i := range params {
		if params[i].Name == pe.Flag {
			params[i].Fail = true
		}
	}
	msg := p.T("err.param.min", pe.Flag, pe.Min, pe.Value)
	if pe.Bounded {
		msg = p.T("err.param.range", pe.Flag, pe.Min, pe.Max, pe.Value)
	}
	if pe.Why != "" {
		msg = p.T("err.param.why", msg, pe.WhyText(p.Lang))
	}
	return msg
}

// runDrill runs d in the book's in-memory environment (the zero
// harness.Env: never a database file, a consumer process or student
// code), under the server's budget and the request's deadline. A run that
// is not the book's own (a what-if, a pasted file) first takes a slot.
func (s *Server) runDrill(ctx context.Context, d *drills.Drill, v drills.Values) (*drills.Result, error) {
	return s.runDrillBudget(ctx, d, v, s.budget)
}

// runDrillBudget is runDrill under budget b.
func (s *Server) runDrillBudget(ctx context.Context, d *drills.Drill, v drills.Values, b drills.Budget) (*drills.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, s.deadline)
	defer cancel()
	if !d.Builtin || !maps.Equal(v, d.Defaults()) {
		ctx, release, err := s.slot(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		return d.RunContext(ctx, v, drills.RunOptions{Budget: b})
	}
	return d.RunContext(ctx, v, drills.RunOptions{Budget: b})
}

// slotHeld marks a context whose request holds a run slot.
type slotHeld struct{}

// slot waits for a run slot (a request that holds one already keeps it)
// until ctx ends; release gives it back.
func (s *Server) slot(ctx context.Context) (context.Context, func(), error) {
	if ctx.Value(slotHeld{}) != nil {
		return ctx, func() {}, nil
	}
	select {
	case s.slots <- struct{}{}:
		return context.WithValue(ctx, slotHeld{}, true), func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// runError is the page's answer to a run the request's deadline or its
// client stopped: the server is busy, not the reader wrong.
func (s *Server) runError(p *page, err error) (int, string, bool) {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return http.StatusServiceUnavailable, p.T("web.err.busy"), true
	}
	return 0, "", false
}

// layout turns a run into the page's parts, all from package view.
func (s *Server) layout(lang i18n.Lang, res *drills.Result, params []param) *run {
	d := res.Drill
	rows := view.Rows(lang, res.Steps)
	return &run{
		Name: d.Name, Title: d.Title(lang), Section: i18n.T(lang, d.Sec().TitleKey()),
		WhatIf:  view.WhatIf(lang, res),
		Params:  params,
		Rows:    rows,
		SVG:     SVG(view.DiagramOf(rows)),
		Table:   view.Counters(lang, res),
		Checks:  view.Checks(lang, res),
		Verdict: view.VerdictOf(lang, res),
		Explain: d.Explain(lang),
	}
}

// file runs a pasted drill file: parsed by drills.Parse with the limit
// --file has, run with its own defaults.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		p := s.newPage(r)
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.fail(w, p, http.StatusRequestEntityTooLarge, p.T("web.err.too-large", drills.MaxFileBytes))
			return
		}
		s.fail(w, p, http.StatusBadRequest, p.T("web.err.form", err))
		return
	}
	p := s.newPage(r)
	p.Switch = ""
	src := strings.ReplaceAll(r.PostForm.Get("source"), "\r\n", "\n")
	p.Source = src
	p.Pasted = true
	if strings.TrimSpace(src) == "" {
		s.fail(w, p, http.StatusBadRequest, p.T("web.err.empty"))
		return
	}
	run, err := s.runPasted(r.Context(), p.Lang, []byte(src))
	if status, msg, ok := s.runError(p, err); ok {
		s.fail(w, p, status, msg)
		return
	}
	if err != nil {
		s.fail(w, p, http.StatusBadRequest, drills.ErrorText(p.Lang, err))
		return
	}
	p.Run = run
	p.Title = run.Name + " — archlab"
	s.render(w, http.StatusOK, "drill.html", p)
}

// runPasted parses, runs and lays out a pasted drill file. The drill owns
// its words, so a file that takes a built-in drill's name (archlab drill
// ack-lost --source, edited) shows its own words and leaves the
// built-in's alone. An unchanged copy of a built-in file is that drill,
// compared with the book, as with --file.
func (s *Server) runPasted(ctx context.Context, lang i18n.Lang, src []byte) (*run, error) {
	d, err := drills.ParseBudget("pasted.txtar", src, s.budget)
	if err != nil {
		return nil, err
	}
	if b, lerr := drills.Lookup(d.Name); lerr == nil {
		if orig, serr := drills.Source(b); serr == nil && bytes.Equal(orig, src) {
			d = b
		}
	}
	res, err := s.runDrill(ctx, d, d.Defaults())
	if err != nil {
		return nil, err
	}
	return s.layout(lang, res, nil), nil
}

// report explores a mechanism's default scope once; the result does not
// change, so later requests read it back.
func (s *Server) report(ctx context.Context, mech string) (*explore.Report, error) {
	s.exploreMu.Lock()
	defer s.exploreMu.Unlock()
	if rep, ok := s.explored[mech]; ok {
		return rep, nil
	}
	sec, ok := harness.SectionByName(mech)
	m, explored := explore.Mechanisms[sec]
	if !ok || sec.Harness != mech || !explored { // a page names a section by its harness
		return nil, errUnknownMechanism
	}
	rep, err := m.Explore(ctx, explore.Options{})
	if err != nil {
		return nil, err
	}
	s.explored[mech] = rep
	return rep, nil
}

var errUnknownMechanism = errors.New("unknown mechanism")

func (s *Server) explore(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	mech := r.PathValue("mechanism")
	rep, err := s.report(r.Context(), mech)
	if err != nil {
		s.exploreError(w, p, mech, err)
		return
	}
	sec := rep.Sec

	legend := i18n.T(p.Lang, "explore.legend."+mech)
	if len(rep.Legend) > 0 {
		legend = i18n.T(p.Lang, "explore.legend.messages", strings.Join(rep.Legend, " ")) + "\n" + legend
	}
	p.Explore = &exploreView{
		Mechanism: mech, Section: p.T(sec.TitleKey()),
		Scope:      p.T("explore.header.exhaustive", view.GroupDigits(rep.Schedules), view.ScopeFlags(rep.Scope)),
		Strategies: view.Strategies(p.Lang, rep),
		Legend:     legend,
	}
	p.Title = "explore " + mech + " — archlab"
	s.render(w, http.StatusOK, "explore.html", p)
}

func (s *Server) exploreError(w http.ResponseWriter, p *page, mech string, err error) {
	if errors.Is(err, errUnknownMechanism) {
		s.fail(w, p, http.StatusNotFound, p.T("explore.err.unknown", mech, strings.Join(Mechanisms, ", ")))
		return
	}
	s.fail(w, p, http.StatusServiceUnavailable, err.Error())
}

// counterexample replays a strategy's shortest counterexample through the
// harness and shows it as a step-through, like a drill.
func (s *Server) counterexample(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(r)
	mech, name := r.PathValue("mechanism"), r.PathValue("strategy")
	rep, err := s.report(r.Context(), mech)
	if err != nil {
		s.exploreError(w, p, mech, err)
		return
	}
	i := slices.IndexFunc(rep.Strategies, func(st explore.Strategy) bool { return st.Name == name })
	if i < 0 || rep.Strategies[i].Shortest == nil {
		s.fail(w, p, http.StatusNotFound, p.T("web.err.no-counterexample", mech, name))
		return
	}
	c := rep.Strategies[i].Shortest
	steps, err := c.Trace()
	if err != nil {
		s.fail(w, p, http.StatusInternalServerError, err.Error())
		return
	}
	sec := rep.Sec
	rows := view.Rows(p.Lang, steps)
	p.Run = &run{
		Name: "explore " + mech + " " + name, Title: c.Line(p.Lang), Section: p.T(sec.TitleKey()),
		Rows: rows, SVG: SVG(view.DiagramOf(rows)),
		Verdict: view.Verdict{Word: "✗", Text: p.T("web.explore.broken", name, brokenText(p, c))},
	}
	s.counterexampleBranches(r, p, mech, name, len(rows))
	p.Title = "explore " + mech + " " + name + " — archlab"
	s.render(w, http.StatusOK, "drill.html", p)
}
