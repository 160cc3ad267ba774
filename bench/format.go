package bench

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

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
	task, engine, median, spread, vsFastest, vsRef, cpu, rss, matches, files string
}

var header = row{"task", "engine", "median", "min–max", "×fastest", "×rg", "cpu", "peak RSS", "matches", "files"}

func (r *Report) rows() []row {
	var out []row
	for ti, t := range r.Tasks {
		vsF, vsR := r.Ratios(ti)
		for ei, info := range r.Engines {
			c := r.Cell(ti, ei)
			rw := row{task: t.Label(), engine: info.Name}
			if c.Err != nil || len(c.Samples) == 0 {
				rw.median = cellError(c.Err)
				out = append(out, rw)
				continue
			}
			s := Summarize(c.Samples)
			rw.median = dur(s.Median)
			rw.spread = dur(s.Min) + "–" + dur(s.Max)
			rw.vsFastest = ratio(vsF[ei])
			rw.vsRef = ratio(vsR[ei])
			rw.cpu = dur(s.CPU)
			rw.rss = mib(s.PeakRSS)
			rw.matches = strconv.FormatInt(c.Matches, 10)
			rw.files = strconv.FormatInt(c.Files, 10)
			out = append(out, rw)
		}
	}
	return out
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
	if len(s) > 60 {
		s = s[:60] + "…"
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

func (r *Report) caption() string {
	return fmt.Sprintf("%s; %s; %d runs after %d warm-up, interleaved; %s",
		r.Root, r.Machine, r.Runs, r.Warmup, r.Started.UTC().Format("2006-01-02"))
}

func (r *Report) writeTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(x row) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			x.task, x.engine, x.median, x.spread, x.vsFastest, x.vsRef, x.cpu, x.rss, x.matches, x.files)
	}
	line(header)
	prev := ""
	for _, x := range r.rows() {
		if x.task == prev {
			x.task = ""
		} else {
			prev = x.task
		}
		line(x)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, r.caption())
	return r.writeAgreement(w)
}

func (r *Report) writeMarkdown(w io.Writer) error {
	cells := func(x row) []string {
		return []string{x.task, x.engine, x.median, x.spread, x.vsFastest, x.vsRef, x.cpu, x.rss, x.matches, x.files}
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells(header), " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", 10))
	for _, x := range r.rows() {
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells(x), " | "))
	}
	fmt.Fprintf(w, "\n%s\n\n", r.caption())
	return r.writeAgreement(w)
}

func (r *Report) writeAgreement(w io.Writer) error {
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

// jsonCell is a cell as JSON: times in nanoseconds and human units.
type jsonCell struct {
	Task      string  `json:"task"`
	Pattern   string  `json:"pattern,omitempty"`
	Engine    string  `json:"engine"`
	Error     string  `json:"error,omitempty"`
	Runs      int     `json:"runs"`
	MedianNS  int64   `json:"median_ns"`
	MinNS     int64   `json:"min_ns"`
	MaxNS     int64   `json:"max_ns"`
	CPUNS     int64   `json:"cpu_ns"`
	PeakRSS   int64   `json:"peak_rss_bytes"`
	VsFastest float64 `json:"x_fastest,omitempty"`
	VsRg      float64 `json:"x_rg,omitempty"`
	Matches   int64   `json:"matches"`
	Files     int64   `json:"files"`
}

func (r *Report) jsonCells() []jsonCell {
	var out []jsonCell
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
				jc.CPUNS, jc.PeakRSS = int64(s.CPU), s.PeakRSS
				jc.VsFastest, jc.VsRg = vsF[ei], vsR[ei]
			}
			out = append(out, jc)
		}
	}
	return out
}

func (r *Report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Machine       Machine        `json:"machine"`
		Root          string         `json:"root"`
		Date          string         `json:"date"`
		Runs          int            `json:"runs"`
		Warmup        int            `json:"warmup"`
		Results       []jsonCell     `json:"results"`
		Disagreements []Disagreement `json:"disagreements"`
	}{r.Machine, r.Root, r.Started.UTC().Format(time.RFC3339), r.Runs, r.Warmup, r.jsonCells(), r.Disagreements})
}

func (r *Report) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"task", "pattern", "engine", "error", "runs", "median_ns", "min_ns", "max_ns", "cpu_ns", "peak_rss_bytes", "x_fastest", "x_rg", "matches", "files"})
	for _, c := range r.jsonCells() {
		f := func(x float64) string {
			if x == 0 {
				return ""
			}
			return strconv.FormatFloat(x, 'f', 3, 64)
		}
		i := func(x int64) string { return strconv.FormatInt(x, 10) }
		_ = cw.Write([]string{c.Task, c.Pattern, c.Engine, c.Error, strconv.Itoa(c.Runs), i(c.MedianNS), i(c.MinNS), i(c.MaxNS), i(c.CPUNS), i(c.PeakRSS), f(c.VsFastest), f(c.VsRg), i(c.Matches), i(c.Files)})
	}
	cw.Flush()
	return cw.Error()
}
