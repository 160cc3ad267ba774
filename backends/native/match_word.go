package native

// rg -w since rg 14 wraps the pattern as \b{start-half}(?:pattern)\b{end-half}
// (Unicode half word boundaries: no word character right before the match,
// none right after it) and reports that regex's leftmost-first matches: on
// "line 10", -w '\w[a-z]\w*' reports "line". rg 13's wrapper
// (?:^|\W)(pattern)(?:\W|$) with its buffer-dependent fast path (which
// reported "ine" there) is gone. Compile builds the wrapper with
// rgregex.Word; the VM and the line DFA evaluate the half boundaries.
