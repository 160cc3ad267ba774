package rgregex

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/ucd"
)

// normName applies Unicode's loose matching (UAX #44 LM3) as rg does: a
// leading "is" is dropped, then ' ', '_' and '-', and every byte beyond
// ASCII; ASCII letters are lowered. "isc" stays ("ISO_Comment").
func normName(s string) string {
	isPrefix := len(s) >= 2 && strings.EqualFold(s[:2], "is")
	if isPrefix {
		s = s[2:]
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '_' || c == '-' || c >= utf8.RuneSelf:
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	if isPrefix && string(b) == "c" {
		return "isc"
	}
	return string(b)
}

// table is the Unicode 16 table kind/name, canonical names as ucd gives
// them; it must exist. It is a copy: a class node's runes may be
// rewritten in place.
func table(kind ucd.Kind, name string) ranges {
	rs, ok := ucd.Ranges(kind, name)
	if !ok {
		panic("rgregex: no Unicode table " + string(kind) + "/" + name)
	}
	return slices.Clone(ranges(rs))
}

// assigned is every character some general category holds.
var assigned = sync.OnceValue(func() ranges { return negate(table(ucd.GeneralCategory, "Unassigned")) })

// category is the general category canon ("Uppercase_Letter", "Letter",
// "Any", "Assigned", "ASCII").
func category(canon string) ranges {
	switch canon {
	case "Any":
		return ranges{0, unicode.MaxRune}
	case "ASCII":
		return ranges{0, 0x7F}
	case "Assigned":
		return slices.Clone(assigned())
	}
	return table(ucd.GeneralCategory, canon)
}

// generalCategoryValue is the canonical general category a value names.
func generalCategoryValue(n string) (string, bool) {
	switch n {
	case "any":
		return "Any", true
	case "assigned":
		return "Assigned", true
	case "ascii":
		return "ASCII", true
	}
	return ucd.Value("General_Category", n)
}

// propertyError is why property has no class for a name.
type propertyError int

const (
	propertyFound propertyError = iota
	propertyNotFound
	propertyValueNotFound
	propertyUnsupported // rg knows it, this package has no table (Age)
)

// property resolves the name inside \p{...} as rg does: "Greek", "Lu",
// "Letter", "sc=Greek", "gc:Lu", "White_Space", "scx=Grek", "wb=ALetter".
// A bare name is a binary property first (unless it is "cf", "sc" or
// "lc", which are categories), then a general category, then a script
// (not its extensions).
func property(name string) (ranges, propertyError) {
	key, val, hasVal := strings.Cut(name, ":")
	if !hasVal {
		key, val, hasVal = strings.Cut(name, "=")
	}
	if hasVal {
		canon, ok := ucd.Property(normName(key))
		if !ok {
			return nil, propertyNotFound
		}
		v := normName(val)
		switch canon {
		case "General_Category":
			if c, ok := generalCategoryValue(v); ok {
				return category(c), propertyFound
			}
			return nil, propertyValueNotFound
		case "Age":
			return nil, propertyUnsupported
		}
		kind, ok := byValueKind(canon)
		if !ok {
			return nil, propertyValueNotFound // no values rg knows of
		}
		c, ok := ucd.Value(canon, v)
		if !ok {
			return nil, propertyValueNotFound
		}
		return table(kind, c), propertyFound
	}
	n := normName(name)
	if n != "cf" && n != "sc" && n != "lc" {
		if canon, ok := ucd.Property(n); ok {
			if rs, ok := ucd.Ranges(ucd.Binary, canon); ok {
				return ranges(rs), propertyFound
			}
			return nil, propertyNotFound
		}
	}
	if c, ok := generalCategoryValue(n); ok {
		return category(c), propertyFound
	}
	if c, ok := ucd.Value("Script", n); ok {
		return table(ucd.Script, c), propertyFound
	}
	return nil, propertyNotFound
}

// byValueKind is the table kind of an enumerated property \p{name=value}
// reaches besides the general category.
func byValueKind(canon string) (ucd.Kind, bool) {
	switch canon {
	case "Script":
		return ucd.Script, true
	case "Script_Extensions":
		return ucd.ScriptExtension, true
	case "Grapheme_Cluster_Break":
		return ucd.GraphemeBreak, true
	case "Word_Break":
		return ucd.WordBreak, true
	case "Sentence_Break":
		return ucd.SentenceBreak, true
	}
	return "", false
}

// perlWord is Unicode's \w as rg defines it (see computePerlWord), from
// the generated table: computing it took 6 ms of every search using \w or
// \b.
func perlWord() ranges { return perlWordTable }

// computePerlWord is Unicode's \w as rg defines it: Alphabetic, marks,
// decimal digits, connector punctuation and Join_Control. tables.go holds
// its result (go generate; TestGeneratedTablesAreCurrent keeps it so).
func computePerlWord() ranges {
	w := union(table(ucd.Binary, "Alphabetic"), table(ucd.GeneralCategory, "Mark"))
	w = union(w, table(ucd.GeneralCategory, "Decimal_Number"))
	w = union(w, table(ucd.GeneralCategory, "Connector_Punctuation"))
	return union(w, table(ucd.Binary, "Join_Control"))
}

// IsWordRune reports whether r is a word character for rg's Unicode \w
// (and so for \b): the test the matcher's word assertions use.
func IsWordRune(r rune) bool {
	if r < 0x80 {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return ucd.In(perlWord(), r)
}
