package term

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"archlab/explore"
	"archlab/i18n"
	"archlab/ui/view"
)

// Explore prints a report for people: where it is in the book, the scope,
// the strategy table, the section's own table or chart and a verdict line.
// With --show, ExploreTraces follows.
func (r *Renderer) Explore(rep *explore.Report) error {
	out := r.Out
	s := rep.Sec
	w := r.Width
	for _, l := range WrapText(r.t(s.TitleKey()), w) {
		fmt.Fprintln(out, r.P.Dim.Sprint(l))
	}
	var scope string
	if rep.Sampled {
		scope = r.t("explore.header.sampled", GroupDigits(rep.Schedules), GroupDigits(rep.Space), scopeLine(rep), rep.Seed)
	} else {
		scope = r.t("explore.header.exhaustive", GroupDigits(rep.Schedules), scopeLine(rep))
	}
	name := "explore " + rep.Mechanism
	WriteHanging(out, r.P.Bold.Sprint(name)+" — ", strings.Repeat(" ", len(name)+3), scope, w)
	if rep.Sampled {
		again, _, _ := strings.Cut(r.t("explore.rerun", "\x00"), "\x00")
		WriteCommand(out, again, strings.Repeat(" ", DisplayWidth(again)+2), rerun(rep), w)
		// Counts of a sample are of draws, not of distinct schedules: say
		// so, above all when the sample is larger than the scope.
		for _, l := range WrapText(r.t("explore.note.replacement", GroupDigits(rep.Space)), w) {
			fmt.Fprintln(out, r.P.Dim.Sprint(l))
		}
	}
	if len(rep.Legend) > 0 {
		WriteHanging(out, "", "  ", r.t("explore.legend.messages", strings.Join(rep.Legend, " ")), w)
	}
	fmt.Fprintln(out)
	if err := r.strategyTable(rep); err != nil {
		return err
	}
	// What the fault and invariant names in the table mean, then the
	// shortest counterexamples, below the table so that it stays narrow.
	for _, l := range legendLines(r.t("explore.legend."+rep.Mechanism), w) {
		fmt.Fprintln(out, r.P.Dim.Sprint(l))
	}
	r.counterexamples(rep)
	r.outsideCalls(rep)
	switch {
	case len(rep.Budgets) > 0:
		fmt.Fprintln(out)
		for _, l := range WrapText(r.t("explore.budget.title"), w) {
			fmt.Fprintln(out, l)
		}
		if err := r.budgetTable(rep); err != nil {
			return err
		}
	case len(rep.Replay) > 0:
		fmt.Fprintln(out)
		r.replayChart(rep)
	}
	word, rest, _ := strings.Cut(r.summary(rep), "  ")
	WriteHanging(out, word+"  ", "      ", rest, w)
	return nil
}

// strategyTable is strategy | schedules | violations | verdict, one row
// per strategy in the book's order, as ui/view renders them.
func (r *Renderer) strategyTable(rep *explore.Report) error {
	header := []any{r.t("explore.col.strategy"), r.t("explore.col.schedules"), r.t("explore.col.violations"),
		r.t("explore.col.verdict")}
	var rows [][]string
	for _, s := range view.Strategies(r.Lang, rep) {
		// The mark is the design's: a strategy the book calls unsafe gets
		// a red ✗ even though finding it so is what the lab expects.
		mark := r.P.Good.Sprint(s.Mark)
		if s.Mark != "✓" {
			mark = r.P.Bad.Sprint(s.Mark)
		}
		rows = append(rows, []string{s.Name, GroupDigits(s.Schedules), strings.Join(s.Violations, "\n"), mark + " " + s.Verdict})
	}
	// The verdict wraps so the table Fits a projector.
	return r.Table(header, rows, true)
}

// counterexamples lists each strategy's shortest counterexample in one
// line, wrapped under its name.
// outsideCalls is, with --notify, what became of m1's call outside the
// store under each strategy: made twice or more, never. It is no verdict:
// no transaction covers the call, so every strategy repeats it, the book's
// safe one too; that is the lesson, the real boundary of exactly-once.
func (r *Renderer) outsideCalls(rep *explore.Report) {
	pad, any := 0, false
	for _, s := range rep.Strategies {
		pad = max(pad, len(s.Name))
		any = any || s.Outside != nil
	}
	if !any {
		return
	}
	w := r.Width
	fmt.Fprintln(r.Out)
	for _, l := range WrapText(r.t("explore.outside.head"), w) {
		fmt.Fprintln(r.Out, l)
	}
	for _, s := range rep.Strategies {
		if s.Outside == nil {
			continue
		}
		head := fmt.Sprintf("  %-*s  ", pad, s.Name)
		text := r.t("explore.outside.row", GroupDigits(s.Outside.Repeated), GroupDigits(s.Outside.Never))
		if len(head)+16 > w { // a narrow screen: the counts under the name
			fmt.Fprintln(r.Out, "  "+s.Name)
			WriteHanging(r.Out, "      ", "      ", text, w)
			continue
		}
		WriteHanging(r.Out, head, strings.Repeat(" ", len(head)), text, w)
	}
	for _, l := range WrapText(r.t("explore.outside.lesson"), w) {
		fmt.Fprintln(r.Out, r.P.Dim.Sprint(l))
	}
}

func (r *Renderer) counterexamples(rep *explore.Report) {
	any := false
	for _, s := range rep.Strategies {
		if s.Shortest == nil {
			continue
		}
		if !any {
			fmt.Fprintln(r.Out)
			fmt.Fprintln(r.Out, r.t("explore.col.shortest"))
			any = true
		}
		WriteHanging(r.Out, "  "+r.P.Bold.Sprint(s.Name)+": ", "      ", s.Shortest.Line(r.Lang), r.Width)
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
		case DisplayWidth(line)+3+DisplayWidth(it) <= width-2:
			line += " · " + it
		default:
			out = append(out, line)
			line = it
		}
	}
	out = append(out, line)
	var wrapped []string
	for _, l := range out {
		for i, wl := range WrapText(l, width-2) {
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
func (r *Renderer) budgetTable(rep *explore.Report) error {
	header := []any{r.t("explore.col.max-attempts"), r.t("explore.col.schedules"), r.t("explore.col.by-retry"),
		r.t("explore.col.reconciled"), r.t("explore.col.deliveries")}
	var rows [][]string
	for _, b := range rep.Budgets {
		mean := "—"
		if b.Schedules > 0 {
			mean = fmt.Sprintf("%.2f", float64(b.Deliveries)/float64(b.Schedules))
		}
		rows = append(rows, []string{fmt.Sprint(b.MaxAttempts), GroupDigits(b.Schedules), GroupDigits(b.ByRetry),
			GroupDigits(b.Reconciled), mean})
	}
	return r.Table(header, rows, false)
}

// chartWidth is the longest bar of the replay chart, in cells.
const chartWidth = 20

// replayChart draws §11.2's trade-off: the commits a clean run makes
// against the items a rerun replays, per commit interval. At most about 30
// intervals are drawn, evenly spaced, the first and the last always.
func (r *Renderer) replayChart(rep *explore.Report) {
	out := r.Out
	points := rep.Replay
	maxCommits, maxReplay := 1, 1.0
	for _, p := range points {
		maxCommits = max(maxCommits, p.Commits)
		if p.Crashes > 0 {
			maxReplay = max(maxReplay, float64(p.ReplaySum)/float64(p.Crashes))
		}
	}
	for _, l := range WrapText(r.t("explore.chart.title"), r.Width) {
		fmt.Fprintln(out, l)
	}
	colC, colCommits, colReplay := r.t("explore.chart.col.interval"), r.t("explore.chart.col.commits"), r.t("explore.chart.col.replay")
	wC := max(DisplayWidth(colC), len(fmt.Sprint(len(points))))
	step := max(1, (len(points)+29)/30)
	// The bars shrink until every line Fits the width.
	var lines []string
	for barW := chartWidth; barW >= 4; barW-- {
		wCommits := max(DisplayWidth(colCommits), barW+1+len(fmt.Sprint(maxCommits)))
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
				replay = bar(mean, maxReplay, barW) + " " + r.t("explore.chart.replay", mean, p.ReplayMax)
			}
			lines = append(lines, fmt.Sprintf("%s  %s  %s", padLeft(fmt.Sprint(p.CommitEvery), wC), padRight(commits, wCommits), replay))
		}
		if Fits(strings.Join(lines[1:], "\n"), r.Width) {
			break
		}
	}
	if !Fits(lines[0], r.Width) {
		// Too narrow for the column titles: name the columns first.
		for _, l := range legendLines(strings.Join([]string{colC, colCommits, colReplay}, " · "), r.Width) {
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

func padLeft(s string, w int) string  { return strings.Repeat(" ", max(0, w-DisplayWidth(s))) + s }
func padRight(s string, w int) string { return s + strings.Repeat(" ", max(0, w-DisplayWidth(s))) }

// Summary is the last line: PASS when every verdict is the book's.
func (r *Renderer) summary(rep *explore.Report) string {
	wrong := 0
	for _, s := range rep.Strategies {
		if s.Verdict != explore.AsTheBook {
			wrong++
		}
	}
	if wrong == 0 {
		key := "explore.summary.pass"
		if own := key + "." + rep.Mechanism; i18n.Has(r.Lang, own) {
			key = own
		}
		return r.P.Good.Sprint("PASS") + "  " + r.t(key, len(rep.Strategies))
	}
	return r.P.Bad.Sprint("FAIL") + "  " + r.t("explore.summary.fail", wrong, len(rep.Strategies))
}

// ExploreTraces prints each strategy's shortest counterexample (or only the
// STRATEGY argument's) again, run step by step through the section's
// harness, with the drills' trace renderer.
func (r *Renderer) ExploreTraces(rep *explore.Report, strategy string) error {
	for _, s := range rep.Strategies {
		ce := s.Shortest
		if ce == nil || (strategy != "" && s.Name != strategy) {
			continue
		}
		steps, err := ce.Trace()
		if err != nil {
			return err
		}
		fmt.Fprintln(r.Out)
		WriteHanging(r.Out, r.P.Bold.Sprint(s.Name)+" — ", strings.Repeat(" ", len(s.Name)+3),
			r.t("explore.show.title", ce.Index+1, strings.Join(ce.Broken, ", ")), r.Width)
		WriteHanging(r.Out, "", "  ", ce.Line(r.Lang), r.Width)
		fmt.Fprintln(r.Out)
		if err := r.Trace(steps); err != nil {
			return err
		}
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
	// Outside: with --notify, the schedules where m1's call outside the
	// store was made more than once, and never.
	Outside *jsonOutside `json:"outside,omitempty"`
}

type jsonOutside struct {
	Repeated uint64 `json:"repeated"`
	Never    uint64 `json:"never"`
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

func ExploreJSON(lang i18n.Lang, r *explore.Report) jsonExplore {
	j := jsonExplore{Mechanism: r.Mechanism, Section: r.Section, Mode: "exhaustive", Engine: r.Engine, Space: r.Space,
		Schedules: r.Schedules, Messages: r.Legend, Pass: r.Pass(), Strategies: []jsonStrategy{}}
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
			js.Shortest = &jsonCounterexample{Index: ce.Index + 1, Length: ce.Length, Schedule: ce.Line(lang), Broken: ce.Broken}
		}
		if o := s.Outside; o != nil {
			js.Outside = &jsonOutside{Repeated: o.Repeated, Never: o.Never}
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

// rerun is the command line that repeats a run: the scope's flags and, for
// a sample, its size and seed.
func rerun(r *explore.Report) string {
	parts := []string{"archlab explore", r.Mechanism}
	if flags := view.ScopeFlags(r.Scope); flags != "" {
		parts = append(parts, flags)
	}
	if r.Sampled {
		parts = append(parts, fmt.Sprintf("--random %d --seed %d", r.Schedules, r.Seed))
	}
	return strings.Join(parts, " ")
}

// scopeLine is the scope as flags: "messages=3 faults=2".
func scopeLine(r *explore.Report) string {
	parts := make([]string, len(r.Scope))
	for i, p := range r.Scope {
		parts[i] = p.Name + "=" + strconv.Itoa(p.Value)
	}
	return strings.Join(parts, " ")
}

// GroupDigits writes n with thousands separators: 14,482,320 (the
// page's numbers read the same: view.GroupDigits).
func GroupDigits(n uint64) string { return view.GroupDigits(n) }
