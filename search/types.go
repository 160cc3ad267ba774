package search

//go:generate go run ../scripts/gentypes -want 15.2.0 -o types_table.go

import (
	"fmt"
	"slices"
	"sort"
)

// TypeGlobs turns rg file type names (as in rg -t go) into include globs,
// from one table shared by every engine, so "-t ts" selects the same files
// whichever engine runs. Globs are rg type globs: matched against the file's
// base name. Duplicates are removed; an unknown name is an error, as in rg
// ("unrecognized file type").
func TypeGlobs(types []string) ([]string, error) {
	var out []string
	for _, t := range types {
		globs, ok := typeTable[t]
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

// TypeNames lists the known type names, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(typeTable))
	for n := range typeTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
