package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"time"
)

// ChartOptions shape the SVG chart.
type ChartOptions struct {
	Log   bool   // logarithmic time axis: engines an order of magnitude apart stay readable
	Title string // default "Search time by engine (median, lower is better)"
}

// engineColors are distinguishable for common colour-vision deficiencies
// (Okabe–Ito palette), in engine order.
var engineColors = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"}

// WriteSVG writes a self-contained grouped bar chart: one group per task, one
// bar per engine at its median time, a whisker from min to max, labelled axes,
// a legend, and the machine and versions in a caption.
func (r *Report) WriteSVG(w io.Writer, o ChartOptions) error {
	if o.Title == "" {
		o.Title = "Search time by engine (median, lower is better)"
	}
	const (
		left, right, top, bottom = 80.0, 20.0, 60.0, 120.0
		barW, barGap, groupGap   = 18.0, 3.0, 26.0
		plotH                    = 340.0
	)
	nE, nT := len(r.Engines), len(r.Tasks)
	groupW := float64(nE)*(barW+barGap) - barGap
	caption := []string{r.Root + "; " + r.Machine.String(),
		fmt.Sprintf("%d runs after %d warm-up, interleaved; %s", r.Runs, r.Warmup, r.Started.UTC().Format("2006-01-02"))}
	// Wide enough for the groups and for the caption (about 6.5 px a character at 11 px).
	plotW := math.Max(float64(nT)*(groupW+groupGap)+groupGap, 360)
	for _, c := range caption {
		plotW = math.Max(plotW, 6.5*float64(len(c))-right)
	}
	width, height := left+plotW+right, top+plotH+bottom

	// The time axis, in milliseconds.
	var hi, lo float64 = 0, math.Inf(1)
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Err != nil || len(c.Samples) == 0 {
			continue
		}
		s := Summarize(c.Samples)
		hi = math.Max(hi, ms(s.Max))
		lo = math.Min(lo, ms(s.Min))
	}
	if hi == 0 {
		hi, lo = 1, 0.1
	}
	ax := newAxis(lo, hi, o.Log)
	y := func(v float64) float64 { return top + plotH - ax.pos(v)*plotH }

	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n", width, height, width, height)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p(`<text x="%.0f" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", left, esc(o.Title))
	// Grid and tick labels.
	for _, t := range ax.ticks() {
		yy := y(t)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e0e0e0"/>`+"\n", left, yy, left+plotW, yy)
		p(`<text x="%.1f" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-6, yy, esc(tickLabel(t)))
	}
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", left, top, left, top+plotH)
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", left, top+plotH, left+plotW, top+plotH)
	scale := "linear"
	if o.Log {
		scale = "log"
	}
	p(`<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">wall time (%s scale)</text>`+"\n", top+plotH/2, scale)

	for ti, t := range r.Tasks {
		gx := left + groupGap + float64(ti)*(groupW+groupGap)
		for ei, info := range r.Engines {
			c := r.Cell(ti, ei)
			x := gx + float64(ei)*(barW+barGap)
			color := engineColors[ei%len(engineColors)]
			if c.Err != nil || len(c.Samples) == 0 {
				p(`<text x="%.1f" y="%.1f" text-anchor="start" font-size="10" fill="#777" transform="rotate(-90 %.1f %.1f)">n/a<title>%s, %s: %s</title></text>`+"\n",
					x+barW/2+3, top+plotH-4, x+barW/2+3, top+plotH-4, esc(t.Name), esc(info.Name), esc(cellError(c.Err)))
				continue
			}
			s := Summarize(c.Samples)
			yb := y(ms(s.Median))
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s, %s: median %s (min %s, max %s, %d runs)</title></rect>`+"\n",
				x, yb, barW, top+plotH-yb, color, esc(t.Name), esc(info.Name), dur(s.Median), dur(s.Min), dur(s.Max), s.N)
			cx := x + barW/2
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222"/>`+"\n", cx, y(ms(s.Min)), cx, y(ms(s.Max)))
		}
		p(`<text x="%.1f" y="%.1f" text-anchor="end" transform="rotate(-30 %.1f %.1f)">%s</text>`+"\n",
			gx+groupW/2, top+plotH+16, gx+groupW/2, top+plotH+16, esc(t.Name))
	}
	// Legend.
	lx := left
	for ei, info := range r.Engines {
		p(`<rect x="%.1f" y="36" width="12" height="12" fill="%s"/>`+"\n", lx, engineColors[ei%len(engineColors)])
		label := info.Name
		if info.Version != "" {
			label += " " + info.Version
		}
		p(`<text x="%.1f" y="46">%s</text>`+"\n", lx+16, esc(label))
		lx += 24 + 7*float64(len(label))
	}
	for i, c := range caption {
		p(`<text x="%.1f" y="%.1f" font-size="11" fill="#444">%s</text>`+"\n", left, height-30+16*float64(i), esc(c))
	}
	p("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func esc(s string) string { return html.EscapeString(s) }

// axis maps values in [lo, hi] to [0, 1], linearly or logarithmically, with
// round tick values.
type axis struct {
	lo, hi float64
	log    bool
}

func newAxis(lo, hi float64, log bool) axis {
	if log {
		lo = math.Pow(10, math.Floor(math.Log10(math.Max(lo, 1e-3))))
		hi = math.Pow(10, math.Ceil(math.Log10(hi)))
		if hi <= lo {
			hi = lo * 10
		}
		return axis{lo, hi, true}
	}
	step := niceStep(hi / 5)
	return axis{0, math.Ceil(hi/step) * step, false}
}

func (a axis) pos(v float64) float64 {
	if a.log {
		v = math.Max(v, a.lo)
		return (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return (v - a.lo) / (a.hi - a.lo)
}

func (a axis) ticks() []float64 {
	var out []float64
	if a.log {
		for v := a.lo; v <= a.hi*1.0001; v *= 10 {
			out = append(out, v)
		}
		return out
	}
	step := niceStep(a.hi / 5)
	for v := 0.0; v <= a.hi*1.0001; v += step {
		out = append(out, v)
	}
	return out
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// tickLabel names a tick in milliseconds with its unit.
func tickLabel(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%g s", v/1000)
	case v >= 1 || v == 0:
		return fmt.Sprintf("%g ms", v)
	}
	return fmt.Sprintf("%.2g ms", v)
}
