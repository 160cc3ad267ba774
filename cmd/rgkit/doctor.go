package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/platforms"
	"github.com/rgkit/rgkit/rgfetch"
	"github.com/rgkit/rgkit/search/gitgrep"
	"github.com/rgkit/rgkit/search/sysgrep"
)

// doctorReport is what `rgkit doctor` finds; --json prints it as is.
type doctorReport struct {
	Platform string         `json:"platform"`
	PageSize int            `json:"page_size"`
	Rg       rgfetch.Trace  `json:"ripgrep"`
	Tools    []toolReport   `json:"tools"`
	Env      map[string]any `json:"environment"`
}

// toolReport describes one external search tool.
type toolReport struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	Version string `json:"version,omitempty"`
	Flavour string `json:"flavour,omitempty"` // GNU, BSD, BusyBox, ...
	PCRE    *bool  `json:"pcre,omitempty"`    // -P works; nil when not probed
	Error   string `json:"error,omitempty"`
}

// doctorEnv lists the variables that change rgkit's decisions.
var doctorEnv = []string{"RGKIT_RG_PATH", "RGKIT_BIN_DIR", "RGKIT_MIRROR", "RGKIT_OFFLINE", "RGKIT_NO_DOWNLOAD",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "GITHUB_TOKEN"}

func newDoctorCmd(s streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show the platform, which rg would be used and why, and the git and grep available",
		Long: `Show the platform and its ripgrep release triple, each step of the rg
resolution with its verdict (nothing is downloaded), and whether git and
grep are available, with versions, flavours and -P (PCRE) support.

Exit status: 0 when an rg is available or would be installed, 1 when none
can be had, 2 on an error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rep := diagnose(cmd.Context(), &rgfetch.Resolver{}, platforms.Detect())
			if asJSON {
				enc := json.NewEncoder(s.out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				printDoctor(s.out, rep)
			}
			if !rgObtainable(rep.Rg) {
				return &exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// diagnose gathers the report. The git and grep versions and flavours are
// what the search engines themselves detect (their Available), plus a -P
// probe under a short timeout; it never touches the network.
func diagnose(ctx context.Context, r *rgfetch.Resolver, t platforms.Target) doctorReport {
	rep := doctorReport{Platform: t.String(), PageSize: t.PageSize, Rg: r.Explain(ctx), Env: map[string]any{}}
	if t.Translated {
		rep.Platform += ", translated (Rosetta 2 / emulation)"
	}
	rep.Tools = []toolReport{probeGit(ctx, gitgrep.New()), probeGrep(ctx, sysgrep.New())}
	for _, k := range doctorEnv {
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

// rgObtainable reports whether the trace ends with a usable rg or a
// download that would be attempted.
func rgObtainable(tr rgfetch.Trace) bool {
	if tr.Chosen != nil {
		return true
	}
	n := len(tr.Steps)
	return n > 0 && tr.Steps[n-1].Verdict == rgfetch.VerdictWouldDownload
}

func printDoctor(w io.Writer, rep doctorReport) {
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
	case rgObtainable(rep.Rg):
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
	if len(rep.Env) > 0 {
		fmt.Fprintln(w, "environment:")
		for _, k := range doctorEnv {
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
