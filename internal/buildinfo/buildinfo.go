// Package buildinfo reports the version of the running rgkit binary, from
// the build information the Go toolchain embeds, so that every place that
// shows it (MCP serverInfo, --version) says the same.
package buildinfo

import "runtime/debug"

// Version is rgkit's version: the module version when built from a tagged
// release or with a VCS-derived pseudo-version, else "devel" with the VCS
// revision ("devel+1a2b3c4d5e6f", "+dirty" when the tree had changes),
// else "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel+" + rev[:min(len(rev), 12)]
	if dirty {
		v += "+dirty"
	}
	return v
}
