package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
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

//go:embed assets templates
var embedded embed.FS

// MaxBodyBytes bounds a request body: a pasted drill file (at most
// drills.MaxFileBytes) form-encoded, which can triple its size, plus the
// other fields.
const MaxBodyBytes = 3*drills.MaxFileBytes + 4096

// Mechanisms are the explorer's scopes, in book order.
var Mechanisms = []string{"inbox", "ordering", "shardjob"}

// Server serves the pages. The zero value is not usable; call New.
type Server struct {
	lang  i18n.Lang // when a request names none
	tmpl  *template.Template
	mux   *http.ServeMux
	runMu sync.Mutex // one run at a time: runs take milliseconds, and the catalogue's overlay is shared

	exploreMu sync.Mutex
	explored  map[string]*explore.Report // the default scopes, explored once

	states stateCache // the state pages' starts (state.go)
}

// New returns a server whose pages speak lang unless a request asks for
// another language (?lang=zh).
func New(lang i18n.Lang) *Server {
	s := &Server{lang: lang, mux: http.NewServeMux(), explored: map[string]*explore.Report{}}
	s.tmpl = template.Must(template.New("").Funcs(template.FuncMap{
		"join":  strings.Join,
		"deref": func(b *bool) bool { return b != nil && *b },
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
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
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
	MaxBytes int
	// StateView is a state page (state.go).
	StateView *stateView
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
	Max           int // 0: none
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
	p := &page{Lang: lang, T: func(key string, args ...any) string { return i18n.T(lang, key, args...) }, MaxBytes: drills.MaxFileBytes}
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
	for _, sec := range drills.Sections {
		list, _ := drills.InSection(sec.ID)
		x := section{ID: sec.ID, Title: i18n.T(lang, sec.TitleKey())}
		for _, d := range list {
			x.Drills = append(x.Drills, drillLink{Name: d.Name, Title: i18n.T(lang, d.TitleKey()), Lab: d.LabOnly})
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
		params[i] = param{Name: dp.Name, Usage: p.T(dp.UsageKey(d.Name)), Value: strconv.Itoa(dp.Default), Default: dp.Default, Min: dp.Min, Max: dp.Max}
		raw := strings.TrimSpace(r.URL.Query().Get(dp.Name))
		if raw == "" {
			continue
		}
		params[i].Value = raw
		n, err := strconv.Atoi(raw)
		if err != nil {
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
		s.drillError(w, p, d, params, bad)
		return
	}
	res, err := s.runDrill(d, values)
	if err != nil {
		s.drillError(w, p, d, params, s.paramError(p, err, params))
		return
	}
	p.Run = s.layout(p.Lang, res, params)
	p.Run.Action = "/drill/" + d.Name
	s.drillBranches(p, d, values, res)
	p.Title = d.Name + " — archlab"
	s.render(w, http.StatusOK, "drill.html", p)
}

// drillError shows the drill's page with its form and the message, and no
// run: a bad value is the reader's to fix, never a server error.
func (s *Server) drillError(w http.ResponseWriter, p *page, d *drills.Drill, params []param, msg string) {
	sec, _ := drills.SectionByID(d.Section)
	p.Error = msg
	p.Title = d.Name + " — archlab"
	p.Run = &run{Name: d.Name, Title: p.T(d.TitleKey()), Section: p.T(sec.TitleKey()), Params: params, Action: "/drill/" + d.Name, Explain: p.T("explain." + d.Name)}
	s.render(w, http.StatusBadRequest, "drill.html", p)
}

// paramError says in the reader's language which value is out of range,
// and marks its field.
func (s *Server) paramError(p *page, err error, params []param) string {
	var pe *drills.ParamError
	if !errors.As(err, &pe) {
		return err.Error()
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
		msg = p.T("err.param.why", msg, p.T(pe.Why, pe.Max))
	}
	return msg
}

// runDrill runs d in the book's in-memory environment: the zero
// harness.Env, never a database file, a consumer process or student code.
func (s *Server) runDrill(d *drills.Drill, v drills.Values) (*drills.Result, error) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	return d.RunIn(v, harness.Env{})
}

// layout turns a run into the page's parts, all from package view.
func (s *Server) layout(lang i18n.Lang, res *drills.Result, params []param) *run {
	d := res.Drill
	sec, _ := drills.SectionByID(d.Section)
	rows := view.Rows(lang, res.Steps)
	return &run{
		Name: d.Name, Title: i18n.T(lang, d.TitleKey()), Section: i18n.T(lang, sec.TitleKey()),
		WhatIf:  view.WhatIf(lang, res),
		Params:  params,
		Rows:    rows,
		SVG:     SVG(view.DiagramOf(rows)),
		Table:   view.Counters(lang, res),
		Checks:  view.Checks(lang, res),
		Verdict: view.VerdictOf(lang, res),
		Explain: i18n.T(lang, "explain."+d.Name),
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
	run, err := s.runPasted(p.Lang, []byte(src))
	if err != nil {
		s.fail(w, p, http.StatusBadRequest, err.Error())
		return
	}
	p.Run = run
	p.Title = run.Name + " — archlab"
	s.render(w, http.StatusOK, "drill.html", p)
}

// runPasted parses, runs and lays out a pasted drill file. A file
// registers its words in the shared catalogue when it is parsed; one that
// takes a built-in drill's name (archlab drill ack-lost --source, edited)
// would leave its words on the built-in's page, so the built-in's words
// are put back once the page's texts are taken. An unchanged copy of a
// built-in file is that drill, compared with the book, as with --file.
func (s *Server) runPasted(lang i18n.Lang, src []byte) (*run, error) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	d, err := drills.Parse("pasted.txtar", src)
	if b, lerr := drills.Lookup(nameOf(d)); lerr == nil {
		if orig, serr := drills.Source(b); serr == nil {
			defer drills.Parse(b.Path, orig) // restores b's words
			if bytes.Equal(orig, src) {
				d, err = b, nil
			}
		}
	}
	if err != nil {
		return nil, err
	}
	res, err := d.RunIn(d.Defaults(), harness.Env{})
	if err != nil {
		return nil, err
	}
	return s.layout(lang, res, nil), nil
}

func nameOf(d *drills.Drill) string {
	if d == nil {
		return ""
	}
	return d.Name
}

// report explores a mechanism's default scope once; the result does not
// change, so later requests read it back.
func (s *Server) report(ctx context.Context, mech string) (*explore.Report, error) {
	s.exploreMu.Lock()
	defer s.exploreMu.Unlock()
	if rep, ok := s.explored[mech]; ok {
		return rep, nil
	}
	var rep *explore.Report
	var err error
	switch mech {
	case "inbox":
		rep, err = explore.Inbox(ctx, explore.DefaultInbox, explore.Options{})
	case "ordering":
		rep, err = explore.Ordering(ctx, explore.DefaultOrdering, explore.Options{})
	case "shardjob":
		rep, err = explore.Shardjob(ctx, explore.DefaultShardjob, explore.Options{})
	default:
		return nil, errUnknownMechanism
	}
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
	sec, _ := drills.SectionByID(rep.Section)
	var scope []string
	for _, sp := range rep.Scope {
		scope = append(scope, fmt.Sprintf("--%s %d", sp.Name, sp.Value))
	}
	legend := i18n.T(p.Lang, "explore.legend."+mech)
	if len(rep.Legend) > 0 {
		legend = i18n.T(p.Lang, "explore.legend.messages", strings.Join(rep.Legend, " ")) + "\n" + legend
	}
	p.Explore = &exploreView{
		Mechanism: mech, Section: p.T(sec.TitleKey()),
		Scope:      p.T("explore.header.exhaustive", strconv.FormatUint(rep.Schedules, 10), strings.Join(scope, " ")),
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
	s.runMu.Lock()
	steps, err := c.Trace()
	s.runMu.Unlock()
	if err != nil {
		s.fail(w, p, http.StatusInternalServerError, err.Error())
		return
	}
	sec, _ := drills.SectionByID(rep.Section)
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
