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
	{"--generate", "rg generates its man page and shell completions from its own flag definitions; rgkit carries no copy of them", func(o *rgcli.Options) bool { return o.Has("generate") }},
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

// printTypeList prints --type-list from the library's table as the
// command line's --type-add and --type-clear leave it, in rg's
// "name: glob, glob" form.
func printTypeList(s streams, o *rgcli.Options) int {
	defs, _, err := typeFlags(o)
	if err == nil {
		// rg builds the selections too: an unknown or invalid one fails.
		err = selectTypeOps(&search.Query{}, o)
	}
	if err != nil {
		fmt.Fprintln(s.errOut, "rg:", err)
		return 2
	}
	names := defs.Names()
	for _, name := range names {
		globs, _ := defs.Globs(name)
		fmt.Fprintf(s.out, "%s: %s\n", name, strings.Join(globs, ", "))
	}
	if len(names) == 0 {
		return 1
	}
	return 0
}

// checkGlobs refuses an invalid -g glob before any engine runs, worded as
// rg words it ("error parsing glob '[': unclosed character class; missing
// ']'"), whichever engine would have reported it.
func checkGlobs(o *rgcli.Options) error {
	for _, g := range o.Globs {
		if err := native.CheckGlob(g.Pattern); err != nil {
			if e := globError(strings.TrimPrefix(g.Pattern, "!"), err); e != nil {
				return e
			}
		}
	}
	return nil
}

// globError words a *native.GlobError for glob as rg does; nil for any
// other error.
func globError(glob string, err error) error {
	var ge *native.GlobError
	if !errors.As(err, &ge) {
		return nil
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
	return fmt.Errorf("error parsing glob '%s': %s", glob, reason)
}
