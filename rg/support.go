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
	{"--pre", "running a preprocessor per file is left to rg", func(o *rgcli.Options) bool { return o.Has("pre") || o.Has("pre-glob") }},
	{"-z/--search-zip", "decompression is left to rg", func(o *rgcli.Options) bool { return o.Has("search-zip") }},
	{"--include-zero", "the engines report only files with a match", func(o *rgcli.Options) bool { return o.IncludeZero }},
	{"-E/--encoding", "only UTF-8 (with BOM sniffing) is searched", func(o *rgcli.Options) bool {
		return o.Encoding != "" && o.Encoding != "auto" && o.Encoding != "utf-8" && o.Encoding != "utf8"
	}},
	{"--null-data", "NUL line terminators are not supported", func(o *rgcli.Options) bool { return o.NullData }},
	{"--crlf", "'$' before \\r\\n is not supported", func(o *rgcli.Options) bool { return o.CRLF }},
	{"--no-unicode", "matching is always Unicode-aware", func(o *rgcli.Options) bool { return o.NoUnicode }},
	{"-a/--text", "binary files are always skipped like rg's default", func(o *rgcli.Options) bool { return o.Text }},
	{"--binary/-uuu", "binary files are always skipped like rg's default", func(o *rgcli.Options) bool { return o.Binary }},
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
	{"--hostname-bin with --hyperlink-format", "running a program for the host name is left to rg", func(o *rgcli.Options) bool {
		return o.HostnameBin != "" && o.HyperlinkFormatActive()
	}},
	{"--generate", "rg generates its man page and shell completions from its own flag definitions; rgkit carries no copy of them", func(o *rgcli.Options) bool { return o.Has("generate") }},
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
