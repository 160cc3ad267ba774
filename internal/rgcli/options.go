// Package rgcli reads ripgrep 15's command line: the same flags, bundles,
// negations and last-flag-wins rules, the same defaults and the same error
// messages, so `rgkit grep` (and rgkit invoked as rg) accepts whatever a
// user types to rg. It only parses; running the search is the caller's job.
package rgcli

// Case is how letter case is compared; -i, -s and -S override each other,
// the last one winning as in rg.
type Case int

const (
	// CaseSensitive is rg's default (-s).
	CaseSensitive Case = iota
	// CaseInsensitive is -i.
	CaseInsensitive
	// CaseSmart is -S.
	CaseSmart
)

// Mode is what rg prints. Search modes (the standard printer, counts, file
// lists, JSON) override each other, last wins; the non-search modes
// (--files, --type-list) beat every search mode whatever their position.
type Mode int

const (
	// ModeStandard prints matching lines.
	ModeStandard Mode = iota
	// ModeFilesWithMatches is -l.
	ModeFilesWithMatches
	// ModeFilesWithoutMatch is --files-without-match.
	ModeFilesWithoutMatch
	// ModeCount is -c.
	ModeCount
	// ModeCountMatches is --count-matches (or -c with -o).
	ModeCountMatches
	// ModeJSON is --json.
	ModeJSON
	// ModeFiles is --files: list what would be searched.
	ModeFiles
	// ModeTypeList is --type-list.
	ModeTypeList
)

// isSearch reports whether m is one of the search modes that later search
// modes replace.
func (m Mode) isSearch() bool { return m <= ModeJSON }

// Sort is --sort / --sortr's key.
type Sort int

const (
	// SortNone is rg's default: parallel, unordered.
	SortNone Sort = iota
	// SortPath sorts by path.
	SortPath
	// SortModified sorts by modification time.
	SortModified
	// SortAccessed sorts by access time.
	SortAccessed
	// SortCreated sorts by creation time.
	SortCreated
)

// TypeOpKind says which of rg's type flags a TypeOp is.
type TypeOpKind int

const (
	// TypeAdd is --type-add SPEC.
	TypeAdd TypeOpKind = iota
	// TypeClear is --type-clear NAME.
	TypeClear
	// TypeSelect is -t/--type NAME.
	TypeSelect
	// TypeNegate is -T/--type-not NAME.
	TypeNegate
)

// TypeOp is one --type-add, --type-clear, -t or -T, kept in command-line
// order because rg applies them in that order: definitions change as they
// come, and among the selections the last one matching a file decides.
type TypeOp struct {
	Kind TypeOpKind
	Spec string // the SPEC added, or the NAME cleared, selected or negated
}

// HasTypeDefs reports whether the command line changes the type table
// (--type-add or --type-clear).
func (o *Options) HasTypeDefs() bool {
	for _, op := range o.TypeOps {
		if op.Kind == TypeAdd || op.Kind == TypeClear {
			return true
		}
	}
	return false
}

// Glob is one -g / --iglob.
type Glob struct {
	Pattern         string
	CaseInsensitive bool // --iglob
}

// Options is one parsed rg command line. A nil pointer field was not given,
// so the caller applies rg's default (which may depend on the terminal).
type Options struct {
	Patterns     []string // -e and the positional PATTERN, in order
	PatternFiles []string // -f
	Paths        []string
	// PositionalPattern is true when the first positional argument was the
	// pattern (no -e or -f).
	PositionalPattern bool

	Case                             Case
	Fixed, Invert, LineRegexp, Word  bool
	Multiline, MultilineDotall, CRLF bool
	NullData, Text, Binary, PCRE2    bool
	// Mmap is --mmap (true) or --no-mmap (false), the last one given; nil
	// when neither is.
	Mmap                      *bool
	NoUnicode, StopOnNonmatch bool
	MaxCount                  *int
	Engine                    string
	Threads                   int
	Encoding                  string
	// SearchZip is -z: compressed files (by extension) are searched
	// decompressed.
	SearchZip bool
	// Pre is --pre's command ("" none); PreGlobs are --pre-glob's globs
	// (the files it runs for; none: every file).
	Pre      string
	PreGlobs []string

	Follow, Hidden, GlobCaseInsensitive bool
	Globs                               []Glob
	IgnoreFiles                         []string
	IgnoreFileCaseInsensitive           bool
	MaxDepth                            *int
	MaxFilesize                         *int64
	// NoIgnore is the last of --no-ignore (true) and --ignore (false);
	// like rg, each sets the five switches below it (dot, exclude, global,
	// parent, vcs), which later flags can change one by one. It does not
	// touch NoIgnoreFiles.
	NoIgnore, NoIgnoreDot, NoIgnoreExclude bool
	NoIgnoreFiles, NoIgnoreGlobal          bool
	NoIgnoreParent, NoIgnoreVCS            bool
	NoRequireGit, OneFileSystem            bool
	Types, TypesNot                        []string
	TypeOps                                []TypeOp
	Unrestricted                           int

	After, Before, Context               *int
	ByteOffset, Column                   bool
	Heading, LineNumber, WithFilename    *bool
	Color                                string // auto, never, always, ansi
	Colors                               []string
	ContextSeparator                     *string // nil: "--"; NoContextSeparator drops it
	NoContextSeparator                   bool
	FieldContextSeparator                *string // nil: rg's default
	FieldMatchSeparator                  *string
	IncludeZero, MaxColumnsPreview, Null bool
	MaxColumns                           int
	OnlyMatching, Passthru, Pretty       bool
	Quiet, Trim, Vimgrep                 bool
	// HostnameBin is --hostname-bin: the program that prints the {host}
	// of a hyperlink.
	HostnameBin string
	// NoColumn is an explicit --no-column (last of --column/--no-column):
	// --vimgrep then prints no column.
	NoColumn                    bool
	Replace                     *string
	PathSeparator               string
	Sort                        Sort
	SortReverse                 bool
	LineBuffered, BlockBuffered bool
	HyperlinkFormat             string

	Mode                         Mode
	Special                      Special // -h, --help, -V, --version, --pcre2-version
	NoMessages, NoIgnoreMessages bool
	Stats, Debug, Trace          bool
	NoConfig                     bool

	// Given lists every long flag name the command line used, in order
	// (short flags under their long name), for "not supported" checks.
	Given []string

	// rgkit's own flags, which rg does not have.
	Backend string // --backend
	Format  string // --format rgkit-json
}

// ContextLines resolves -A/-B/-C as rg 15 does: -C sets both sides and an
// explicit -A or -B wins for its side whatever the order.
func (o *Options) ContextLines() (before, after int) {
	if o.Context != nil {
		before, after = *o.Context, *o.Context
	}
	if o.Before != nil {
		before = *o.Before
	}
	if o.After != nil {
		after = *o.After
	}
	return before, after
}

// setNoIgnore is --no-ignore (yes) or --ignore: rg sets five switches.
func (o *Options) setNoIgnore(yes bool) {
	o.NoIgnore = yes
	o.NoIgnoreDot, o.NoIgnoreExclude, o.NoIgnoreGlobal, o.NoIgnoreParent, o.NoIgnoreVCS = yes, yes, yes, yes, yes
}

// Has reports whether the long flag name (without dashes) was given.
func (o *Options) Has(name string) bool {
	for _, g := range o.Given {
		if g == name {
			return true
		}
	}
	return false
}
