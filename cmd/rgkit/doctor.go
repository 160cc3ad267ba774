package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/platforms"
	"github.com/rgkit/rgkit/rgfetch"
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

// diagnose gathers the report. It runs each tool's --version and a -P probe
// under a short timeout; it never touches the network.
func diagnose(ctx context.Context, r *rgfetch.Resolver, t platforms.Target) doctorReport {
	rep := doctorReport{Platform: t.String(), PageSize: t.PageSize, Rg: r.Explain(ctx), Env: map[string]any{}}
	if t.Translated {
		rep.Platform += ", translated (Rosetta 2 / emulation)"
	}
	rep.Tools = []toolReport{probeGit(ctx), probeGrep(ctx)}
	for _, k := range doctorEnv {
		if v := os.Getenv(k); v != "" {
			if k == "GITHUB_TOKEN" {
				v = "(set)"
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

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// probeTimeout bounds each probe command.
const probeTimeout = 5 * time.Second

// runProbe runs a tool with no shell, LC_ALL=C, stdin from in, under the
// probe timeout, and returns stdout+stderr and the exit code (-1 when it
// did not run).
func runProbe(ctx context.Context, dir string, in string, name string, args ...string) ([]byte, int) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	cmd.Stdin = strings.NewReader(in)
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &ee):
		return out, ee.ExitCode()
	}
	return out, -1
}

var (
	gitVersionRE  = regexp.MustCompile(`git version (\S+)`)
	grepVersionRE = regexp.MustCompile(`(?m)^grep \(([^)]*)\) (\S+)`)
)

// probeGit reports git's version and whether git grep -P works (git built
// with libpcre2).
func probeGit(ctx context.Context) toolReport {
	rep := toolReport{Name: "git"}
	path, err := exec.LookPath("git")
	if err != nil {
		rep.Error = "not on PATH"
		return rep
	}
	rep.Path = path
	out, code := runProbe(ctx, "", "", path, "--version")
	m := gitVersionRE.FindSubmatch(out)
	if code != 0 || m == nil {
		rep.Error = fmt.Sprintf("--version failed: %s", firstLine(out))
		return rep
	}
	rep.Version = string(m[1])
	dir, err := os.MkdirTemp("", "rgkit-doctor-")
	if err != nil {
		return rep
	}
	defer os.RemoveAll(dir)
	if os.WriteFile(filepath.Join(dir, "probe.txt"), []byte("ab\n"), 0o644) == nil {
		// A look-ahead exists only in PCRE; exit 0 means it matched.
		_, code := runProbe(ctx, dir, "", path, "grep", "--no-index", "-P", "-e", "a(?=b)", "--", "probe.txt")
		ok := code == 0
		rep.PCRE = &ok
	}
	return rep
}

// probeGrep reports grep's version, flavour (GNU, BSD, BusyBox) and
// whether -P works.
func probeGrep(ctx context.Context) toolReport {
	rep := toolReport{Name: "grep"}
	path, err := exec.LookPath("grep")
	if err != nil {
		rep.Error = "not on PATH"
		return rep
	}
	rep.Path = path
	out, _ := runProbe(ctx, "", "", path, "--version")
	rep.Version, rep.Flavour = grepFlavour(out)
	_, code := runProbe(ctx, "", "ab\n", path, "-P", "-e", "a(?=b)")
	ok := code == 0
	rep.PCRE = &ok
	return rep
}

// grepFlavour reads `grep --version` output.
func grepFlavour(out []byte) (version, flavour string) {
	switch m := grepVersionRE.FindSubmatch(out); {
	case m != nil && bytes.Contains(m[1], []byte("GNU grep")):
		return string(m[2]), "GNU"
	case m != nil && bytes.Contains(m[1], []byte("BSD")):
		return string(m[2]), "BSD"
	case bytes.Contains(out, []byte("BusyBox")):
		return "", "BusyBox"
	case m != nil:
		return string(m[2]), string(m[1])
	}
	return "", "unknown (" + firstLine(out) + ")"
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
	return string(line)
}
