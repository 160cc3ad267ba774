// Package doctor is `rgkit doctor`'s report: the platform, each step of
// the rg resolution with its verdict, and the git and grep the engines
// would run, as they see them. It never touches the network.
package doctor

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/backends/gitgrep"
	"github.com/rgkit/rgkit/backends/sysgrep"
	"github.com/rgkit/rgkit/internal/realrg"
	"github.com/rgkit/rgkit/platforms"
	"github.com/rgkit/rgkit/rgfetch"
)

// Report is what `rgkit doctor` finds; --json prints it as is.
type Report struct {
	Platform string        `json:"platform"`
	PageSize int           `json:"page_size"`
	Rg       rgfetch.Trace `json:"ripgrep"`
	Tools    []Tool        `json:"tools"`
	// Dir is the working directory; Engines says which engine a search of
	// it would run, for rgkit grep and for the agent tools, and why.
	Dir     string         `json:"dir,omitempty"`
	Engines []Choice       `json:"engines,omitempty"`
	Env     map[string]any `json:"environment"`
}

// Tool describes one external search tool.
type Tool struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	Version string `json:"version,omitempty"`
	Flavour string `json:"flavour,omitempty"` // GNU, BSD, BusyBox, ...
	PCRE    *bool  `json:"pcre,omitempty"`    // -P works; nil when not probed
	Error   string `json:"error,omitempty"`
}

// envVars lists the variables that change rgkit's decisions.
var envVars = []string{"RGKIT_RG_PATH", "RGKIT_BIN_DIR", "RGKIT_MIRROR", "RGKIT_OFFLINE", "RGKIT_NO_DOWNLOAD",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "GITHUB_TOKEN"}

// Diagnose gathers the report. The git and grep versions and flavours are
// what the search engines themselves detect (their Available), plus a -P
// probe under a short timeout; it never touches the network.
func Diagnose(ctx context.Context, r *rgfetch.Resolver, t platforms.Target) Report {
	rep := Report{Platform: t.String(), PageSize: t.PageSize, Rg: r.Explain(ctx), Env: map[string]any{}}
	if t.Translated {
		rep.Platform += ", translated (Rosetta 2 / emulation)"
	}
	rep.Tools = []Tool{probeGit(ctx, gitgrep.New()), probeGrep(ctx, sysgrep.New())}
	if dir, err := os.Getwd(); err == nil {
		rep.Dir = dir
		rep.Engines = ChooseEngines(ctx, backends.Default(backends.Options{Locate: realrg.Locate()}), dir)
	}
	for _, k := range envVars {
		if v := os.Getenv(k); v != "" {
			switch k {
			case "GITHUB_TOKEN":
				v = "(set)"
			case "RGKIT_MIRROR", "HTTPS_PROXY", "HTTP_PROXY":
				v = redactURL(v)
			}
			rep.Env[k] = v
		}
	}
	return rep
}

// RgObtainable reports whether the trace ends with a usable rg or a
// download that would be attempted.
func RgObtainable(tr rgfetch.Trace) bool {
	if tr.Chosen != nil {
		return true
	}
	n := len(tr.Steps)
	return n > 0 && tr.Steps[n-1].Verdict == rgfetch.VerdictWouldDownload
}

// Print writes the report for a person.
func Print(w io.Writer, rep Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "platform:\t%s, page size %d\n", rep.Platform, rep.PageSize)
	triple := rep.Rg.Triple
	if triple == "" {
		triple = "(no release asset for this platform)"
	}
	fmt.Fprintf(tw, "release triple:\t%s (ripgrep %s)\n", triple, rep.Rg.Version)
	switch c := rep.Rg.Chosen; {
	case c != nil:
		fmt.Fprintf(tw, "ripgrep:\t%s %s (%s)\n", c.Path, c.Version, c.Source)
	case RgObtainable(rep.Rg):
		fmt.Fprintf(tw, "ripgrep:\tnone yet; `rgkit fetch` would download it\n")
	default:
		fmt.Fprintf(tw, "ripgrep:\tunavailable\n")
	}
	tw.Flush()
	fmt.Fprintln(w, "resolution:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, st := range rep.Rg.Steps {
		what := st.Path
		if st.Version != "" {
			what += " " + st.Version
		}
		if what != "" {
			what += ": "
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", st.Source, st.Verdict, what, st.Reason)
	}
	tw.Flush()
	fmt.Fprintln(w, "tools:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, t := range rep.Tools {
		if t.Error != "" {
			fmt.Fprintf(tw, "  %s\tunavailable: %s\n", t.Name, t.Error)
			continue
		}
		desc := t.Path + " " + t.Version
		if t.Flavour != "" {
			desc += " (" + t.Flavour + ")"
		}
		if t.PCRE != nil {
			desc += fmt.Sprintf(", -P (PCRE): %s", yesNo(*t.PCRE))
		}
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, desc)
	}
	tw.Flush()
	if len(rep.Engines) > 0 {
		fmt.Fprintf(w, "engines for a search of %s:\n", rep.Dir)
		for _, c := range rep.Engines {
			fmt.Fprintf(w, "  %s: %s\n", c.For, c.Engine)
			for _, why := range c.Why {
				fmt.Fprintf(w, "    %s\n", why)
			}
		}
	}
	if len(rep.Env) > 0 {
		fmt.Fprintln(w, "environment:")
		for _, k := range envVars {
			if v, ok := rep.Env[k]; ok {
				fmt.Fprintf(w, "  %s=%v\n", k, v)
			}
		}
	}
}

// redactURL masks the password of a URL with userinfo (mirrors and proxies
// may carry credentials), keeping the rest readable.
func redactURL(v string) string {
	if u, err := url.Parse(v); err == nil && u.User != nil {
		return u.Redacted()
	}
	if at := strings.LastIndex(v, "@"); at >= 0 {
		return "xxxxx" + v[at:]
	}
	return v
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
