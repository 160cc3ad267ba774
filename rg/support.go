package rg

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// unsupportedFlags are rg flags the library's engines cannot honour, with
// the reason given to the user. rg itself (the passthrough) honours them
// all; docs/cli.md lists them.
var unsupportedFlags = []struct {
	flag, why string
	given     func(o *rgcli.Options) bool
}{
	{"-P/--pcre2", "PCRE2 syntax needs the ripgrep engine; rgkit's engines speak rg's default (Rust) regex syntax", func(o *rgcli.Options) bool { return o.PCRE2 }},
	{"-v/--invert-match with context, -o, --count-matches or --json", "inverted lines are listed file by file without those", func(o *rgcli.Options) bool {
		b, a := o.ContextLines()
		return o.Invert && (b > 0 || a > 0 || o.OnlyMatching || o.Vimgrep || o.Mode == rgcli.ModeCountMatches || o.Mode == rgcli.ModeJSON || o.Passthru)
	}},
	{"--passthru with --json, -o or --count-matches", "passthru is printed file by file by the standard printer", func(o *rgcli.Options) bool {
		return o.Passthru && (o.Mode == rgcli.ModeJSON || o.OnlyMatching || o.Mode == rgcli.ModeCountMatches)
	}},
	{"--null-data with -v or --passthru", "inverted and passthru listings split lines at '\\n'", func(o *rgcli.Options) bool {
		return o.NullData && (o.Invert || o.Passthru)
	}},
	{"--include-zero", "the engines report only files with a match", func(o *rgcli.Options) bool { return o.IncludeZero }},
	{"--stop-on-nonmatch", "not implemented by the engines", func(o *rgcli.Options) bool { return o.StopOnNonmatch }},
	{"-d/--max-depth", "the engines walk the whole tree", func(o *rgcli.Options) bool { return o.MaxDepth != nil }},
	{"--iglob", "case-insensitive globs are not supported", func(o *rgcli.Options) bool { return hasIglob(o) }},
	{"--glob-case-insensitive", "case-insensitive globs are not supported", func(o *rgcli.Options) bool { return o.GlobCaseInsensitive }},
	{"--ignore-file", "extra ignore files are not supported", func(o *rgcli.Options) bool { return len(o.IgnoreFiles) > 0 }},
	{"--no-ignore-vcs/-dot/-parent/-global/-exclude/-files, --no-require-git", "ignore rules are applied all together or not at all (--no-ignore)", func(o *rgcli.Options) bool {
		return o.NoIgnoreVCS || o.NoIgnoreDot || o.NoIgnoreParent || o.NoIgnoreGlobal || o.NoIgnoreExclude || o.NoIgnoreFiles || o.NoRequireGit
	}},
	{"--one-file-system", "not implemented by the walker", func(o *rgcli.Options) bool { return o.OneFileSystem }},
	{"--type-add/--type-clear", "the type table is fixed", func(o *rgcli.Options) bool { return len(o.TypeOps) > 0 }},
	{"--sort created", "file creation time is not read", func(o *rgcli.Options) bool { return o.Sort == rgcli.SortCreated }},
	{"--hyperlink-format", "hyperlinks are not printed", func(o *rgcli.Options) bool { return o.HyperlinkFormat != "" }},
	{"--generate", "man pages and completions come from rg", func(o *rgcli.Options) bool { return o.Has("generate") }},
	{"--pcre2-version", "there is no PCRE2", func(o *rgcli.Options) bool { return o.Has("pcre2-version") }},
}

func hasIglob(o *rgcli.Options) bool {
	for _, g := range o.Globs {
		if g.CaseInsensitive {
			return true
		}
	}
	return false
}

// checkSupported refuses, with the reason, an rg flag the library's
// engines cannot honour, instead of giving a different answer silently.
func checkSupported(o *rgcli.Options) error {
	for _, u := range unsupportedFlags {
		if u.given(o) {
			return &errUnsupported{flag: u.flag, why: u.why}
		}
	}
	return checkGlobs(o)
}

// printTypeList prints --type-list from the library's table, in rg's
// "name: glob, glob" form.
func printTypeList(s streams, o *rgcli.Options) int {
	for _, name := range search.TypeNames() {
		globs, _ := search.TypeGlobs([]string{name})
		fmt.Fprintf(s.out, "%s: %s\n", name, strings.Join(globs, ", "))
	}
	return 0
}

// Help is `rgkit grep -h`: a pointer to rg's flags plus rgkit's own.
const Help = `rgkit grep (rg 15.2.0's command line)

USAGE:
  rgkit grep [OPTIONS] PATTERN [PATH ...]
  rg [OPTIONS] PATTERN [PATH ...]         (rgkit installed as rg)

Every flag of rg 15.2.0 is accepted with rg's meaning (see rg --help).
With an rg 15.x on this machine the command line runs through it;
otherwise rgkit's engines search and print rg's output byte for byte.
Flags the engines cannot honour are refused with the reason.

RGKIT OPTIONS:
  --backend=ENGINE   auto (default), fastest, ripgrep, gitgrep, grep, native
  --format=FORMAT    rg (default) or rgkit-json (rgkit's compact JSON Lines)
`

// checkGlobs refuses an invalid -g glob before any engine runs, worded as
// rg words it ("error parsing glob '[': unclosed character class; missing
// ']'"), whichever engine would have reported it.
func checkGlobs(o *rgcli.Options) error {
	for _, g := range o.Globs {
		err := native.CheckGlob(g.Pattern)
		var ge *native.GlobError
		if !errors.As(err, &ge) {
			continue
		}
		reason := ge.Reason
		var lo, hi rune
		switch {
		case strings.HasPrefix(reason, "unclosed character class"):
			reason = "unclosed character class; missing ']'"
		case strings.HasPrefix(reason, "unclosed alternate group"):
			reason = "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"
		default:
			if n, _ := fmt.Sscanf(reason, "invalid range %c-%c", &lo, &hi); n == 2 {
				reason = fmt.Sprintf("invalid range; '%c' > '%c'", lo, hi)
			}
		}
		return fmt.Errorf("error parsing glob '%s': %s", strings.TrimPrefix(g.Pattern, "!"), reason)
	}
	return nil
}
