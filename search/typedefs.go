package search

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// TypeDefs is a file type table that a command line changes as rg's
// --type-add and --type-clear do, starting from the shared table.
type TypeDefs struct {
	defs map[string][]string
}

// ErrInvalidTypeDef is a --type-add definition rg refuses, in rg's words.
var ErrInvalidTypeDef = errors.New("invalid definition (format is type:glob, e.g., html:*.html)")

// DefaultTypeDefs is rg 15.2.0's built-in table.
func DefaultTypeDefs() *TypeDefs {
	d := &TypeDefs{defs: make(map[string][]string, len(typeTable))}
	for _, t := range typeTable {
		d.defs[t.name] = slices.Clone(t.globs)
	}
	return d
}

// Add applies one --type-add: "name:glob" adds one glob (a single glob,
// braces included, never split at commas); "name:include:a,b" adds every
// glob the types a and b have now. The name must be alphanumeric and not
// "all"; anything else is ErrInvalidTypeDef, as in rg.
func (d *TypeDefs) Add(spec string) error {
	parts := strings.Split(spec, ":")
	switch len(parts) {
	case 2:
		if parts[0] == "" || parts[1] == "" {
			return ErrInvalidTypeDef
		}
		return d.add(parts[0], parts[1])
	case 3:
		name, types := parts[0], parts[2]
		if name == "" || parts[1] != "include" || types == "" {
			return ErrInvalidTypeDef
		}
		included := strings.Split(types, ",")
		for _, t := range included {
			if _, ok := d.defs[t]; !ok {
				return ErrInvalidTypeDef
			}
		}
		for _, t := range included {
			for _, g := range slices.Clone(d.defs[t]) {
				if err := d.add(name, g); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return ErrInvalidTypeDef
}

func (d *TypeDefs) add(name, glob string) error {
	if name == "all" || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) >= 0 {
		return ErrInvalidTypeDef
	}
	d.defs[name] = append(d.defs[name], glob)
	return nil
}

// Clear applies one --type-clear: the type has no globs and no longer
// exists (an unknown name is no error).
func (d *TypeDefs) Clear(name string) { delete(d.defs, name) }

// Names lists the defined types, sorted.
func (d *TypeDefs) Names() []string {
	names := make([]string, 0, len(d.defs))
	for n := range d.defs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Globs are a type's globs as rg --type-list prints them: sorted (a glob
// added twice is listed twice); ok is false for an unknown type.
func (d *TypeDefs) Globs(name string) (globs []string, ok bool) {
	g, ok := d.defs[name]
	if !ok {
		return nil, false
	}
	g = slices.Clone(g)
	slices.Sort(g)
	return g, true
}

// Selection resolves one -t (or, negate, -T) against the table as it is
// now (rg resolves selections after every --type-add and --type-clear;
// "all" is the caller's to expand, with Names, where it stands). An
// unknown name is rg's "unrecognized file type" error.
func (d *TypeDefs) Selection(name string, negate bool) (TypeSelection, error) {
	g, ok := d.defs[name]
	if !ok {
		return TypeSelection{}, fmt.Errorf("unrecognized file type: %s", name)
	}
	return TypeSelection{Name: name, Globs: slices.Clone(g), Negate: negate}, nil
}
