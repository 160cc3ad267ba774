package native

import "regexp/syntax"

// endTextAsLineEnd turns every \z of a line-mode pattern into $ (Go's
// multi-line end of line). rg searches line by line, each line the whole
// text, so \z matches at the end of every line: `[a-z]?\z` on
// "abc\nxbc\nq\n" selects all three lines in rg 13 and 15, with the
// submatch at each line's end. Go, searching the whole buffer, would match
// \z only at the end of the file.
func endTextAsLineEnd(re *syntax.Regexp) {
	if re.Op == syntax.OpEndText {
		re.Op = syntax.OpEndLine
		re.Flags &^= syntax.WasDollar
	}
	for _, sub := range re.Sub {
		endTextAsLineEnd(sub)
	}
}
