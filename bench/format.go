package bench

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rgkit/rgkit/search"
)

// Format is an output format for a Report.
type Format int

const (
	FormatTable Format = iota // aligned columns for a terminal
	FormatMarkdown
	FormatJSON
	FormatCSV
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "table", "":
		return FormatTable, nil
	case "markdown", "md":
		return FormatMarkdown, nil
	case "json":
		return FormatJSON, nil
	case "csv":
		return FormatCSV, nil
	}
	return 0, fmt.Errorf("unknown format %q (want table, markdown, json or csv)", s)
}

// row is one (task, engine) line of a table, already formatted.
type row struct {
	label, name, expr                                string // the task: Task.Label and its parts (see Task.parts)
	engine, median, spread, vsRef, first, rss, match string
}

func (x row) cells() []string {
	return []string{x.engine, x.median, x.spread, x.vsRef, x.first, x.rss, x.match}
}

var header = row{name: "task", engine: "engine", median: "median", spread: "min–max", vsRef: "×rg",
	first: "1st result", rss: "peak RSS", match: "matches"}

// rows are the table's rows: every task on every engine that could run
// here (see unavailable).
func (r *Report) rows() []row {
	out := []row{}
	gone := map[string]bool{}
	for _, u := range r.unavailable() {
		gone[u.Engine] = true
	}
	for ti, t := range r.Tasks {
		_, vsR := r.Ratios(ti)
		name, expr := t.parts()
		for ei, info := range r.Engines {
			if gone[info.Name] {
				continue
			}
			c := r.Cell(ti, ei)
			rw := row{label: t.Label(), name: name, expr: expr, engine: info.Name}
			if c.Err != nil || len(c.Samples) == 0 {
				rw.median = cellError(c.Err)
				out = append(out, rw)
				continue
			}
			s := Summarize(c.Samples)
			rw.median = dur(s.Median)
			rw.spread = spread(s.Min, s.Max)
			rw.vsRef = ratio(vsR[ei])
			if s.FirstResult > 0 {
				rw.first = dur(s.FirstResult)
			}
			rw.rss = mib(s.PeakRSS)
			rw.match = strconv.FormatInt(c.Matches, 10)
			out = append(out, rw)
		}
	}
	return out
}

// Unavailable is an engine that could not run on this tree at all.
type Unavailable struct {
	Engine string `json:"engine"`
	Reason string `json:"reason"`
}

// unavailable lists the engines skipped before the run and those whose every
// task failed as unavailable (git grep outside a git work tree), each once,
// with the reason in words.
func (r *Report) unavailable() []Unavailable {
	out := []Unavailable{}
	for _, sk := range r.Skipped {
		out = append(out, Unavailable{sk.Backend, r.reason(sk.Reason)})
	}
	for ei, info := range r.Engines {
		// Unavailable wherever it was tried; tasks it does not support
		// (listing files, for git grep) do not make it available.
		var first error
		all := len(r.Tasks) > 0
		for ti := range r.Tasks {
			err := r.Cell(ti, ei).Err
			if err == nil {
				all = false
				break
			}
			if errors.Is(err, search.ErrUnavailable) {
				first = cmp.Or(first, err)
			}
		}
		if all && first != nil {
			out = append(out, Unavailable{info.Name, r.reason(first)})
		}
	}
	return out
}

// reason is an engine's unavailability in words: without the sentinel's
// text, the tree's path or what follows the first line.
func (r *Report) reason(err error) string {
	if err == nil {
		return "not available"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	s = strings.TrimPrefix(s, search.ErrUnavailable.Error()+": ")
	if r.Root != "" {
		s = strings.TrimPrefix(s, r.Root+" is ")
	}
	if i := strings.Index(s, ": fatal:"); i > 0 {
		s = s[:i] // git's own words repeat it
	}
	return firstLine(s)
}

// spread is a min–max range with the unit once when both share it.
func spread(lo, hi time.Duration) string {
	a, b := dur(lo), dur(hi)
	if ua, ub := strings.TrimLeft(a, "0123456789."), strings.TrimLeft(b, "0123456789."); ua == ub {
		a = strings.TrimSuffix(a, ua)
	}
	return a + "–" + b
}

func cellError(err error) string {
	switch {
	case err == nil:
		return "no runs"
	case errors.Is(err, search.ErrUnsupported):
		return "unsupported"
	case errors.Is(err, search.ErrUnavailable):
		return "unavailable"
	}
	return "error: " + firstLine(err.Error())
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 72 {
		s = string(r[:72]) + "…"
	}
	return s
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
}

func ratio(x float64) string {
	if x == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f×", x)
}

func mib(b int64) string {
	if b == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

// Write renders the report in format f.
func (r *Report) Write(w io.Writer, f Format) error {
	switch f {
	case FormatJSON:
		return r.writeJSON(w)
	case FormatCSV:
		return r.writeCSV(w)
	case FormatMarkdown:
		return r.writeMarkdown(w)
	}
	return r.writeTable(w)
}

// caption says where and how the numbers were taken, one fact a line.
func (r *Report) caption() []string {
	lines := []string{r.Root, r.Machine.String()}
	run := fmt.Sprintf("%d runs after %d warm-up, interleaved; %s", r.Runs, r.Warmup, r.Started.UTC().Format("2006-01-02 15:04 MST"))
	if r.LoadAverage != [2]float64{} {
		run += fmt.Sprintf("; load average %.1f → %.1f", r.LoadAverage[0], r.LoadAverage[1])
	}
	return append(lines, run)
}

// preamble is what the table needs said first: what the rows measure, what
// the ratios are against, and the engines that could not run, once each.
func (r *Report) preamble() []string {
	lines := []string{"Every run prints its results to a pipe, as `rgkit grep` does;",
		"1st result is the time until the pipe's reader has the first byte."}
	ref := "×rg is empty: neither rg nor the ripgrep engine ran."
	for _, info := range r.Engines {
		if info.Name == BaselineName {
			ref = fmt.Sprintf("×rg is against the rg row: rg %s (%s) run directly.", info.Version, info.Path)
			break
		}
		if info.Name == "ripgrep" {
			ref = "×rg is against the ripgrep engine (no rg baseline ran)."
		}
	}
	lines = append(lines, ref)
	for _, u := range r.unavailable() {
		lines = append(lines, fmt.Sprintf("%s: unavailable (%s)", u.Engine, u.Reason))
	}
	return lines
}

// writeTable writes right-aligned columns: each task on a line of its own, then
// one indented row per engine, so a long pattern does not widen every row.
func (r *Report) writeTable(w io.Writer) error {
	for _, l := range r.preamble() {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	rows := r.rows()
	width := make([]int, len(header.cells()))
	for _, x := range append(rows, header) {
		for i, c := range x.cells() {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(x row) {
		var b strings.Builder
		for i, c := range x.cells() {
			b.WriteString(strings.Repeat(" ", 2+width[i]-utf8.RuneCountInString(c)))
			b.WriteString(c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(header)
	prev := ""
	for _, x := range rows {
		if x.label != prev {
			prev = x.label
			fmt.Fprintln(w, x.label)
		}
		line(x)
	}
	fmt.Fprintln(w, strings.Join(r.caption(), "\n"))
	return r.writeAgreement(w)
}

// mdCell makes s safe in a markdown table cell: a '|' would end the cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// mdCode is s as inline code (backslashes and '*' stay as typed), safe in a
// table cell.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if len(fence) > 1 || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + mdCell(s) + " " + fence
	}
	return fence + mdCell(s) + fence
}

func (r *Report) writeMarkdown(w io.Writer) error {
	fmt.Fprintln(w, strings.Join(r.preamble(), "\n"))
	fmt.Fprintln(w)
	fmt.Fprintf(w, "| %s | %s |\n", header.name, strings.Join(header.cells(), " | "))
	fmt.Fprintf(w, "|---|---|%s\n", strings.Repeat("--:|", len(header.cells())-1))
	// Each task on a row of its own, then its engines' rows: a long pattern
	// widens one row, not every row.
	blank := strings.Repeat(" |", len(header.cells()))
	prev := ""
	for _, x := range r.rows() {
		if x.label != prev {
			prev = x.label
			fmt.Fprintf(w, "| %s |%s\n", strings.TrimSpace(mdCell(x.name)+" "+mdCode(x.expr)), blank)
		}
		cells := x.cells()
		for i := range cells {
			cells[i] = mdCell(cells[i])
		}
		fmt.Fprintf(w, "| | %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintf(w, "\n%s\n\n", strings.Join(r.caption(), "  \n"))
	return r.writeAgreement(w)
}

func (r *Report) writeAgreement(w io.Writer) error {
	r.writeBaselineNotes(w)
	if len(r.Disagreements) == 0 {
		_, err := fmt.Fprintln(w, "agreement: every engine found the same matches on every task")
		return err
	}
	for _, d := range r.Disagreements {
		fmt.Fprintf(w, "DISAGREE %s: %s vs %s: %d missing, %d extra\n", d.Task, d.Engine, d.Reference, d.MissingCount, d.ExtraCount)
		for _, k := range d.Missing {
			fmt.Fprintf(w, "  - %s:%d (only in %s)\n", k.Path, k.Line, d.Reference)
		}
		for _, k := range d.Extra {
			fmt.Fprintf(w, "  + %s:%d (only in %s)\n", k.Path, k.Line, d.Engine)
		}
	}
	return nil
}

// writeBaselineNotes says where rg's printed line count differs from the
// engines' match count. rg is not part of the agreement check (its output is
// counted, not parsed), so this is a note, not a disagreement.
func (r *Report) writeBaselineNotes(w io.Writer) {
	base, ref := -1, -1
	for ei, info := range r.Engines {
		switch info.Name {
		case BaselineName:
			base = ei
		case "ripgrep":
			ref = ei
		}
	}
	if base < 0 {
		return
	}
	for ti, t := range r.Tasks {
		b := r.Cell(ti, base)
		for ei := range r.Engines {
			c := r.Cell(ti, ei)
			if ei == base || c.Err != nil || b.Err != nil || (ref >= 0 && ei != ref) {
				continue
			}
			if c.Matches != b.Matches {
				fmt.Fprintf(w, "note: %s: rg printed %d lines, %s found %d\n", t.Name, b.Matches, r.Engines[ei].Name, c.Matches)
			}
			break
		}
	}
}

// jsonCell is a cell as JSON: times in nanoseconds, memory in bytes.
type jsonCell struct {
	Task         string  `json:"task"`
	Pattern      string  `json:"pattern,omitempty"`
	Engine       string  `json:"engine"`
	Error        string  `json:"error,omitempty"`
	Runs         int     `json:"runs"`
	MedianNS     int64   `json:"median_ns"`
	MinNS        int64   `json:"min_ns"`
	MaxNS        int64   `json:"max_ns"`
	FirstNS      int64   `json:"first_result_ns"`
	CPUNS        int64   `json:"cpu_ns"`
	PeakRSS      int64   `json:"peak_rss_bytes"`
	ChildPeakRSS int64   `json:"child_peak_rss_bytes"`
	SelfPeakRSS  int64   `json:"self_peak_rss_bytes"`
	VsFastest    float64 `json:"x_fastest,omitempty"`
	VsRg         float64 `json:"x_rg,omitempty"`
	Matches      int64   `json:"matches"`
	Files        int64   `json:"files"`
}

func (r *Report) jsonCells() []jsonCell {
	out := []jsonCell{}
	for ti, t := range r.Tasks {
		vsF, vsR := r.Ratios(ti)
		for ei, info := range r.Engines {
			c := r.Cell(ti, ei)
			jc := jsonCell{Task: t.Name, Pattern: t.Query.Pattern, Engine: info.Name, Matches: c.Matches, Files: c.Files}
			if c.Err != nil {
				jc.Error = c.Err.Error()
			}
			if len(c.Samples) > 0 {
				s := Summarize(c.Samples)
				jc.Runs, jc.MedianNS, jc.MinNS, jc.MaxNS = s.N, int64(s.Median), int64(s.Min), int64(s.Max)
				jc.FirstNS, jc.CPUNS = int64(s.FirstResult), int64(s.CPU)
				jc.PeakRSS, jc.ChildPeakRSS, jc.SelfPeakRSS = s.PeakRSS, s.ChildPeakRSS, s.SelfPeakRSS
				jc.VsFastest, jc.VsRg = vsF[ei], vsR[ei]
			}
			out = append(out, jc)
		}
	}
	return out
}

// jsonBaseline is the rg every ratio is against.
type jsonBaseline struct {
	Path    string `json:"path"`
	Version string `json:"version"`
}

// jsonReport is the JSON document: snake_case keys throughout, and empty
// lists as [] rather than null.
type jsonReport struct {
	Machine       Machine        `json:"machine"`
	Root          string         `json:"root"`
	Date          string         `json:"date"`
	Runs          int            `json:"runs"`
	Warmup        int            `json:"warmup"`
	LoadAverage   [2]float64     `json:"load_average"`
	Baseline      *jsonBaseline  `json:"baseline"`
	Unavailable   []Unavailable  `json:"unavailable"`
	Results       []jsonCell     `json:"results"`
	Disagreements []Disagreement `json:"disagreements"`
}

func (r *Report) writeJSON(w io.Writer) error {
	doc := jsonReport{
		Machine: r.Machine, Root: r.Root, Date: r.Started.UTC().Format(time.RFC3339),
		Runs: r.Runs, Warmup: r.Warmup, LoadAverage: r.LoadAverage,
		Unavailable: r.unavailable(), Results: r.jsonCells(), Disagreements: []Disagreement{},
	}
	if doc.Machine.Versions == nil {
		doc.Machine.Versions = map[string]string{}
	}
	for _, info := range r.Engines {
		if info.Name == BaselineName {
			doc.Baseline = &jsonBaseline{Path: info.Path, Version: info.Version}
		}
	}
	for _, d := range r.Disagreements {
		d.Missing = append([]Key{}, d.Missing...)
		d.Extra = append([]Key{}, d.Extra...)
		doc.Disagreements = append(doc.Disagreements, d)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func (r *Report) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"task", "pattern", "engine", "error", "runs", "median_ns", "min_ns", "max_ns", "first_result_ns",
		"cpu_ns", "peak_rss_bytes", "child_peak_rss_bytes", "self_peak_rss_bytes", "x_fastest", "x_rg", "matches", "files"})
	f := func(x float64) string {
		if x == 0 {
			return ""
		}
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	i := func(x int64) string { return strconv.FormatInt(x, 10) }
	for _, c := range r.jsonCells() {
		_ = cw.Write([]string{c.Task, c.Pattern, c.Engine, c.Error, strconv.Itoa(c.Runs), i(c.MedianNS), i(c.MinNS), i(c.MaxNS),
			i(c.FirstNS), i(c.CPUNS), i(c.PeakRSS), i(c.ChildPeakRSS), i(c.SelfPeakRSS), f(c.VsFastest), f(c.VsRg), i(c.Matches), i(c.Files)})
	}
	cw.Flush()
	return cw.Error()
}
