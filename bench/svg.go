package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"time"
)

// Scale is the chart's time axis.
type Scale int

const (
	// ScaleAuto is logarithmic when the medians span more than AutoLogSpan,
	// else linear.
	ScaleAuto Scale = iota
	ScaleLinear
	ScaleLog
)

// AutoLogSpan is the ratio of the largest to the smallest median above which
// ScaleAuto draws a logarithmic axis: past it, the short bars of a linear
// axis are a few pixels tall.
const AutoLogSpan = 20

// ParseScale reads a --scale value.
func ParseScale(s string) (Scale, error) {
	switch s {
	case "auto", "":
		return ScaleAuto, nil
	case "linear":
		return ScaleLinear, nil
	case "log":
		return ScaleLog, nil
	}
	return 0, fmt.Errorf("unknown scale %q (want auto, linear or log)", s)
}

// ChartOptions shape the SVG chart.
type ChartOptions struct {
	Scale Scale
	Title string // default "Search time by engine (median, lower is better)"
}

// engineColors are distinguishable for common colour-vision deficiencies
// (Okabe–Ito palette), in engine order.
var engineColors = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"}

// minBarPx is the least height of a drawn bar, so a 1.5 ms bar beside
// second-long ones is still seen.
const minBarPx = 3.0

// WriteSVG writes a self-contained grouped bar chart: one group per task, one
// bar per engine that ran, at its median time and labelled with it; a
// whisker from the fastest to the slowest run, clipped with a mark where it
// runs past the axis (which is chosen from the medians, so one disturbed run
// does not squash every bar); a legend of the engines that ran; and the
// machine, versions and load in a caption.
func (r *Report) WriteSVG(w io.Writer, o ChartOptions) error {
	if o.Title == "" {
		o.Title = "Search time by engine (median, lower is better)"
	}
	const (
		left, right, top, bottom = 80.0, 20.0, 96.0, 150.0
		barW, barGap, groupGap   = 18.0, 3.0, 26.0
		plotH                    = 340.0
	)
	var shown []int // engines with at least one measured task
	var lo, hi = math.Inf(1), 0.0
	for ei := range r.Engines {
		ran := false
		for ti := range r.Tasks {
			c := r.Cell(ti, ei)
			if c.Err != nil || len(c.Samples) == 0 {
				continue
			}
			ran = true
			m := ms(Summarize(c.Samples).Median)
			lo, hi = math.Min(lo, m), math.Max(hi, m)
		}
		if ran {
			shown = append(shown, ei)
		}
	}
	if hi == 0 {
		lo, hi = 0.1, 1
	}
	log := o.Scale == ScaleLog || (o.Scale == ScaleAuto && hi/lo > AutoLogSpan)
	ax := newAxis(lo, hi, log)

	nE, nT := len(shown), len(r.Tasks)
	groupW := math.Max(float64(nE)*(barW+barGap)-barGap, barW)
	caption := r.caption()
	runs := fmt.Sprintf("Bars: median of %d runs, labelled; whiskers: fastest to slowest run (min–max of %d runs); "+
		"▲ marks a whisker clipped at the top of the axis.", r.Runs, r.Runs)
	// Wide enough for the groups and for the text (about 6.5 px a character at 11 px).
	plotW := math.Max(float64(nT)*(groupW+groupGap)+groupGap, 360)
	for _, c := range append(caption, runs) {
		plotW = math.Max(plotW, 6.2*float64(len([]rune(c)))-right)
	}
	width, height := left+plotW+right, top+plotH+bottom
	y := func(v float64) float64 { return top + plotH - ax.pos(v)*plotH }

	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	scale := map[bool]string{false: "linear", true: "log"}[log]
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica, Arial, sans-serif" font-size="12" data-scale="%s" data-axis-max-ms="%g">`+"\n",
		width, height, width, height, scale, ax.hi)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p(`<text x="%.0f" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", left, esc(o.Title))
	// Grid and tick labels.
	for _, t := range ax.ticks() {
		yy := y(t)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e0e0e0"/>`+"\n", left, yy, left+plotW, yy)
		p(`<text class="tick" x="%.1f" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-6, yy, esc(tickLabel(t)))
	}
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", left, top, left, top+plotH)
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", left, top+plotH, left+plotW, top+plotH)
	p(`<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">wall time (%s scale)</text>`+"\n", top+plotH/2, scale)

	for ti, t := range r.Tasks {
		gx := left + groupGap + float64(ti)*(groupW+groupGap)
		for k, ei := range shown {
			info, c := r.Engines[ei], r.Cell(ti, ei)
			x := gx + float64(k)*(barW+barGap)
			cx := x + barW/2
			if c.Err != nil || len(c.Samples) == 0 {
				p(`<text x="%.1f" y="%.1f" text-anchor="start" font-size="10" fill="#777" transform="rotate(-90 %.1f %.1f)">n/a<title>%s, %s: %s</title></text>`+"\n",
					cx+3, top+plotH-4, cx+3, top+plotH-4, esc(t.Name), esc(info.Name), esc(cellError(c.Err)))
				continue
			}
			s := Summarize(c.Samples)
			yb := math.Min(y(ms(s.Median)), top+plotH-minBarPx)
			p(`<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s, %s: median %s (min %s, max %s, %d runs)</title></rect>`+"\n",
				x, yb, barW, top+plotH-yb, engineColors[ei%len(engineColors)], esc(t.Name), esc(info.Name), dur(s.Median), dur(s.Min), dur(s.Max), s.N)
			wTop, wBot := y(ms(s.Max)), math.Min(y(ms(s.Min)), top+plotH)
			if ms(s.Max) > ax.hi {
				wTop = top
				p(`<path class="clipped" d="M%.1f %.1f l-4 7 h8 z" fill="#222"><title>slowest run %s, past the axis</title></path>`+"\n", cx, top-2, dur(s.Max))
			}
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222"/>`+"\n", cx, wTop, cx, wBot)
			ly := math.Min(yb, wTop) - 4
			if ms(s.Max) > ax.hi {
				ly = yb - 4 // the clipped whisker reaches the top: label the bar on it
			}
			p(`<text class="value" x="%.1f" y="%.1f" font-size="10" text-anchor="start" dominant-baseline="middle" stroke="#fff" stroke-width="3" paint-order="stroke" transform="rotate(-90 %.1f %.1f)">%s</text>`+"\n",
				cx, ly, cx, ly, esc(dur(s.Median)))
		}
		p(`<text x="%.1f" y="%.1f" text-anchor="end" transform="rotate(-30 %.1f %.1f)">%s</text>`+"\n",
			gx+groupW/2, top+plotH+16, gx+groupW/2, top+plotH+16, esc(t.Name))
	}
	// Legend: the engines that ran, and what the whiskers are.
	lx := left
	for _, ei := range shown {
		info := r.Engines[ei]
		p(`<rect x="%.1f" y="36" width="12" height="12" fill="%s"/>`+"\n", lx, engineColors[ei%len(engineColors)])
		label := info.Name
		if info.Version != "" {
			label += " " + info.Version
		}
		p(`<text class="legend" x="%.1f" y="46">%s</text>`+"\n", lx+16, esc(label))
		lx += 24 + 7*float64(len(label))
	}
	p(`<text class="note" x="%.1f" y="66" font-size="11" fill="#444">%s</text>`+"\n", left, esc(runs))
	for i, c := range caption {
		p(`<text x="%.1f" y="%.1f" font-size="11" fill="#444">%s</text>`+"\n", left, height-46+16*float64(i), esc(c))
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
		lo = niceBelow(math.Max(lo/1.5, 1e-3))
		hi = niceAbove(hi * 1.2)
		if hi <= lo {
			hi = lo * 10
		}
		return axis{lo, hi, true}
	}
	step := niceStep(hi * 1.15 / 5)
	return axis{0, math.Ceil(hi*1.15/step) * step, false}
}

func (a axis) pos(v float64) float64 {
	if a.log {
		v = math.Max(v, a.lo)
		return (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return (v - a.lo) / (a.hi - a.lo)
}

// ticks are round values on the axis: 0 and multiples of a 1-2-5 step
// (linear), or the 1-2-5 values of each decade (log), at most about ten.
func (a axis) ticks() []float64 {
	var out []float64
	if a.log {
		mults := []float64{1, 2, 5}
		if math.Log10(a.hi/a.lo) > 3 {
			mults = []float64{1}
		}
		for d := math.Pow(10, math.Floor(math.Log10(a.lo))); d <= a.hi*1.0001; d *= 10 {
			for _, m := range mults {
				if v := d * m; v >= a.lo*0.9999 && v <= a.hi*1.0001 {
					out = append(out, v)
				}
			}
		}
		return out
	}
	step := niceStep(a.hi / 5)
	for v := 0.0; v <= a.hi*1.0001; v += step {
		out = append(out, v)
	}
	return out
}

// niceBelow is the largest 1, 2 or 5 times a power of ten not above x.
func niceBelow(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= x {
			return m * p
		}
	}
	return p
}

// niceAbove is the smallest 1, 2 or 5 times a power of ten not below x.
func niceAbove(x float64) float64 { return niceStep(x) }

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
