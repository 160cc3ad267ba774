package rgfetch

import (
	"context"
	"fmt"
)

// Verdict is what one resolution step concluded.
type Verdict int

const (
	// VerdictChosen: this step supplies the rg.
	VerdictChosen Verdict = iota + 1
	// VerdictSkipped: the step did not apply (disabled, nothing configured).
	VerdictSkipped
	// VerdictRejected: a candidate was found but is unusable (too old,
	// inside the working directory, stamp mismatch, ...).
	VerdictRejected
	// VerdictMissing: the step found no candidate.
	VerdictMissing
	// VerdictWouldDownload: Explain's answer for the download step.
	VerdictWouldDownload
	// VerdictFailed: the step was tried and failed.
	VerdictFailed
)

var verdictNames = [...]string{"", "chosen", "skipped", "rejected", "missing", "would download", "failed"}

func (v Verdict) String() string {
	if v > 0 && int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// MarshalText makes a Verdict print as its name in JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a Verdict name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if i > 0 && n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q", b)
}

// Step is one line of a Trace: which source was considered and why it was
// or was not used.
type Step struct {
	Source  Source  `json:"source"`
	Verdict Verdict `json:"verdict"`
	Path    string  `json:"path,omitempty"` // candidate path or download URL
	Version string  `json:"version,omitempty"`
	Reason  string  `json:"reason"`
}

// Trace explains a resolution, for `rgkit doctor`.
type Trace struct {
	Target  string    `json:"target"` // platform, e.g. "linux/amd64 (gnu)"
	Version string    `json:"version"`
	Triple  string    `json:"triple,omitempty"`
	Steps   []Step    `json:"steps"`
	Chosen  *Resolved `json:"chosen,omitempty"` // nil when only a download would help (or nothing)
}

func (t *Trace) add(st Step) {
	if t != nil {
		t.Steps = append(t.Steps, st)
	}
}

// Explain walks the same steps as Resolve without downloading, installing
// or using the memory cache, and reports each step's verdict. The download
// step says where the archive would come from and which digest would be
// trusted, or why it would be refused.
func (r *Resolver) Explain(ctx context.Context) Trace {
	s := r.settings()
	tr := Trace{Target: s.target.String(), Version: s.version}
	if triple, err := s.target.Triple(s.version); err == nil {
		tr.Triple = triple
	}
	if s.override != "" {
		res, err := r.checkOverride(ctx, s)
		if err != nil {
			tr.add(Step{Source: SourceOverride, Verdict: VerdictRejected, Path: s.override, Reason: err.Error()})
			return tr
		}
		tr.add(Step{Source: SourceOverride, Verdict: VerdictChosen, Path: res.Path, Version: res.Version,
			Reason: "set by " + s.envPrefix + "_RG_PATH or the caller; it wins over everything"})
		res = s.withTriple(res)
		tr.Chosen = &res
		return tr
	}
	tr.add(Step{Source: SourceOverride, Verdict: VerdictSkipped, Reason: s.envPrefix + "_RG_PATH is not set"})
	if res, ok := r.trySystem(ctx, s, &tr); ok {
		res = s.withTriple(res)
		tr.Chosen = &res
		return tr
	}
	if res, ok := r.tryManaged(ctx, s, &tr); ok {
		tr.Chosen = &res
		return tr
	}
	r.explainDownload(s, &tr)
	return tr
}

// explainDownload adds the verdict of the download step without running it.
func (r *Resolver) explainDownload(s settings, tr *Trace) {
	if why := s.downloadForbidden(); why != "" {
		tr.add(Step{Source: SourceDownloaded, Verdict: VerdictSkipped, Reason: why})
		return
	}
	p, err := s.plan()
	if err != nil {
		tr.add(Step{Source: SourceDownloaded, Verdict: VerdictFailed, Reason: err.Error()})
		return
	}
	tr.add(Step{Source: SourceDownloaded, Verdict: VerdictWouldDownload, Path: p.loc.String(), Version: p.version,
		Reason: fmt.Sprintf("install %s into %s, verified against the %s SHA-256 %s", p.asset, s.binDir, p.origin, orPending(p.want))})
}

func orPending(d string) string {
	if d == "" {
		return "(read from the sidecar at download time)"
	}
	return d
}
