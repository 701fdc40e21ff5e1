package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"archlab/drills"
	"archlab/explore"
	"archlab/i18n"
	"archlab/ui/view"
)

// render prints a report for people: where it is in the book, the scope,
// the strategy table, the section's own table or chart, a verdict line and,
// with --show, each shortest counterexample as a drill trace.
func (o *exploreOptions) render(rep *exploreReport) error {
	g := o.g
	r := &renderer{g: g, p: newPalette(g.colour())}
	out := g.io.Out
	s, _ := drills.SectionByID(rep.Section)
	w := g.width()
	for _, l := range wrapText(g.t(s.TitleKey()), w) {
		fmt.Fprintln(out, r.p.dim.Sprint(l))
	}
	var scope string
	if rep.Sampled {
		scope = g.t("explore.header.sampled", groupDigits(rep.Schedules), groupDigits(rep.Space), rep.scopeLine(), rep.Seed)
	} else {
		scope = g.t("explore.header.exhaustive", groupDigits(rep.Schedules), rep.scopeLine())
	}
	name := "explore " + rep.Mechanism
	writeHanging(out, r.p.bold.Sprint(name)+" — ", strings.Repeat(" ", len(name)+3), scope, w)
	if rep.Sampled {
		rerun, _, _ := strings.Cut(g.t("explore.rerun", "\x00"), "\x00")
		writeCommand(out, rerun, strings.Repeat(" ", displayWidth(rerun)+2), rep.rerun(), w)
		// Counts of a sample are of draws, not of distinct schedules: say
		// so, above all when the sample is larger than the scope.
		for _, l := range wrapText(g.t("explore.note.replacement", groupDigits(rep.Space)), w) {
			fmt.Fprintln(out, r.p.dim.Sprint(l))
		}
	}
	if len(rep.Legend) > 0 {
		writeHanging(out, "", "  ", g.t("explore.legend.messages", strings.Join(rep.Legend, " ")), w)
	}
	fmt.Fprintln(out)
	if err := o.strategyTable(r, rep); err != nil {
		return err
	}
	// What the fault and invariant names in the table mean, then the
	// shortest counterexamples, below the table so that it stays narrow.
	for _, l := range legendLines(g.t("explore.legend."+rep.Mechanism), w) {
		fmt.Fprintln(out, r.p.dim.Sprint(l))
	}
	o.counterexamples(r, rep)
	switch {
	case len(rep.Budgets) > 0:
		fmt.Fprintln(out)
		for _, l := range wrapText(g.t("explore.budget.title"), w) {
			fmt.Fprintln(out, l)
		}
		if err := o.budgetTable(r, rep); err != nil {
			return err
		}
	case len(rep.Replay) > 0:
		fmt.Fprintln(out)
		o.replayChart(r, rep)
	}
	word, rest, _ := strings.Cut(o.summary(r, rep), "  ")
	writeHanging(out, word+"  ", "      ", rest, w)
	if o.show {
		return o.traces(r, rep)
	}
	return nil
}

// strategyTable is strategy | schedules | violations | verdict, one row
// per strategy in the book's order, as ui/view renders them.
func (o *exploreOptions) strategyTable(r *renderer, rep *exploreReport) error {
	g := o.g
	header := []any{g.t("explore.col.strategy"), g.t("explore.col.schedules"), g.t("explore.col.violations"),
		g.t("explore.col.verdict")}
	var rows [][]string
	for _, s := range view.Strategies(g.lang, (*explore.Report)(rep)) {
		// The mark is the design's: a strategy the book calls unsafe gets
		// a red ✗ even though finding it so is what the lab expects.
		mark := r.p.good.Sprint(s.Mark)
		if s.Mark != "✓" {
			mark = r.p.bad.Sprint(s.Mark)
		}
		rows = append(rows, []string{s.Name, groupDigits(s.Schedules), strings.Join(s.Violations, "\n"), mark + " " + s.Verdict})
	}
	// The verdict wraps so the table fits a projector.
	return r.table(header, rows, true)
}

// counterexamples lists each strategy's shortest counterexample in one
// line, wrapped under its name.
func (o *exploreOptions) counterexamples(r *renderer, rep *exploreReport) {
	g := o.g
	any := false
	for _, s := range rep.Strategies {
		if s.Shortest == nil {
			continue
		}
		if !any {
			fmt.Fprintln(g.io.Out)
			fmt.Fprintln(g.io.Out, g.t("explore.col.shortest"))
			any = true
		}
		writeHanging(g.io.Out, "  "+r.p.bold.Sprint(s.Name)+": ", "      ", s.Shortest.Line(g.lang), g.width())
	}
}

// legendLines lays out a legend's "name: meaning · name: meaning" items
// in lines of at most width columns: packed to leave room for the indent a
// too-long item wraps with, so that a packed line never wraps.
func legendLines(legend string, width int) []string {
	var items []string
	for _, l := range strings.Split(legend, "\n") {
		items = append(items, strings.Split(l, " · ")...)
	}
	var out []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case displayWidth(line)+3+displayWidth(it) <= width-2:
			line += " · " + it
		default:
			out = append(out, line)
			line = it
		}
	}
	out = append(out, line)
	var wrapped []string
	for _, l := range out {
		for i, wl := range wrapText(l, width-2) {
			if i > 0 {
				wl = "  " + wl
			}
			wrapped = append(wrapped, wl)
		}
	}
	return wrapped
}

// budgetTable is §8.3's lesson about retry budgets: per budget, the orders
// that converge by retry alone and the ones that need the DLQ and
// reconciliation, with what retrying costs in deliveries.
func (o *exploreOptions) budgetTable(r *renderer, rep *exploreReport) error {
	g := o.g
	header := []any{g.t("explore.col.max-attempts"), g.t("explore.col.schedules"), g.t("explore.col.by-retry"),
		g.t("explore.col.reconciled"), g.t("explore.col.deliveries")}
	var rows [][]string
	for _, b := range rep.Budgets {
		mean := "—"
		if b.Schedules > 0 {
			mean = fmt.Sprintf("%.2f", float64(b.Deliveries)/float64(b.Schedules))
		}
		rows = append(rows, []string{fmt.Sprint(b.MaxAttempts), groupDigits(b.Schedules), groupDigits(b.ByRetry),
			groupDigits(b.Reconciled), mean})
	}
	return r.table(header, rows, false)
}

// chartWidth is the longest bar of the replay chart, in cells.
const chartWidth = 20

// replayChart draws §11.2's trade-off: the commits a clean run makes
// against the items a rerun replays, per commit interval. At most about 30
// intervals are drawn, evenly spaced, the first and the last always.
func (o *exploreOptions) replayChart(r *renderer, rep *exploreReport) {
	g := o.g
	out := g.io.Out
	points := rep.Replay
	maxCommits, maxReplay := 1, 1.0
	for _, p := range points {
		maxCommits = max(maxCommits, p.Commits)
		if p.Crashes > 0 {
			maxReplay = max(maxReplay, float64(p.ReplaySum)/float64(p.Crashes))
		}
	}
	for _, l := range wrapText(g.t("explore.chart.title"), g.width()) {
		fmt.Fprintln(out, l)
	}
	colC, colCommits, colReplay := g.t("explore.chart.col.interval"), g.t("explore.chart.col.commits"), g.t("explore.chart.col.replay")
	wC := max(displayWidth(colC), len(fmt.Sprint(len(points))))
	step := max(1, (len(points)+29)/30)
	// The bars shrink until every line fits the width.
	var lines []string
	for barW := chartWidth; barW >= 4; barW-- {
		wCommits := max(displayWidth(colCommits), barW+1+len(fmt.Sprint(maxCommits)))
		lines = []string{fmt.Sprintf("%s  %s  %s", padLeft(colC, wC), padRight(colCommits, wCommits), colReplay)}
		for i, p := range points {
			if i%step != 0 && i != len(points)-1 {
				continue
			}
			commits := "—"
			if p.Commits >= 0 {
				commits = bar(float64(p.Commits), float64(maxCommits), barW) + " " + fmt.Sprint(p.Commits)
			}
			replay := "—"
			if p.Crashes > 0 {
				mean := float64(p.ReplaySum) / float64(p.Crashes)
				replay = bar(mean, maxReplay, barW) + " " + g.t("explore.chart.replay", mean, p.ReplayMax)
			}
			lines = append(lines, fmt.Sprintf("%s  %s  %s", padLeft(fmt.Sprint(p.CommitEvery), wC), padRight(commits, wCommits), replay))
		}
		if fits(strings.Join(lines[1:], "\n"), g.width()) {
			break
		}
	}
	if !fits(lines[0], g.width()) {
		// Too narrow for the column titles: name the columns first.
		for _, l := range legendLines(strings.Join([]string{colC, colCommits, colReplay}, " · "), g.width()) {
			fmt.Fprintln(out, l)
		}
		lines = lines[1:]
	}
	for _, l := range lines {
		fmt.Fprintln(out, l)
	}
}

// bar draws v out of full in at most cells cells, with eighths, and at
// least a sliver for any v above zero.
func bar(v, full float64, cells int) string {
	eighths := int(v/full*float64(cells)*8 + 0.5)
	if v > 0 && eighths == 0 {
		eighths = 1
	}
	s := strings.Repeat("█", eighths/8)
	if rest := eighths % 8; rest > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[rest-1])
	}
	return s
}

func padLeft(s string, w int) string  { return strings.Repeat(" ", max(0, w-displayWidth(s))) + s }
func padRight(s string, w int) string { return s + strings.Repeat(" ", max(0, w-displayWidth(s))) }

// summary is the last line: PASS when every verdict is the book's.
func (o *exploreOptions) summary(r *renderer, rep *exploreReport) string {
	wrong := 0
	for _, s := range rep.Strategies {
		if s.Verdict != explore.AsTheBook {
			wrong++
		}
	}
	if wrong == 0 {
		key := "explore.summary.pass"
		if own := key + "." + rep.Mechanism; i18n.Has(o.g.lang, own) {
			key = own
		}
		return r.p.good.Sprint("PASS") + "  " + o.g.t(key, len(rep.Strategies))
	}
	return r.p.bad.Sprint("FAIL") + "  " + o.g.t("explore.summary.fail", wrong, len(rep.Strategies))
}

// traces prints each strategy's shortest counterexample (or only the
// STRATEGY argument's) again, run step by step through the section's
// harness, with the drills' trace renderer.
func (o *exploreOptions) traces(r *renderer, rep *exploreReport) error {
	g := o.g
	if _, err := o.picked(rep); err != nil {
		return err
	}
	for _, s := range rep.Strategies {
		ce := s.Shortest
		if ce == nil || (o.strategy != "" && s.Name != o.strategy) {
			continue
		}
		steps, err := ce.Trace()
		if err != nil {
			return err
		}
		fmt.Fprintln(g.io.Out)
		writeHanging(g.io.Out, r.p.bold.Sprint(s.Name)+" — ", strings.Repeat(" ", len(s.Name)+3),
			g.t("explore.show.title", ce.Index+1, strings.Join(ce.Broken, ", ")), g.width())
		writeHanging(g.io.Out, "", "  ", ce.Line(g.lang), g.width())
		fmt.Fprintln(g.io.Out)
		if err := r.trace(steps); err != nil {
			return err
		}
	}
	return nil
}

// picked is the counterexamples --show and --emit print: every unsafe
// strategy's, or the STRATEGY argument's. A STRATEGY with no counterexample
// in the scope is an error naming the ones that have one.
func (o *exploreOptions) picked(rep *exploreReport) ([]*explore.Counterexample, error) {
	var out []*explore.Counterexample
	var unsafe []string
	for _, s := range rep.Strategies {
		if s.Shortest == nil {
			continue
		}
		unsafe = append(unsafe, s.Name)
		if o.strategy == "" || s.Name == o.strategy {
			out = append(out, s.Shortest)
		}
	}
	if o.strategy != "" && len(out) == 0 {
		e := &usageError{Msg: o.g.t("explore.err.no-counterexample", o.strategy)}
		if len(unsafe) > 0 {
			e.Hint = o.g.t("explore.err.Hint.unsafe", strings.Join(unsafe, ", "))
		}
		return nil, e
	}
	return out, nil
}

// emitFiles prints the picked counterexamples as drill files, and nothing
// else, so that `archlab explore inbox naive --emit > naive.txtar` saves a
// file `archlab drill --file` replays. Several files are separated by a
// blank line.
func (o *exploreOptions) emitFiles(rep *exploreReport) error {
	ces, err := o.picked(rep)
	if err != nil {
		return err
	}
	for i, ce := range ces {
		text, err := ce.Emit(o.g.lang)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(o.g.io.Out)
		}
		fmt.Fprint(o.g.io.Out, text)
	}
	return nil
}

// jsonExplore is `archlab explore --json`; docs/explore.md documents it.
type jsonExplore struct {
	Mechanism   string          `json:"mechanism"`
	Section     string          `json:"section"`
	Mode        string          `json:"mode"`   // "exhaustive" or "random"
	Engine      explore.Engine  `json:"engine"` // "states" or "enumerate"
	Seed        *uint64         `json:"seed"`   // null when exhaustive
	Scope       orderedInts     `json:"scope"`
	Space       uint64          `json:"space"`     // schedules in the whole scope
	Schedules   uint64          `json:"schedules"` // schedules run per strategy
	Messages    []string        `json:"messages,omitempty"`
	Strategies  []jsonStrategy  `json:"strategies"`
	RetryBudget []jsonBudget    `json:"retry_budget,omitempty"`
	ReplayCost  []jsonReplayPos `json:"replay_cost,omitempty"`
	Pass        bool            `json:"pass"`
}

type jsonStrategy struct {
	Name       string              `json:"name"`
	Book       string              `json:"book"` // "safe" or "unsafe"
	Schedules  uint64              `json:"schedules"`
	Violations orderedInts         `json:"violations"` // invariant -> schedules that break it
	Broken     uint64              `json:"broken"`     // schedules that break at least one
	Verdict    explore.Verdict     `json:"verdict"`
	Shortest   *jsonCounterexample `json:"shortest"` // null when nothing broke
}

type jsonCounterexample struct {
	Index    uint64   `json:"index"` // 1-based position in the enumeration or sample
	Length   int      `json:"length"`
	Schedule string   `json:"schedule"`
	Broken   []string `json:"broken"`
}

type jsonBudget struct {
	MaxAttempts int    `json:"max_attempts"`
	Schedules   uint64 `json:"schedules"`
	ByRetry     uint64 `json:"by_retry"`
	Reconciled  uint64 `json:"reconciled"`
	Deliveries  uint64 `json:"deliveries"`
}

type jsonReplayPos struct {
	CommitEvery int    `json:"commit_every"`
	Commits     *int   `json:"commits"` // null when a sample missed the clean run
	Crashes     uint64 `json:"crashes"`
	ReplaySum   uint64 `json:"replay_sum"`
	ReplayMax   int    `json:"replay_max"`
}

// orderedInts is a JSON object whose keys keep the report's order (the
// book's order of invariants), which a Go map would sort.
type orderedInts []namedInt

type namedInt struct {
	Name  string
	Value uint64
}

func (o orderedInts) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(kv.Name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s:%d", k, kv.Value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (r *exploreReport) json(g *globalOptions) jsonExplore {
	j := jsonExplore{Mechanism: r.Mechanism, Section: r.Section, Mode: "exhaustive", Engine: r.Engine, Space: r.Space,
		Schedules: r.Schedules, Messages: r.Legend, Pass: (*explore.Report)(r).Pass(), Strategies: []jsonStrategy{}}
	if r.Sampled {
		seed := r.Seed
		j.Mode, j.Seed = "random", &seed
	}
	for _, p := range r.Scope {
		j.Scope = append(j.Scope, namedInt{p.Name, uint64(p.Value)})
	}
	for _, s := range r.Strategies {
		js := jsonStrategy{Name: s.Name, Book: "unsafe", Schedules: s.Schedules, Broken: s.Broken, Verdict: s.Verdict}
		if s.Safe {
			js.Book = "safe"
		}
		for _, v := range s.Violations {
			js.Violations = append(js.Violations, namedInt{v.Name, v.N})
		}
		if ce := s.Shortest; ce != nil {
			js.Shortest = &jsonCounterexample{Index: ce.Index + 1, Length: ce.Length, Schedule: ce.Line(g.lang), Broken: ce.Broken}
		}
		j.Strategies = append(j.Strategies, js)
	}
	for _, b := range r.Budgets {
		j.RetryBudget = append(j.RetryBudget, jsonBudget(b))
	}
	for _, p := range r.Replay {
		jp := jsonReplayPos{CommitEvery: p.CommitEvery, Crashes: p.Crashes, ReplaySum: p.ReplaySum, ReplayMax: p.ReplayMax}
		if p.Commits >= 0 {
			c := p.Commits
			jp.Commits = &c
		}
		j.ReplayCost = append(j.ReplayCost, jp)
	}
	return j
}
