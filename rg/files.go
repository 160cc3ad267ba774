package rg

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// selectFiles sets the Query fields that say which files rg searches:
// globs, types, hidden files, ignore files, depth and file systems.
func selectFiles(q *search.Query, o *rgcli.Options) error {
	if err := sortSupported(o); err != nil {
		return err
	}
	for _, g := range o.Globs {
		if g.CaseInsensitive {
			q.IGlobs = append(q.IGlobs, g.Pattern)
		} else {
			q.Globs = append(q.Globs, g.Pattern)
		}
	}
	q.GlobCaseInsensitive = o.GlobCaseInsensitive
	if err := selectTypes(q, o); err != nil {
		return err
	}
	q.Hidden = o.Hidden
	q.GitDir = true // rg has no rule for .git: it is a hidden directory
	q.NoIgnoreDot, q.NoIgnoreVCS, q.NoIgnoreExclude = o.NoIgnoreDot, o.NoIgnoreVCS, o.NoIgnoreExclude
	q.NoIgnoreGlobal, q.NoIgnoreParent, q.NoRequireGit = o.NoIgnoreGlobal, o.NoIgnoreParent, o.NoRequireGit
	// The five together are the library's NoIgnore, which every engine
	// knows.
	q.NoIgnore = q.NoIgnoreDot && q.NoIgnoreVCS && q.NoIgnoreExclude && q.NoIgnoreGlobal && q.NoIgnoreParent
	q.IgnoreCaseInsensitive = o.IgnoreFileCaseInsensitive
	if !o.NoIgnoreFiles {
		q.IgnoreFiles = o.IgnoreFiles
	}
	if o.MaxDepth != nil {
		q.MaxDepth, q.MaxDepthSet = *o.MaxDepth, true
	}
	q.OneFileSystem = o.OneFileSystem
	return nil
}

// selectTypes applies -t, -T, --type-add and --type-clear as rg does: the
// table changes in command-line order, and the selections are resolved
// against the final table ("all" against the table where it stands). A
// command line of -t names alone keeps the library's Types, which every
// engine knows.
func selectTypes(q *search.Query, o *rgcli.Options) error {
	if len(o.TypesNot) == 0 && !o.HasTypeDefs() {
		for _, t := range o.Types {
			if t == "all" {
				return selectTypeOps(q, o)
			}
		}
		if _, err := search.TypeGlobs(o.Types); err != nil {
			return typeError(err)
		}
		q.Types = o.Types
		return nil
	}
	return selectTypeOps(q, o)
}

// selectTypeOps resolves the type flags into q.TypeSelections.
func selectTypeOps(q *search.Query, o *rgcli.Options) error {
	defs, sels, err := typeFlags(o)
	if err != nil {
		return err
	}
	for _, p := range sels {
		s, err := defs.Selection(p.name, p.negate)
		if err != nil {
			return err
		}
		q.TypeSelections = append(q.TypeSelections, s)
	}
	return checkTypeGlobs(q.TypeSelections)
}

// typeSelection is one -t (or, negate, -T) name not yet resolved.
type typeSelection struct {
	name   string
	negate bool
}

// typeFlags applies --type-add and --type-clear in order and gathers the
// selections, "all" expanded to the types defined where it stands.
func typeFlags(o *rgcli.Options) (*search.TypeDefs, []typeSelection, error) {
	defs := search.DefaultTypeDefs()
	var sels []typeSelection
	for _, op := range o.TypeOps {
		negate := op.Kind == rgcli.TypeNegate
		switch {
		case op.Kind == rgcli.TypeAdd:
			if err := defs.Add(op.Spec); err != nil {
				return nil, nil, err
			}
		case op.Kind == rgcli.TypeClear:
			defs.Clear(op.Spec)
		case op.Spec == "all":
			for _, n := range defs.Names() {
				sels = append(sels, typeSelection{n, negate})
			}
		default:
			sels = append(sels, typeSelection{op.Spec, negate})
		}
	}
	return defs, sels, nil
}

// reportIgnoreFiles prints rg's message for each --ignore-file that cannot
// be read ("rg: FILE: No such file or directory (os error 2)"); rg then
// searches without it. --no-messages and --no-ignore-messages silence it.
func reportIgnoreFiles(errOut io.Writer, o *rgcli.Options, files []string) {
	if o.NoMessages || o.NoIgnoreMessages {
		return
	}
	for _, f := range files {
		data, err := os.Open(f)
		if err != nil {
			fmt.Fprintf(errOut, "rg: %s: %s\n", f, rgcli.OSError(err))
			continue
		}
		_, err = data.Read(make([]byte, 1))
		data.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(errOut, "rg: %s: line 1: %s\n", f, rgcli.OSError(err))
		}
	}
}

// checkTypeGlobs refuses a selected type's invalid glob as rg words it.
func checkTypeGlobs(sels []search.TypeSelection) error {
	for _, s := range sels {
		for _, g := range s.Globs {
			if e := globError(g, native.CheckTypeGlob(g)); e != nil {
				return e
			}
		}
	}
	return nil
}

// errNoCreationTime is rg's refusal of --sort created where the platform
// keeps no birth times (Rust's words for it).
var errNoCreationTime = errors.New("sorting by creation time isn't supported: creation time is not available on this platform currently")

// sortSupported refuses --sort created as rg does where birth times cannot
// be read: rg asks for its own executable's.
func sortSupported(o *rgcli.Options) error {
	if o.Sort != rgcli.SortCreated {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return errNoCreationTime
	}
	if _, ok := createdTime(exe); !ok {
		return errNoCreationTime
	}
	return nil
}

// globBase is a directory target's path as rg's walk names the files
// below it, relative to the working directory, for search.Query.GlobBase:
// the argument as written, without a leading "./" or trailing '/', and an
// absolute path inside the working directory made relative to it, as rg's
// globs strip that directory. For an absolute path outside it, cwd is the
// working directory, stripped from each path below it that starts with it
// (a root that holds the working directory).
func (t target) globBase() (base, cwd string) {
	if t.file || t.stream != nil {
		return "", ""
	}
	p := t.display
	if filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			if rel, ok := strings.CutPrefix(filepath.Clean(p), wd); ok && (rel == "" || os.IsPathSeparator(rel[0])) {
				p = strings.TrimLeft(rel, string(os.PathSeparator))
			} else {
				cwd = filepath.ToSlash(wd)
			}
		}
	}
	for strings.HasPrefix(p, "./") {
		p = strings.TrimLeft(p[2:], "/")
	}
	p = strings.TrimRight(p, "/")
	if p == "." {
		return "", ""
	}
	return filepath.ToSlash(p), cwd
}
