package bench

import (
	"slices"
	"time"
)

// Summary condenses a cell's samples.
type Summary struct {
	Median, Min, Max time.Duration
	CPU              time.Duration // median CPU time
	PeakRSS          int64         // largest peak resident set over the runs
	N                int
}

// Summarize returns the median, range, median CPU and peak memory of samples.
// The median, not the mean, so one run disturbed by the machine does not move
// the result.
func Summarize(samples []Sample) Summary {
	if len(samples) == 0 {
		return Summary{}
	}
	walls := make([]time.Duration, len(samples))
	cpus := make([]time.Duration, len(samples))
	var peak int64
	for i, s := range samples {
		walls[i], cpus[i] = s.Wall, s.CPU
		peak = max(peak, s.PeakRSS)
	}
	slices.Sort(walls)
	return Summary{
		Median:  median(walls),
		Min:     walls[0],
		Max:     walls[len(walls)-1],
		CPU:     median(cpus),
		PeakRSS: peak,
		N:       len(samples),
	}
}

// median of durations; the mean of the middle two for an even count.
func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Ratios returns, for one task, each engine's median over the fastest median
// and over the reference engine's (ripgrep's) median; 0 where unknown.
func (r *Report) Ratios(ti int) (vsFastest, vsRef []float64) {
	n := len(r.Engines)
	meds := make([]time.Duration, n)
	var fastest time.Duration
	for ei := range n {
		c := r.Cell(ti, ei)
		if c.Err != nil || len(c.Samples) == 0 {
			continue
		}
		meds[ei] = Summarize(c.Samples).Median
		if fastest == 0 || meds[ei] < fastest {
			fastest = meds[ei]
		}
	}
	ref := -1
	for ei, info := range r.Engines {
		if info.Name == "ripgrep" && meds[ei] > 0 {
			ref = ei
		}
	}
	vsFastest, vsRef = make([]float64, n), make([]float64, n)
	for ei := range n {
		if meds[ei] == 0 {
			continue
		}
		vsFastest[ei] = float64(meds[ei]) / float64(fastest)
		if ref >= 0 {
			vsRef[ei] = float64(meds[ei]) / float64(meds[ref])
		}
	}
	return vsFastest, vsRef
}
