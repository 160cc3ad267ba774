package native

import "github.com/rgkit/rgkit/search"

// overrides are WalkOptions.Globs, applied like rg's --glob (the ignore
// crate's Override): each glob is a gitignore line with the sense inverted,
// so a plain glob whitelists and a "!glob" excludes; the last matching glob
// wins; and when at least one plain glob exists, a file matching none is
// excluded. Directories are never excluded for failing to match, so the walk
// still descends into them.
type overrides struct {
	rules      []ignoreRule
	whitelists int
}

func newOverrides(globs []string) (*overrides, error) {
	return newOverridesFold(globs, nil, false)
}

// newOverridesFold is newOverrides with rg's case-insensitive globs: fold
// makes globs compare ignoring ASCII case (--glob-case-insensitive), and
// iglobs (--iglob), always folded, come after them all, as rg adds them.
func newOverridesFold(globs, iglobs []string, fold bool) (*overrides, error) {
	if len(globs) == 0 && len(iglobs) == 0 {
		return nil, nil
	}
	o := &overrides{}
	add := func(g string, fold bool) error {
		r, ok, err := parseIgnoreLineFold(g, false, fold)
		if err != nil {
			return err
		}
		if !ok {
			return nil // rg drops comment and blank globs too
		}
		if !r.whitelist {
			o.whitelists++
		}
		o.rules = append(o.rules, r)
		return nil
	}
	for _, g := range globs {
		if err := add(g, fold); err != nil {
			return nil, err
		}
	}
	for _, g := range iglobs {
		if err := add(g, true); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// match is the overrides' verdict for path (relative to Root).
func (o *overrides) match(path string, isDir bool) ignoreMatch {
	if o == nil {
		return matchNone
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

// typeFilter is WalkOptions.TypeGlobs and TypeSelections, applied like
// rg's --type and --type-not (the ignore crate's Types): matched against
// the file name only; the last selection with a matching glob decides (a
// match of an included type whitelists the file, which, as in rg, lets a
// hidden file of the type through; a negated one excludes it); a file
// that matches none is excluded when some selection includes.
// Directories are not filtered.
type typeFilter struct {
	sels     []typeSel
	selected bool // some selection includes
}

// typeSel is one compiled selection.
type typeSel struct {
	globs  []*glob
	negate bool
}

// newTypeFilterSelections compiles globs (one including selection) and
// then sels, in order.
func newTypeFilterSelections(globs []string, sels []search.TypeSelection) (*typeFilter, error) {
	if len(globs) == 0 && len(sels) == 0 {
		return nil, nil
	}
	t := &typeFilter{}
	add := func(globs []string, negate bool) error {
		ts := typeSel{negate: negate}
		for _, s := range globs {
			g, err := compileGlob(s, false)
			if err != nil {
				return err
			}
			ts.globs = append(ts.globs, g)
		}
		t.sels = append(t.sels, ts)
		t.selected = t.selected || !negate
		return nil
	}
	if len(globs) > 0 {
		if err := add(globs, false); err != nil {
			return nil, err
		}
	}
	for _, s := range sels {
		if err := add(s.Globs, s.Negate); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *typeFilter) match(name string, isDir bool) ignoreMatch {
	if t == nil || isDir {
		return matchNone
	}
	for i := len(t.sels) - 1; i >= 0; i-- {
		for _, g := range t.sels[i].globs {
			if g.match(name) {
				if t.sels[i].negate {
					return matchIgnore
				}
				return matchWhitelist
			}
		}
	}
	if t.selected {
		return matchIgnore
	}
	return matchNone
}

// CheckGlob reports whether g is a valid rg --glob (a *GlobError if not),
// so callers can refuse a bad glob before any engine runs.
func CheckGlob(g string) error {
	_, _, err := parseIgnoreLine(g, false)
	return err
}

// CheckTypeGlob reports whether g is a valid rg type glob (a *GlobError
// if not), as rg compiles the globs of the types a command line selects.
func CheckTypeGlob(g string) error {
	_, err := compileGlob(g, false)
	return err
}
