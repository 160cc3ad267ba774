// Package ucd holds the Unicode Character Database 16.0.0 tables rg 15's
// regex engine matches with: general categories, scripts and script
// extensions, the binary properties it knows, the grapheme, word and
// sentence break properties, their names and aliases, and simple case
// folding. Go's unicode package is Unicode 15.0 and lacks most of these
// properties; rg's answer for a character Unicode 16 added (U+A7DC, the
// Garay script) or for \p{Emoji} needs these.
//
// Every table is a sorted list of inclusive ranges, lo and hi runes in
// turn, held in read-only data: nothing here runs at start-up.
package ucd

import (
	"cmp"
	"slices"
)

//go:generate bash gen/gen.sh

// Version is the Unicode version of the tables.
const Version = "16.0.0"

// Kind names a property with tables: a general category, a script, ...
type Kind string

// The kinds of tables.
const (
	Binary          Kind = "bin" // a binary property (Alphabetic, Emoji, ...)
	GeneralCategory Kind = "gc"
	Script          Kind = "sc"
	ScriptExtension Kind = "scx"
	GraphemeBreak   Kind = "gcb"
	WordBreak       Kind = "wb"
	SentenceBreak   Kind = "sb"
)

// Short names for the generated tables.
const (
	bin = Binary
	gc  = GeneralCategory
	sc  = Script
	scx = ScriptExtension
	gcb = GraphemeBreak
	wb  = WordBreak
	sb  = SentenceBreak
)

type table struct {
	kind   Kind
	name   string // canonical: "Uppercase_Letter", "Greek", "Emoji"
	ranges []rune
}

type alias struct{ name, canonical string }

type valueAlias struct{ property, name, canonical string }

// Ranges is the table of the property value canonical of kind (as
// Property and Value name them), or false if there is none.
func Ranges(kind Kind, canonical string) ([]rune, bool) {
	i, ok := slices.BinarySearchFunc(tables[:], table{kind: kind, name: canonical}, func(a, b table) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.name, b.name))
	})
	if !ok {
		return nil, false
	}
	return tables[i].ranges, true
}

// Property is the long name of the property whose name or alias, in
// Unicode's loose form (lower case, no spaces, '_' or '-'), is name:
// "gc" and "generalcategory" are "General_Category", "alpha" is
// "Alphabetic". It knows every property, with tables here or not.
func Property(name string) (string, bool) {
	i, ok := slices.BinarySearchFunc(propertyNames[:], name, func(a alias, n string) int { return cmp.Compare(a.name, n) })
	if !ok {
		return "", false
	}
	return propertyNames[i].canonical, true
}

// Value is the canonical name of property's value whose name or alias,
// in the loose form, is name: for "General_Category", "lu" is
// "Uppercase_Letter"; for "Script", "grek" is "Greek". property is a long
// name as Property returns it.
func Value(property, name string) (string, bool) {
	i, ok := slices.BinarySearchFunc(valueNames[:], valueAlias{property: property, name: name}, func(a, b valueAlias) int {
		return cmp.Or(cmp.Compare(a.property, b.property), cmp.Compare(a.name, b.name))
	})
	if !ok {
		return "", false
	}
	return valueNames[i].canonical, true
}

// SimpleFold is unicode.SimpleFold under Unicode 16.0: the next rune after
// r, in ascending order and wrapping around, of the runes that share r's
// simple case folding; r itself when none does.
func SimpleFold(r rune) rune {
	lo, hi := 0, len(foldNext)/2
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch k := foldNext[2*m]; {
		case r < k:
			hi = m
		case r > k:
			lo = m + 1
		default:
			return foldNext[2*m+1]
		}
	}
	return r
}

// In reports whether r lies in the ranges rs (as Ranges returns them).
func In(rs []rune, r rune) bool {
	lo, hi := 0, len(rs)/2
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < rs[2*m]:
			hi = m
		case r > rs[2*m+1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// Values lists the canonical names of kind's tables, in order.
func Values(kind Kind) []string {
	var out []string
	for _, t := range tables {
		if t.kind == kind {
			out = append(out, t.name)
		}
	}
	return out
}
