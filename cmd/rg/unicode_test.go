//go:build !wasip1

package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/internal/ucd"
)

// TestUnicodePropertiesAsRg15: rg 15's regex engine has Unicode 16.0's
// tables, and every general category, script, script extension, binary
// property and break property it knows matches the same characters in
// cmd/rg. The text holds each edge of every table, the first and last
// character of each range and the two beside them, one a line, so a
// range rg has and cmd/rg lacks (or holds one character longer) shows.
func TestUnicodePropertiesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	queries := map[ucd.Kind]string{
		ucd.GeneralCategory: `\p{gc=%s}`, ucd.Script: `\p{sc=%s}`, ucd.ScriptExtension: `\p{scx=%s}`,
		ucd.Binary: `\p{%s}`, ucd.GraphemeBreak: `\p{gcb=%s}`, ucd.WordBreak: `\p{wb=%s}`,
		ucd.SentenceBreak: `\p{sb=%s}`,
	}
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"edges.txt": unicodeEdges()})
	for kind, query := range queries {
		values := ucd.Values(kind)
		if len(values) == 0 {
			t.Fatalf("no %s tables", kind)
		}
		for _, v := range values {
			pattern := fmt.Sprintf(query, v)
			t.Run(pattern, func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, []string{"-n", pattern, "edges.txt"})
			})
		}
	}
	// rg has no tables for the values every character has by default
	for _, pattern := range []string{`\p{sc=Unknown}`, `\p{scx=Zzzz}`, `\p{gcb=Other}`, `\p{wb=XX}`, `\p{sb=Other}`, `\p{gc=Cs}`, `\p{Surrogate}`} {
		t.Run(pattern, func(t *testing.T) {
			t.Parallel()
			want, got := runIn(t, dir, rg, []string{"-c", pattern, "edges.txt"}), runIn(t, dir, bin, []string{"-c", pattern, "edges.txt"})
			if !strings.HasSuffix(want, "exit 2") || !strings.HasSuffix(got, "exit 2") {
				t.Errorf("rg -c %s: rg 15 says\n%s\ncmd/rg says\n%s", pattern, want, got)
			}
		})
	}
}

// unicodeEdges is a text of the characters at the edges of every table
// internal/ucd has, the first and last character of each range and the
// two beside them, one a line.
var unicodeEdges = sync.OnceValue(func() string {
	edges := map[rune]bool{}
	for _, kind := range []ucd.Kind{ucd.GeneralCategory, ucd.Script, ucd.ScriptExtension, ucd.Binary,
		ucd.GraphemeBreak, ucd.WordBreak, ucd.SentenceBreak} {
		for _, v := range ucd.Values(kind) {
			rs, _ := ucd.Ranges(kind, v)
			for i := 0; i+1 < len(rs); i += 2 {
				for _, r := range []rune{rs[i] - 1, rs[i], rs[i+1], rs[i+1] + 1} {
					edges[r] = true
				}
			}
		}
	}
	var text strings.Builder
	for _, r := range slices.Sorted(maps.Keys(edges)) {
		// not NUL (binary), a line break, surrogates, or U+FFFE (the
		// native engine's stand-in for a genuine U+FFFD)
		if r > 0 && r != '\n' && r != '\r' && r != 0xFFFE && utf8.ValidRune(r) {
			fmt.Fprintf(&text, "%c\n", r)
		}
	}
	return text.String()
})

// TestPCREScriptsAsRg15: rg -P reads a bare script name as PCRE2 10.45
// does, the characters of the script and those whose script extensions
// name it (U+00B7 is Greek), sc: as the script alone and scx: as the bare
// name, over Unicode 16: every script, over the text of every table's
// edges.
func TestPCREScriptsAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"edges.txt": unicodeEdges()})
	scripts := ucd.Values(ucd.Script)
	if len(scripts) < 100 {
		t.Fatalf("%d scripts", len(scripts))
	}
	for i, script := range scripts {
		patterns := []string{`\p{` + script + `}`}
		if i%8 == 0 || script == "Greek" || script == "Common" || script == "Inherited" {
			patterns = append(patterns, `\p{sc:`+script+`}`, `\p{scx=`+script+`}`, `[^\P{`+script+`}a]`)
		}
		for _, pattern := range patterns {
			t.Run(pattern, func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, []string{"-P", "-n", pattern, "edges.txt"})
			})
		}
	}
	t.Run("an unknown script", func(t *testing.T) {
		sameAsRg15(t, dir, rg, bin, []string{"-P", "-n", `\p{sc:Nope}`, "edges.txt"})
	})
}

// TestUnicode16CharactersAsRg15: the characters Unicode 16 added (letters
// of new scripts, U+A7DC and its case pair U+019B) are letters and word
// characters with cases to cmd/rg as to rg 15: \w, \b, -w, -i, \pL,
// script names and smart case see them.
func TestUnicode16CharactersAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	var added strings.Builder
	for r := rune(0x80); r <= 0x3FFFF; r++ {
		if !utf8.ValidRune(r) || unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co) {
			continue // assigned in Go's Unicode 15 (or a surrogate)
		}
		if cn, _ := ucd.Ranges(ucd.GeneralCategory, "Unassigned"); ucd.In(cn, r) {
			continue // unassigned in 16 too
		}
		fmt.Fprintf(&added, "x %c y\n", r)
	}
	if added.Len() == 0 {
		t.Fatal("no character that Unicode 16 added")
	}
	testtool.WriteTree(t, dir, map[string]string{
		"added.txt": added.String(),
		"fold.txt":  "lambda \u019B stroke\nLAMBDA \uA7DC STROKE\n",
	})
	for _, args := range [][]string{
		{"-c", `\w`, "added.txt"},
		{"-o", `\pL+`, "added.txt"},
		{"-o", `\b\w+\b`, "added.txt"},
		{"-c", `\p{Garay}`, "added.txt"},
		{"-c", `\p{Gara}`, "added.txt"},
		{"-o", `\p{Lu}`, "fold.txt"},
		{"-n", "-i", "\u019B", "fold.txt"},
		{"-n", "-i", "\uA7DC", "fold.txt"},
		{"-n", "(?i)[\u019B]", "fold.txt"},
		{"-n", "-S", "\u019B", "fold.txt"},
		{"-n", "-S", "\uA7DC", "fold.txt"},
		{"-n", "-w", "-i", "lambda \u019B", "fold.txt"},
	} {
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			t.Parallel()
			sameAsRg15(t, dir, rg, bin, args)
		})
	}
}

// TestPCREPropertiesWithoutUnicodeAsRg15: rg -P --no-unicode runs PCRE2
// without UTF, where each byte is the Latin-1 character of its value to
// \p: 0xB7 is Greek (U+00B7), 0xE9 a lower-case letter.
func TestPCREPropertiesWithoutUnicodeAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"l1.txt": "a\u00b7b \u0391\u03b1 \xe9t\xe9 caf\xc3\xa9 x1 \xb5\xd7\xf7\xa0\n\x01\x85\xff\n"})
	for _, pattern := range []string{
		`\p{Greek}+`, `\p{L}+`, `\P{L}+`, `[\p{Lu}x]+`, `[^\p{L}\s]+`, `\p{N}`, `\p{Han}`, `[\P{Greek}]`,
		`\p{Xan}+`, `\p{L&}`, `\p{Any}`, `\p{sc:Latin}+`, `\p{Cc}`, `\p{Zs}`, `\p{Xwd}+`, `\PL`, `\p{Sm}`,
	} {
		t.Run(pattern, func(t *testing.T) {
			t.Parallel()
			sameAsRg15(t, dir, rg, bin, []string{"-P", "--no-unicode", "-o", "-b", pattern, "l1.txt"})
			if !strings.Contains(pattern, "Lu") {
				sameAsRg15(t, dir, rg, bin, []string{"-P", "--no-unicode", "-i", "-c", pattern, "l1.txt"})
			}
		})
	}
}

// TestPCREPropertiesAsRg15: rg -P's \p names what PCRE2 10.45 knows, over
// Unicode 16: the general categories by their short names (\p{Letter} is
// an unknown property), the binary properties by any of their names
// (\p{Alpha}, \p{Hex}) but not the Other_ ones, \p{ASCII}, and nothing
// else. A case-sensitive property keeps its case under -i.
func TestPCREPropertiesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"edges.txt": unicodeEdges()})
	names := strings.Fields("C Cc Cf Cn Co L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs " +
		"ASCII Alpha Hex Upper Lower Space IDS XIDC Ext Letter Uppercase_Letter IsGreek InGreek")
	for _, name := range ucd.Values(ucd.Binary) {
		if name != "Bidi_Mirrored" { // (refused: PCRE2 10.45's table differs from Unicode's)
			names = append(names, name)
		}
	}
	for _, name := range names {
		for _, flags := range [][]string{{"-n"}, {"-n", "-i"}} {
			args := append([]string{"-P"}, flags...)
			t.Run(strings.Join(args[1:], " ")+" "+name, func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, append(args, `\p{`+name+`}`, "edges.txt"))
			})
		}
	}
}
