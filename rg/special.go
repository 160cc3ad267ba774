package rg

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/buildinfo"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// versionLine is the first line of -V, --version, -h and --help: rg's
// own, without a git revision, so that a tool that gates on "ripgrep
// 15.2.0" accepts this rg.
const versionLine = "ripgrep " + search.ReferenceVersion + "\n"

// DefaultAbout is what --version prints below its first line when
// Program.Version is nil.
func DefaultAbout(w io.Writer) {
	fmt.Fprintf(w, "rgkit %s: a pure-Go implementation of ripgrep %s's command line\n", buildinfo.Version(), search.ReferenceVersion)
}

// special answers -h, --help, -V, --version and --pcre2-version, as rg
// does before reading its config file. With --backend auto or ripgrep an
// rg 15 answers the version flags itself (and any rg --pcre2-version, as
// any rg runs -P); help is always this program's, which names the flags
// it refuses and adds.
func (p *Program) special(ctx context.Context, s streams, o *rgcli.Options, args []string, delegate func(string, []string) (int, bool)) int {
	viaRg := o.Format != "rgkit-json" && (o.Backend == "" || o.Backend == "auto" || o.Backend == "ripgrep")
	switch o.Special {
	case rgcli.HelpShort, rgcli.HelpLong:
		body := rgcli.HelpShortBody
		if o.Special == rgcli.HelpLong {
			body = rgcli.HelpLongBody
		}
		fmt.Fprint(s.out, versionLine)
		DefaultAbout(s.out)
		io.WriteString(s.out, body)
		io.WriteString(s.out, rgkitHelp())
		return 0
	case rgcli.VersionPCRE2:
		if viaRg {
			if code, ok := delegate("", StripRgkitFlags(args)); ok {
				return code
			}
		}
		fmt.Fprintln(s.out, native.PCRE2Version())
		return 0
	}
	if viaRg {
		if code, ok := delegate("15.", StripRgkitFlags(args)); ok {
			return code
		}
	}
	io.WriteString(s.out, versionLine)
	if o.Special == rgcli.VersionLong {
		if p.Version != nil {
			p.Version(ctx, s.out)
		} else {
			DefaultAbout(s.out)
		}
		// -P is PCRE2's dialect emulated on regexp2 (docs/pcre.md).
		fmt.Fprintf(s.out, "\nfeatures:+pcre2\n\n%s\n", native.PCRE2Version())
	}
	return 0
}

// rgkitHelp is the section -h and --help add after rg's text: the flags
// refused (from the table checkSupported reads) and rgkit's own flags.
func rgkitHelp() string {
	var b strings.Builder
	b.WriteString("\nRGKIT:\n")
	b.WriteString("  This rg is rgkit's pure-Go implementation of ripgrep " + search.ReferenceVersion + "'s command\n")
	b.WriteString("  line. It refuses what its engines cannot honour, with the reason:\n")
	for _, u := range unsupportedFlags {
		fmt.Fprintf(&b, "    %s\n", u.flag)
	}
	b.WriteString("  and adds two flags of its own:\n")
	b.WriteString("  --backend=ENGINE                auto, fastest or native (rgkit grep adds\n")
	b.WriteString("                                  ripgrep, gitgrep and grep).\n")
	b.WriteString("  --format=FORMAT                 rg (default) or rgkit-json (compact JSON Lines).\n")
	return b.String()
}
