package bench

import (
	"slices"
	"time"
)

// Summary condenses a cell's samples.
type Summary struct {
	Median, Min, Max time.Duration
	CPU              time.Duration // median CPU time
	// FirstResult is the median time to the first printed byte over the
	// runs that printed something; 0 when none did.
	FirstResult time.Duration
	// PeakRSS, ChildPeakRSS and SelfPeakRSS are the largest over the runs.
	PeakRSS, ChildPeakRSS, SelfPeakRSS int64
	N                                  int
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
	var firsts []time.Duration
	var sum Summary
	for i, s := range samples {
		walls[i], cpus[i] = s.Wall, s.CPU
		if s.FirstResult > 0 {
			firsts = append(firsts, s.FirstResult)
		}
		sum.PeakRSS = max(sum.PeakRSS, s.PeakRSS)
		sum.ChildPeakRSS = max(sum.ChildPeakRSS, s.ChildPeakRSS)
		sum.SelfPeakRSS = max(sum.SelfPeakRSS, s.SelfPeakRSS)
	}
	slices.Sort(walls)
	sum.Median, sum.Min, sum.Max = median(walls), walls[0], walls[len(walls)-1]
	sum.CPU, sum.FirstResult, sum.N = median(cpus), median(firsts), len(samples)
	return sum
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
// and over the rg baseline's median (the ripgrep engine's when no baseline
// ran); 0 where unknown.
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
	ref := r.refIndex(meds)
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

// refIndex is the engine ratios are taken against: the rg baseline, else the
// ripgrep engine, among those with a median; -1 when neither ran.
func (r *Report) refIndex(meds []time.Duration) int {
	for _, name := range []string{BaselineName, "ripgrep"} {
		for ei, info := range r.Engines {
			if info.Name == name && meds[ei] > 0 {
				return ei
			}
		}
	}
	return -1
}
