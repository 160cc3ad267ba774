package native

import "strings"

// overrides are WalkOptions.Globs, applied like rg's --glob (the ignore
// crate's Override): each glob is a gitignore line with the sense inverted,
// so a plain glob whitelists and a "!glob" excludes; the last matching glob
// wins; and when at least one plain glob exists, a file matching none is
// excluded. Directories are never excluded for failing to match, so the walk
// still descends into them.
type overrides struct {
	rules      []ignoreRule
	whitelists int
	base       string // WalkOptions.GlobBase with a trailing slash, or ""
	cwd        string // WalkOptions.GlobCwd
}

func newOverrides(globs []string) (*overrides, error) {
	if len(globs) == 0 {
		return nil, nil
	}
	o := &overrides{}
	for _, g := range globs {
		r, ok, err := parseIgnoreLine(g, false)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // rg drops comment and blank globs too
		}
		if !r.whitelist {
			o.whitelists++
		}
		o.rules = append(o.rules, r)
	}
	return o, nil
}

// match is the overrides' verdict for path (relative to Root).
func (o *overrides) match(path string, isDir bool) ignoreMatch {
	if o == nil {
		return matchNone
	}
	path = o.base + path
	if o.cwd != "" && strings.HasPrefix(path, o.cwd) {
		path = strings.TrimPrefix(path[len(o.cwd):], "/")
	}
	for i := len(o.rules) - 1; i >= 0; i-- {
		r := &o.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.g.match(path) {
			if r.whitelist {
				return matchIgnore
			}
			return matchWhitelist
		}
	}
	if o.whitelists > 0 && !isDir {
		return matchIgnore
	}
	return matchNone
}

// typeFilter is WalkOptions.TypeGlobs, applied like rg's --type: matched
// against the file name only, with '*' free to match anything; a file that
// matches none is excluded, a file that matches is whitelisted (which, as in
// rg, lets a hidden file of the type through). Directories are not filtered.
type typeFilter struct {
	globs []*glob
}

func newTypeFilter(globs []string) (*typeFilter, error) {
	if len(globs) == 0 {
		return nil, nil
	}
	t := &typeFilter{}
	for _, s := range globs {
		g, err := compileGlob(s, false)
		if err != nil {
			return nil, err
		}
		t.globs = append(t.globs, g)
	}
	return t, nil
}

func (t *typeFilter) match(name string, isDir bool) ignoreMatch {
	if t == nil || isDir {
		return matchNone
	}
	for _, g := range t.globs {
		if g.match(name) {
			return matchWhitelist
		}
	}
	return matchIgnore
}

// CheckGlob reports whether g is a valid rg --glob (a *GlobError if not),
// so callers can refuse a bad glob before any engine runs.
func CheckGlob(g string) error {
	_, _, err := parseIgnoreLine(g, false)
	return err
}
