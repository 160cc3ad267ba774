package rgregex

import (
	"strings"
	"sync"
	"unicode"
)

// normName applies Unicode's loose matching (UAX #44 LM3) as rg does:
// case, spaces, '_' and '-' are ignored, and a leading "is" is dropped.
func normName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || r == '_' || r == '-' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	n := b.String()
	if strings.HasPrefix(n, "is") && len(n) > 2 && n != "isc" {
		n = n[2:]
	}
	return n
}

// gcAliases maps the long names and aliases rg accepts for general
// categories to Go's short names ("LC" and "Cn" are computed).
var gcAliases = map[string]string{
	"casedletter": "LC", "closepunctuation": "Pe", "connectorpunctuation": "Pc", "control": "Cc",
	"cntrl": "Cc", "currencysymbol": "Sc", "dashpunctuation": "Pd", "decimalnumber": "Nd",
	"digit": "Nd", "enclosingmark": "Me", "finalpunctuation": "Pf", "format": "Cf",
	"initialpunctuation": "Pi", "letter": "L", "letternumber": "Nl", "lineseparator": "Zl",
	"lowercaseletter": "Ll", "mark": "M", "combiningmark": "M", "mathsymbol": "Sm",
	"modifierletter": "Lm", "modifiersymbol": "Sk", "nonspacingmark": "Mn", "number": "N",
	"openpunctuation": "Ps", "other": "C", "otherletter": "Lo", "othernumber": "No",
	"otherpunctuation": "Po", "othersymbol": "So", "paragraphseparator": "Zp", "privateuse": "Co",
	"punctuation": "P", "punct": "P", "separator": "Z", "spaceseparator": "Zs", "spacingmark": "Mc",
	"surrogate": "Cs", "symbol": "S", "titlecaseletter": "Lt", "unassigned": "Cn",
	"uppercaseletter": "Lu",
}

// scriptCodes maps ISO 15924 codes of common scripts to Go's script names.
var scriptCodes = map[string]string{
	"arab": "Arabic", "armn": "Armenian", "beng": "Bengali", "bopo": "Bopomofo", "cher": "Cherokee",
	"copt": "Coptic", "qaac": "Coptic", "cyrl": "Cyrillic", "deva": "Devanagari", "ethi": "Ethiopic",
	"geor": "Georgian", "grek": "Greek", "gujr": "Gujarati", "guru": "Gurmukhi", "hang": "Hangul",
	"hani": "Han", "hebr": "Hebrew", "hira": "Hiragana", "kana": "Katakana", "khmr": "Khmer",
	"knda": "Kannada", "laoo": "Lao", "latn": "Latin", "mlym": "Malayalam", "mong": "Mongolian",
	"mymr": "Myanmar", "orya": "Oriya", "sinh": "Sinhala", "syrc": "Syriac", "taml": "Tamil",
	"telu": "Telugu", "thaa": "Thaana", "thai": "Thai", "tibt": "Tibetan", "zinh": "Inherited",
	"qaai": "Inherited", "zyyy": "Common", "zzzz": "Unknown",
}

// binaryAliases maps short names of binary properties to their long names.
var binaryAliases = map[string]string{
	"alpha": "alphabetic", "lower": "lowercase", "upper": "uppercase", "space": "whitespace",
	"wspace": "whitespace", "ahex": "asciihexdigit", "bidic": "bidicontrol", "dep": "deprecated",
	"dia": "diacritic", "ext": "extender", "hex": "hexdigit", "ideo": "ideographic",
	"joinc": "joincontrol", "loe": "logicalorderexception", "nchar": "noncharactercodepoint",
	"patsyn": "patternsyntax", "patws": "patternwhitespace", "qmark": "quotationmark",
	"ri": "regionalindicator", "sd": "softdotted", "sterm": "sentenceterminal",
	"term": "terminalpunctuation", "uideo": "unifiedideograph", "vs": "variationselector",
	"idsb": "idsbinaryoperator", "idst": "idstrinaryoperator",
}

// propTables finds Go's Unicode tables by rg's names and converts each to
// ranges the first time a pattern asks for it. Converting all of them up
// front (some 300 tables, their strided ranges expanded rune by rune) cost
// about 13 ms of every search that used \w, \d, \s or \b.
type propTables struct {
	gc, script, binary map[string]*unicode.RangeTable // by normalised name
	mu                 sync.Mutex
	done               map[string]ranges // "gc:lu", "sc:greek", "bin:alphabetic"
}

var props = sync.OnceValue(func() *propTables {
	t := &propTables{gc: map[string]*unicode.RangeTable{}, script: map[string]*unicode.RangeTable{},
		binary: map[string]*unicode.RangeTable{}, done: map[string]ranges{}}
	for name, tab := range unicode.Categories {
		t.gc[strings.ToLower(name)] = tab
	}
	for name, tab := range unicode.Scripts {
		t.script[normName(name)] = tab
	}
	for name, tab := range unicode.Properties {
		if strings.HasPrefix(name, "Other_") {
			continue // contributory properties: rg does not know them either
		}
		t.binary[normName(name)] = tab
	}
	return t
})

// memo returns the ranges for key, computing them once with build.
func (t *propTables) memo(key string, build func() ranges) ranges {
	t.mu.Lock()
	r, ok := t.done[key]
	t.mu.Unlock()
	if ok {
		return r
	}
	r = build()
	t.mu.Lock()
	t.done[key] = r
	t.mu.Unlock()
	return r
}

// category is the general category n (lower case: "lu", "l", "cn", "lc").
func (t *propTables) category(n string) (ranges, bool) {
	if _, ok := t.gc[n]; !ok && n != "cn" && n != "lc" {
		return nil, false
	}
	return t.memo("gc:"+n, func() ranges {
		switch n {
		case "cn": // unassigned: no two-letter category holds it
			var assigned ranges
			for name, tab := range t.gc {
				if len(name) == 2 {
					assigned = union(assigned, fromTable(tab))
				}
			}
			return negate(assigned)
		case "c":
			cn, _ := t.category("cn")
			return union(fromTable(t.gc["c"]), cn)
		case "lc":
			lu, _ := t.category("lu")
			ll, _ := t.category("ll")
			lt, _ := t.category("lt")
			return union(union(lu, ll), lt)
		}
		return fromTable(t.gc[n])
	}), true
}

// scriptNamed is the script n (normalised name).
func (t *propTables) scriptNamed(n string) (ranges, bool) {
	tab, ok := t.script[n]
	if !ok {
		return nil, false
	}
	return t.memo("sc:"+n, func() ranges { return fromTable(tab) }), true
}

// binaryNamed is the binary property n (normalised name), with rg's
// derived ones (Alphabetic, Lowercase, Uppercase, Math) built from their
// category and contributory parts.
func (t *propTables) binaryNamed(n string) (ranges, bool) {
	other := func(name string) ranges { return fromTable(unicode.Properties[name]) }
	cat := func(name string) ranges { r, _ := t.category(name); return r }
	var build func() ranges
	switch n {
	case "alphabetic":
		build = func() ranges { return union(union(cat("l"), cat("nl")), other("Other_Alphabetic")) }
	case "lowercase":
		build = func() ranges { return union(cat("ll"), other("Other_Lowercase")) }
	case "uppercase":
		build = func() ranges { return union(cat("lu"), other("Other_Uppercase")) }
	case "math":
		build = func() ranges { return union(cat("sm"), other("Other_Math")) }
	default:
		tab, ok := t.binary[n]
		if !ok {
			return nil, false
		}
		build = func() ranges { return fromTable(tab) }
	}
	return t.memo("bin:"+n, build), true
}

// perlWord is Unicode's \w as rg defines it (see computePerlWord), from
// the generated table: computing it took 6 ms of every search using \w or
// \b.
func perlWord() ranges { return perlWordTable }

// computePerlWord is Unicode's \w as rg defines it: Alphabetic, marks,
// decimal digits, connector punctuation and Join_Control. tables.go holds
// its result (go generate; TestGeneratedTablesAreCurrent keeps it so).
func computePerlWord() ranges {
	p := props()
	alpha, _ := p.binaryNamed("alphabetic")
	m, _ := p.category("m")
	nd, _ := p.category("nd")
	pc, _ := p.category("pc")
	join, _ := p.binaryNamed("joincontrol")
	return union(union(union(union(alpha, m), nd), pc), join)
}

// IsWordRune reports whether r is a word character for rg's Unicode \w
// (and so for \b): the test the matcher's word assertions use.
func IsWordRune(r rune) bool {
	if r < 0x80 {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	w := perlWord()
	lo, hi := 0, len(w)/2
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < w[2*m]:
			hi = m
		case r > w[2*m+1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// property resolves the name inside \p{...}: "Greek", "Lu", "Letter",
// "sc=Greek", "gc=Lu", "White_Space". ok is false for a name rg does not
// know; unsupported names a property rg knows and this package lacks.
func property(name string) (r ranges, ok bool, unsupported bool) {
	p := props()
	key, val, hasVal := strings.Cut(name, "=")
	if !hasVal {
		key, val, hasVal = strings.Cut(name, ":")
	}
	if hasVal {
		switch normName(key) {
		case "gc", "generalcategory":
			r, ok = generalCategory(p, normName(val))
			return r, ok, false
		case "sc", "script":
			r, ok = script(p, normName(val))
			return r, ok, false
		}
		return nil, false, true
	}
	n := normName(name)
	switch n {
	case "any":
		return ranges{0, 0x10FFFF}, true, false
	case "ascii":
		return ranges{0, 0x7F}, true, false
	case "assigned":
		cn, _ := p.category("cn")
		return negate(cn), true, false
	}
	if r, ok := generalCategory(p, n); ok {
		return r, true, false
	}
	if r, ok := script(p, n); ok {
		return r, true, false
	}
	if a, ok := binaryAliases[n]; ok {
		n = a
	}
	if r, ok := p.binaryNamed(n); ok {
		return r, true, false
	}
	return nil, false, knownElsewhere[n]
}

func generalCategory(p *propTables, n string) (ranges, bool) {
	if a, ok := gcAliases[n]; ok {
		n = strings.ToLower(a)
	}
	return p.category(n)
}

func script(p *propTables, n string) (ranges, bool) {
	if a, ok := scriptCodes[n]; ok {
		n = normName(a)
	}
	return p.scriptNamed(n)
}

// knownElsewhere are properties rg accepts that Go's tables lack: refused
// as unsupported rather than as unknown.
var knownElsewhere = map[string]bool{
	"emoji": true, "emojipresentation": true, "emojimodifier": true, "emojimodifierbase": true,
	"emojicomponent": true, "extendedpictographic": true, "idstart": true, "idcontinue": true,
	"xidstart": true, "xidcontinue": true, "defaultignorablecodepoint": true, "graphemebase": true,
	"graphemeextend": true, "cased": true, "caseignorable": true, "changeswhenlowercased": true,
	"changeswhenuppercased": true, "changeswhentitlecased": true, "changeswhencasefolded": true,
	"changeswhencasemapped": true, "changeswhennfkccasefolded": true, "word": true,
}
