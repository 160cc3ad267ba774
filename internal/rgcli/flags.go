package rgcli

import "github.com/rgkit/rgkit/internal/textenc"

// sw makes a switch that sets a bool field.
func sw(long string, short byte, set func(o *Options)) flag {
	return flag{long: long, short: short, set: func(o *Options, _, _ string) error { set(o); return nil }}
}

// val makes a flag that takes a value.
func val(long string, short byte, set func(o *Options, v, shown string) error) flag {
	return flag{long: long, short: short, value: true, set: set}
}

// num makes a flag that takes a non-negative number.
func num(long string, short byte, set func(o *Options, n int)) flag {
	return val(long, short, func(o *Options, v, shown string) error {
		n, err := number(v, shown)
		if err == nil {
			set(o, n)
		}
		return err
	})
}

// flags is rg 15.2.0's flag set (without the PCRE2-only and the deprecated
// no-op flags, which are listed as accepted switches below where rg still
// takes them).
var flags = []flag{
	// Input.
	val("regexp", 'e', func(o *Options, v, _ string) error { o.Patterns = append(o.Patterns, v); return nil }),
	val("file", 'f', func(o *Options, v, _ string) error { o.PatternFiles = append(o.PatternFiles, v); return nil }),
	val("pre", 0, func(o *Options, v, _ string) error { o.Pre = v; return nil }),
	sw("no-pre", 0, func(o *Options) { o.Pre = "" }),
	val("pre-glob", 0, func(o *Options, v, _ string) error { o.PreGlobs = append(o.PreGlobs, v); return nil }),
	sw("search-zip", 'z', func(o *Options) { o.SearchZip = true }),
	sw("no-search-zip", 0, func(o *Options) { o.SearchZip = false }),

	// Search.
	sw("case-sensitive", 's', func(o *Options) { o.Case = CaseSensitive }),
	sw("ignore-case", 'i', func(o *Options) { o.Case = CaseInsensitive }),
	sw("smart-case", 'S', func(o *Options) { o.Case = CaseSmart }),
	sw("crlf", 0, func(o *Options) { o.CRLF, o.NullData = true, false }), // (the later of --crlf and --null-data wins, as in rg)
	sw("no-crlf", 0, func(o *Options) { o.CRLF = false }),
	val("dfa-size-limit", 0, func(o *Options, v, shown string) error { _, err := size(v, shown); return err }),
	val("regex-size-limit", 0, func(o *Options, v, shown string) error { _, err := size(v, shown); return err }),
	val("encoding", 'E', func(o *Options, v, shown string) error {
		if _, err := textenc.Lookup(v); err != nil {
			return errorf("error parsing flag %s: %s", shown, err)
		}
		o.Encoding = v
		return nil
	}),
	sw("no-encoding", 0, func(o *Options) { o.Encoding = "" }),
	val("engine", 0, func(o *Options, v, shown string) error {
		switch v {
		case "default", "auto":
			o.PCRE2 = false
		case "pcre2":
			o.PCRE2 = true
		default:
			return errorf("error parsing flag %s: unrecognized regex engine '%s'", shown, v)
		}
		o.Engine = v
		return nil
	}),
	sw("fixed-strings", 'F', func(o *Options) { o.Fixed = true }),
	sw("no-fixed-strings", 0, func(o *Options) { o.Fixed = false }),
	sw("invert-match", 'v', func(o *Options) { o.Invert = true }),
	sw("no-invert-match", 0, func(o *Options) { o.Invert = false }),
	sw("line-regexp", 'x', func(o *Options) { o.LineRegexp = true; o.Word = false }),
	sw("word-regexp", 'w', func(o *Options) { o.Word = true; o.LineRegexp = false }),
	num("max-count", 'm', func(o *Options, n int) { o.MaxCount = ptr(n) }),
	sw("mmap", 0, func(o *Options) { o.Mmap = ptr(true) }),
	sw("no-mmap", 0, func(o *Options) { o.Mmap = ptr(false) }),
	sw("multiline", 'U', func(o *Options) { o.Multiline = true }),
	sw("no-multiline", 0, func(o *Options) { o.Multiline = false }),
	sw("multiline-dotall", 0, func(o *Options) { o.MultilineDotall = true }),
	sw("no-multiline-dotall", 0, func(o *Options) { o.MultilineDotall = false }),
	sw("no-unicode", 0, func(o *Options) { o.NoUnicode = true }),
	sw("unicode", 0, func(o *Options) { o.NoUnicode = false }),
	sw("null-data", 0, func(o *Options) { o.NullData, o.CRLF = true, false }),
	// -P, --no-pcre2 and the deprecated --[no-]auto-hybrid-regex choose
	// the engine as --engine does: the last one wins.
	sw("pcre2", 'P', func(o *Options) { o.PCRE2, o.Engine = true, "pcre2" }),
	sw("no-pcre2", 0, func(o *Options) { o.PCRE2, o.Engine = false, "default" }),
	sw("stop-on-nonmatch", 0, func(o *Options) { o.StopOnNonmatch, o.Multiline = true, false }),
	sw("text", 'a', func(o *Options) { o.Text = true; o.Binary = false }),
	sw("no-text", 0, func(o *Options) { o.Text = false }),
	num("threads", 'j', func(o *Options, n int) { o.Threads = n }),
	sw("auto-hybrid-regex", 0, func(o *Options) { o.PCRE2, o.Engine = false, "auto" }),
	sw("no-auto-hybrid-regex", 0, func(o *Options) { o.PCRE2, o.Engine = false, "default" }),
	// Deprecated aliases of --unicode / --no-unicode in rg 15.
	sw("pcre2-unicode", 0, func(o *Options) { o.NoUnicode = false }),
	sw("no-pcre2-unicode", 0, func(o *Options) { o.NoUnicode = true }),

	// Filter.
	sw("binary", 0, func(o *Options) { o.Binary = true; o.Text = false }),
	sw("no-binary", 0, func(o *Options) { o.Binary = false }),
	sw("follow", 'L', func(o *Options) { o.Follow = true }),
	sw("no-follow", 0, func(o *Options) { o.Follow = false }),
	val("glob", 'g', func(o *Options, v, _ string) error { o.Globs = append(o.Globs, Glob{Pattern: v}); return nil }),
	val("iglob", 0, func(o *Options, v, _ string) error {
		o.Globs = append(o.Globs, Glob{Pattern: v, CaseInsensitive: true})
		return nil
	}),
	sw("glob-case-insensitive", 0, func(o *Options) { o.GlobCaseInsensitive = true }),
	sw("no-glob-case-insensitive", 0, func(o *Options) { o.GlobCaseInsensitive = false }),
	sw("hidden", '.', func(o *Options) { o.Hidden = true }),
	sw("no-hidden", 0, func(o *Options) { o.Hidden = false }),
	val("ignore-file", 0, func(o *Options, v, _ string) error { o.IgnoreFiles = append(o.IgnoreFiles, v); return nil }),
	sw("ignore-file-case-insensitive", 0, func(o *Options) { o.IgnoreFileCaseInsensitive = true }),
	sw("no-ignore-file-case-insensitive", 0, func(o *Options) { o.IgnoreFileCaseInsensitive = false }),
	num("max-depth", 'd', func(o *Options, n int) { o.MaxDepth = ptr(n) }),
	val("max-filesize", 0, func(o *Options, v, shown string) error {
		n, err := size(v, shown)
		if err == nil {
			o.MaxFilesize = ptr(n)
		}
		return err
	}),
	sw("no-ignore", 0, func(o *Options) { o.setNoIgnore(true) }),
	sw("ignore", 0, func(o *Options) { o.setNoIgnore(false) }),
	sw("no-ignore-dot", 0, func(o *Options) { o.NoIgnoreDot = true }),
	sw("ignore-dot", 0, func(o *Options) { o.NoIgnoreDot = false }),
	sw("no-ignore-exclude", 0, func(o *Options) { o.NoIgnoreExclude = true }),
	sw("ignore-exclude", 0, func(o *Options) { o.NoIgnoreExclude = false }),
	sw("no-ignore-files", 0, func(o *Options) { o.NoIgnoreFiles = true }),
	sw("ignore-files", 0, func(o *Options) { o.NoIgnoreFiles = false }),
	sw("no-ignore-global", 0, func(o *Options) { o.NoIgnoreGlobal = true }),
	sw("ignore-global", 0, func(o *Options) { o.NoIgnoreGlobal = false }),
	sw("no-ignore-parent", 0, func(o *Options) { o.NoIgnoreParent = true }),
	sw("ignore-parent", 0, func(o *Options) { o.NoIgnoreParent = false }),
	sw("no-ignore-vcs", 0, func(o *Options) { o.NoIgnoreVCS = true }),
	sw("ignore-vcs", 0, func(o *Options) { o.NoIgnoreVCS = false }),
	sw("no-require-git", 0, func(o *Options) { o.NoRequireGit = true }),
	sw("require-git", 0, func(o *Options) { o.NoRequireGit = false }),
	sw("one-file-system", 0, func(o *Options) { o.OneFileSystem = true }),
	sw("no-one-file-system", 0, func(o *Options) { o.OneFileSystem = false }),
	val("type", 't', func(o *Options, v, _ string) error {
		o.Types = append(o.Types, v)
		o.TypeOps = append(o.TypeOps, TypeOp{Kind: TypeSelect, Spec: v})
		return nil
	}),
	val("type-not", 'T', func(o *Options, v, _ string) error {
		o.TypesNot = append(o.TypesNot, v)
		o.TypeOps = append(o.TypeOps, TypeOp{Kind: TypeNegate, Spec: v})
		return nil
	}),
	val("type-add", 0, func(o *Options, v, _ string) error {
		o.TypeOps = append(o.TypeOps, TypeOp{Kind: TypeAdd, Spec: v})
		return nil
	}),
	val("type-clear", 0, func(o *Options, v, _ string) error {
		o.TypeOps = append(o.TypeOps, TypeOp{Kind: TypeClear, Spec: v})
		return nil
	}),
	{long: "unrestricted", short: 'u', set: func(o *Options, _, shown string) error {
		o.Unrestricted++
		switch o.Unrestricted {
		case 1:
			o.setNoIgnore(true)
		case 2:
			o.Hidden = true
		case 3:
			o.Binary = true
		default:
			return errorf("error parsing flag %s: flag can only be repeated up to 3 times", shown)
		}
		return nil
	}},

	// Output.
	// The last of --passthru and -A/-B/-C wins: passthru drops the context
	// given before it, and a context flag after it ends passthru.
	num("after-context", 'A', func(o *Options, n int) { o.After, o.Passthru = ptr(n), false }),
	num("before-context", 'B', func(o *Options, n int) { o.Before, o.Passthru = ptr(n), false }),
	num("context", 'C', func(o *Options, n int) { o.Context, o.Passthru = ptr(n), false }),
	sw("block-buffered", 0, func(o *Options) { o.BlockBuffered, o.LineBuffered = true, false }),
	sw("no-block-buffered", 0, func(o *Options) { o.BlockBuffered = false }),
	sw("line-buffered", 0, func(o *Options) { o.LineBuffered, o.BlockBuffered = true, false }),
	sw("no-line-buffered", 0, func(o *Options) { o.LineBuffered = false }),
	sw("byte-offset", 'b', func(o *Options) { o.ByteOffset = true }),
	sw("no-byte-offset", 0, func(o *Options) { o.ByteOffset = false }),
	val("color", 0, func(o *Options, v, shown string) error {
		if err := choice(v, shown, "never", "auto", "always", "ansi"); err != nil {
			return err
		}
		o.Color = v
		return nil
	}),
	val("colors", 0, func(o *Options, v, shown string) error {
		if _, err := parseColorSpec(v); err != nil {
			return errorf("error parsing flag %s: %v", shown, err)
		}
		o.Colors = append(o.Colors, v)
		return nil
	}),
	sw("column", 0, func(o *Options) { o.Column, o.NoColumn = true, false }),
	sw("no-column", 0, func(o *Options) { o.Column, o.NoColumn = false, true }),
	val("context-separator", 0, func(o *Options, v, _ string) error {
		o.ContextSeparator, o.NoContextSeparator = ptr(Unescape(v)), false
		return nil
	}),
	sw("no-context-separator", 0, func(o *Options) { o.NoContextSeparator = true }),
	val("field-context-separator", 0, func(o *Options, v, _ string) error { sep := Unescape(v); o.FieldContextSeparator = &sep; return nil }),
	val("field-match-separator", 0, func(o *Options, v, _ string) error { sep := Unescape(v); o.FieldMatchSeparator = &sep; return nil }),
	sw("heading", 0, func(o *Options) { o.Heading = ptr(true) }),
	sw("no-heading", 0, func(o *Options) { o.Heading = ptr(false) }),
	{long: "help", short: 'h', set: special(HelpShort, HelpLong)},
	val("hostname-bin", 0, func(o *Options, v, _ string) error { o.HostnameBin = v; return nil }),
	val("hyperlink-format", 0, func(o *Options, v, shown string) error {
		if why := checkHyperlinkFormat(v); why != "" {
			return errorf("error parsing flag %s: invalid hyperlink format: %s", shown, why)
		}
		o.HyperlinkFormat = v
		return nil
	}),
	sw("include-zero", 0, func(o *Options) { o.IncludeZero = true }),
	sw("no-include-zero", 0, func(o *Options) { o.IncludeZero = false }),
	sw("line-number", 'n', func(o *Options) { o.LineNumber = ptr(true) }),
	sw("no-line-number", 'N', func(o *Options) { o.LineNumber = ptr(false) }),
	num("max-columns", 'M', func(o *Options, n int) { o.MaxColumns = n }),
	sw("max-columns-preview", 0, func(o *Options) { o.MaxColumnsPreview = true }),
	sw("no-max-columns-preview", 0, func(o *Options) { o.MaxColumnsPreview = false }),
	sw("null", '0', func(o *Options) { o.Null = true }),
	sw("only-matching", 'o', func(o *Options) { o.OnlyMatching = true }),
	val("path-separator", 0, func(o *Options, v, shown string) error {
		v = Unescape(v)
		if len(v) > 1 {
			return errorf("error parsing flag %s: A path separator must be exactly one byte, but the given separator is %d bytes: %s\nIn some shells on Windows '/' is automatically expanded. Use '//' instead.", shown, len(v), v)
		}
		o.PathSeparator = v
		return nil
	}),
	sw("passthru", 0, func(o *Options) { o.Passthru, o.After, o.Before, o.Context = true, nil, nil, nil }),
	sw("pretty", 'p', func(o *Options) { o.Pretty = true; o.Color = "always"; o.Heading = ptr(true); o.LineNumber = ptr(true) }),
	sw("quiet", 'q', func(o *Options) { o.Quiet = true }),
	val("replace", 'r', func(o *Options, v, _ string) error { o.Replace = ptr(v); return nil }),
	val("sort", 0, func(o *Options, v, shown string) error { return o.setSort(v, shown, false) }),
	val("sortr", 0, func(o *Options, v, shown string) error { return o.setSort(v, shown, true) }),
	sw("sort-files", 0, func(o *Options) { o.Sort, o.SortReverse = SortPath, false }),
	sw("no-sort-files", 0, func(o *Options) { o.Sort = SortNone }),
	sw("trim", 0, func(o *Options) { o.Trim = true }),
	sw("no-trim", 0, func(o *Options) { o.Trim = false }),
	sw("vimgrep", 0, func(o *Options) { o.Vimgrep = true }),
	sw("with-filename", 'H', func(o *Options) { o.WithFilename = ptr(true) }),
	sw("no-filename", 'I', func(o *Options) { o.WithFilename = ptr(false) }),

	// Output modes.
	sw("count", 'c', func(o *Options) { o.setMode(ModeCount) }),
	sw("count-matches", 0, func(o *Options) { o.setMode(ModeCountMatches) }),
	sw("files-with-matches", 'l', func(o *Options) { o.setMode(ModeFilesWithMatches) }),
	sw("files-without-match", 0, func(o *Options) { o.setMode(ModeFilesWithoutMatch) }),
	sw("json", 0, func(o *Options) { o.setMode(ModeJSON) }),
	sw("no-json", 0, func(o *Options) { o.unsetMode(ModeJSON) }),

	// Logging.
	sw("debug", 0, func(o *Options) { o.Debug = true }),
	sw("trace", 0, func(o *Options) { o.Trace = true }),
	sw("no-ignore-messages", 0, func(o *Options) { o.NoIgnoreMessages = true }),
	sw("ignore-messages", 0, func(o *Options) { o.NoIgnoreMessages = false }),
	sw("no-messages", 0, func(o *Options) { o.NoMessages = true }),
	sw("messages", 0, func(o *Options) { o.NoMessages = false }),
	sw("stats", 0, func(o *Options) { o.Stats = true }),
	sw("no-stats", 0, func(o *Options) { o.Stats = false }),

	// Other behaviours.
	sw("files", 0, func(o *Options) { o.setMode(ModeFiles) }),
	val("generate", 0, func(o *Options, v, shown string) error {
		return choice(v, shown, "man", "complete-bash", "complete-zsh", "complete-fish", "complete-powershell")
	}),
	sw("no-config", 0, func(o *Options) { o.NoConfig = true }),
	sw("pcre2-version", 0, func(o *Options) { o.Special = VersionPCRE2 }),
	sw("type-list", 0, func(o *Options) { o.setMode(ModeTypeList) }),
	{long: "version", short: 'V', set: special(VersionShort, VersionLong)},

	// rgkit's own flags (rg has none of these names).
	val("backend", 0, func(o *Options, v, shown string) error {
		if err := ownChoice(v, shown, "backend"); err != nil {
			return err
		}
		o.Backend = v
		return nil
	}),
	val("format", 0, func(o *Options, v, shown string) error {
		if err := ownChoice(v, shown, "format"); err != nil {
			return err
		}
		o.Format = v
		return nil
	}),
}

// RgkitOnly lists the long flags rgkit adds to rg's set; they are removed
// before rg's own arguments are handed to a real rg.
var RgkitOnly = []string{"backend", "format"}

func (o *Options) setSort(v, shown string, reverse bool) error {
	keys := map[string]Sort{"none": SortNone, "path": SortPath, "modified": SortModified, "accessed": SortAccessed, "created": SortCreated}
	s, ok := keys[v]
	if !ok {
		return errorf("error parsing flag %s: choice '%s' is unrecognized", shown, v)
	}
	o.Sort, o.SortReverse = s, reverse
	return nil
}
