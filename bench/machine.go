package bench

import (
	"fmt"
	"runtime"
	"strings"
)

// Machine describes where a benchmark ran, for the caption of every table
// and chart: numbers mean little without it.
type Machine struct {
	OS       string            `json:"os"`
	Arch     string            `json:"arch"`
	CPUs     int               `json:"cpus"`
	Go       string            `json:"go"`
	Versions map[string]string `json:"versions"` // engine name -> version, e.g. "ripgrep": "15.2.0"
}

// DescribeMachine reads this machine and the engines' versions.
func DescribeMachine(engines []Engine) Machine {
	m := Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version(), Versions: map[string]string{}}
	for _, e := range engines {
		if e.Info.Version != "" {
			m.Versions[e.Info.Name] = e.Info.Version
		}
	}
	return m
}

// String is the one-line machine description: OS, arch, CPUs and versions.
func (m Machine) String() string {
	parts := []string{fmt.Sprintf("%s/%s, %d CPUs, %s", m.OS, m.Arch, m.CPUs, m.Go)}
	for _, name := range []string{BaselineName, "ripgrep", "gitgrep", "grep", "native"} {
		if v, ok := m.Versions[name]; ok {
			label := map[string]string{BaselineName: "rg baseline", "ripgrep": "rg", "gitgrep": "git", "grep": "grep", "native": "native"}[name]
			parts = append(parts, label+" "+v)
		}
	}
	return strings.Join(parts, ", ")
}
