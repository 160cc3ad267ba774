package search

//go:generate go run ../scripts/gentypes -want 15.2.0 -package search -o types_table.go

import (
	"fmt"
	"slices"
	"strings"
)

// TypeGlobs turns rg file type names (as in rg -t go) into include globs,
// from one table shared by every engine, so "-t ts" selects the same files
// whichever engine runs. Globs are rg type globs: matched against the file's
// base name. Duplicates are removed; an unknown name is an error, as in rg
// ("unrecognized file type").
func TypeGlobs(types []string) ([]string, error) {
	var out []string
	for _, t := range types {
		globs, ok := builtinType(t)
		if !ok {
			return nil, fmt.Errorf("unrecognized file type: %q", t)
		}
		for _, g := range globs {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out, nil
}

// fileType is one row of typeTable.
type fileType struct {
	name  string
	globs []string
}

// builtinType returns the globs of rg's built-in type name.
func builtinType(name string) ([]string, bool) {
	i, ok := slices.BinarySearchFunc(typeTable, name, func(t fileType, name string) int { return strings.Compare(t.name, name) })
	if !ok {
		return nil, false
	}
	return typeTable[i].globs, true
}

// TypeNames lists the known type names, sorted.
func TypeNames() []string {
	names := make([]string, len(typeTable))
	for i, t := range typeTable {
		names[i] = t.name
	}
	return names
}
