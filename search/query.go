// Package search is the contract of rgkit's code search: a Query, the Sink
// that receives results, the Engine interface, and the Chain that runs one
// query through interchangeable engines (ripgrep, git grep, system grep,
// pure Go) and gives the same answer whichever one runs.
//
// The library owns the semantics; external tools are accelerators. A Query is
// validated once (rg 15's regex dialect), each engine receives it and either honours it
// exactly or returns ErrUnsupported before emitting anything, and the Chain
// collects, orders and pages what the winning engine found.
//
// This package imports no engine, spawns no process and has no network code;
// the engines live in backends/native, backends/ripgrep, backends/gitgrep and
// backends/sysgrep, and backends assembles the default Chain.
package search

import (
	"os"
	"time"
)

// CaseMode says how letter case is compared.
type CaseMode int

const (
	// CaseSensitive compares exactly (rg's default).
	CaseSensitive CaseMode = iota
	// CaseInsensitive ignores case (rg -i).
	CaseInsensitive
	// CaseSmart is insensitive unless the pattern has an uppercase literal (rg -S).
	CaseSmart
)

// OutputMode says what a search reports.
type OutputMode int

const (
	// ModeContent reports matching lines (and context lines when asked).
	ModeContent OutputMode = iota
	// ModeFilesWithMatches reports only the paths of files with a match (rg -l).
	ModeFilesWithMatches
	// ModeCount reports the number of matching lines per file (rg -c).
	ModeCount
)

// SortOrder says how results are ordered.
type SortOrder int

const (
	// SortPath orders by path, then line: deterministic whichever engine ran.
	SortPath SortOrder = iota
	// SortModified orders files by modification time, newest first.
	SortModified
	// SortNone streams results in engine order (fastest, not deterministic).
	SortNone
)

// BinaryMode says how files holding a NUL byte are searched.
type BinaryMode int

const (
	// BinaryQuit is rg's default: a file found by the walk stops being
	// searched at its first NUL (what was found before is reported, see
	// Stats.Binary); a file named in Paths is searched whole, each NUL
	// read as a line break.
	BinaryQuit BinaryMode = iota
	// BinarySearch is rg --binary (and -uuu): every file is searched whole
	// as a file named in Paths is.
	BinarySearch
	// BinaryText is rg -a/--text: a NUL is a byte like any other, no file
	// is binary, and a pattern may match a NUL.
	BinaryText
)

// MmapMode says whether files are read as rg reads them when it maps them
// into memory (rg --mmap / --no-mmap). It changes which NUL bytes rg sees:
// a mapped file is checked for one in its first 64 KiB, then only in the
// lines it reports; a read file in every buffer fill.
type MmapMode int

const (
	// MmapAuto is rg's default: files are mapped when Paths names at most
	// ten paths and all of them are files.
	MmapAuto MmapMode = iota
	// MmapAlways is rg --mmap: every file is mapped (a stream never is).
	MmapAlways
	// MmapNever is rg --no-mmap: every file is read in buffer fills.
	MmapNever
)

// Query is one search request. The zero value of every field is rg's default.
type Query struct {
	// Pattern is a regular expression in rg 15's dialect (the Rust regex
	// crate's syntax, Unicode-aware; see Normalize), or a literal when Fixed
	// is set.
	Pattern string
	// Root is the directory that result paths are relative to.
	Root string
	// Paths are files or directories under Root to search; empty means Root.
	Paths []string
	// Globs are include globs, or excludes when prefixed with '!', in
	// doublestar syntax with {a,b}, anchored like rg's --glob.
	Globs []string
	// Types are rg type names (go, py, ts, ...) from the shared type table.
	Types []string

	Case      CaseMode
	Fixed     bool // the pattern is a literal string (rg -F)
	Word      bool // match only at word boundaries (rg -w)
	Multiline bool // a match may span lines; '.' matches '\n' (rg -U --multiline-dotall)
	// PCRE2 says Pattern is in PCRE2's syntax (rg -P): look-around and
	// back-references. An engine that cannot search it with PCRE2's
	// meaning declines the query (ErrUnsupported).
	PCRE2 bool

	// How a file's bytes are read and matched (see docs/search.md, "Reading
	// files"). An external engine that cannot honour one of these exactly
	// declines the query (ErrUnsupported) and the Chain moves on.

	// Encoding is rg -E: "" or "auto" transcodes only a file that starts
	// with a UTF-16 byte-order mark (and drops a UTF-8 one), "none"
	// searches the raw bytes, any other WHATWG label (utf-16le, latin1,
	// shift_jis, euc-kr, ...) transcodes every file from it to UTF-8 unless
	// a byte-order mark says otherwise. Line numbers, columns and offsets
	// then refer to the UTF-8 text, as in rg's output.
	Encoding string
	// SearchZip is rg -z: a file named *.gz, *.tgz, *.bz2, *.tbz2, *.xz,
	// *.txz, *.lzma, *.lz4, *.br, *.zst, *.zstd or *.Z is searched
	// decompressed (in process, streamed); offsets refer to the
	// decompressed data.
	SearchZip bool
	// CRLF is rg --crlf: '$' also matches before "\r\n", '^' after it, and
	// '.' does not match '\r'.
	CRLF bool
	// NoUnicode is rg --no-unicode: \w, \d, \s, \b and case folding
	// are ASCII-only, and a '.', a negated class or \x80-\xFF matches
	// one byte of any value, as in rg.
	NoUnicode bool
	// Binary is what a NUL byte does (rg's default, --binary, -a).
	Binary BinaryMode
	// Mmap is whether files are read as mapped ones (rg --mmap/--no-mmap).
	Mmap MmapMode
	// NullData is rg --null-data: a NUL byte ends a line instead of '\n',
	// which becomes an ordinary byte ('.' still does not match it, and '^'
	// and '$' still match around it, as in rg). Normalize sets Binary to
	// BinaryText and clears CRLF, as the flag implies in rg; a pattern
	// that needs a NUL is refused.
	NullData bool

	Before, After   int // context lines (rg -B / -A)
	MaxCountPerFile int // at most this many matching lines per file; 0 = no limit (rg -m)
	// MaxCountSet makes MaxCountPerFile apply even when it is 0: rg -m 0
	// reports nothing (and exits 1), where an unset -m means no limit. A
	// flag rather than a pointer keeps the zero Query rg's default.
	MaxCountSet bool
	Mode        OutputMode

	Hidden bool // search hidden files and directories
	// NoIgnore does not apply ignore files: it is NoIgnoreDot,
	// NoIgnoreVCS and NoIgnoreParent together (rg --no-ignore).
	// IgnoreFiles still apply, as in rg.
	NoIgnore       bool
	FollowSymlinks bool  // follow symbolic links while recursing
	MaxFileSize    int64 // skip files larger than this many bytes; 0 = no limit
	MaxColumns     int   // cut line text after this many bytes, with a marker; 0 = no cap

	// The finer switches of rg's file selection; the zero value of each is
	// rg's default. Engines that cannot honour one decline the query.
	NoIgnoreDot     bool // skip .ignore and .rgignore files (rg --no-ignore-dot)
	NoIgnoreVCS     bool // skip .gitignore, .git/info/exclude and the global excludes file (rg --no-ignore-vcs)
	NoIgnoreExclude bool // skip .git/info/exclude (rg --no-ignore-exclude)
	NoIgnoreGlobal  bool // skip the global git excludes file (rg --no-ignore-global)
	NoIgnoreParent  bool // skip ignore files of the directories above Root and Paths (rg --no-ignore-parent)
	NoRequireGit    bool // apply git's ignore files outside a git repository too (rg --no-require-git)
	// IgnoreCaseInsensitive matches ignore files' globs ignoring ASCII case
	// (rg --ignore-file-case-insensitive).
	IgnoreCaseInsensitive bool
	// IgnoreFiles are extra gitignore-syntax files (rg --ignore-file),
	// matched against paths relative to Root: they rank below every other
	// ignore file, and a later one ranks above an earlier one. A file that
	// cannot be read is skipped (the caller reports it).
	IgnoreFiles []string
	// IGlobs are Globs compared ignoring ASCII case (rg --iglob); like rg,
	// they come after every glob of Globs, so they win a tie.
	IGlobs []string
	// GlobCaseInsensitive compares every glob of Globs ignoring ASCII case
	// too (rg --glob-case-insensitive).
	GlobCaseInsensitive bool
	// TypeSelections are rg --type / --type-not selections with their
	// globs resolved (after --type-add / --type-clear), in command-line
	// order, applied after Types: the last selection with a glob matching
	// a file's name decides (Negate excludes it, otherwise it is
	// searched); when any selection (or Types) includes, a file matching
	// none is excluded. Directories are never filtered by type.
	TypeSelections []TypeSelection
	// MaxDepth limits the walk to this many levels below each path (rg -d;
	// 0 searches only paths that are files), when MaxDepthSet.
	MaxDepth    int
	MaxDepthSet bool
	// OneFileSystem does not descend into a directory on another file
	// system than the path it was reached from (rg --one-file-system).
	OneFileSystem bool
	// GlobBase is Root's path as rg's working directory names it ("" when
	// Root is that directory): rg matches Globs, IGlobs, IgnoreFiles and
	// the global excludes file against the path as its walk names it
	// ("repo/a.go" for `rg -g 'repo/*.go' x repo`), so each path relative
	// to Root is matched as GlobBase + "/" + path. Engines that run rg
	// from Root cannot honour it and decline.
	GlobBase string
	// GlobCwd, with an absolute GlobBase, is rg's working directory: a
	// path that starts with it (bytewise, as rg compares) is matched
	// without it and the slash after it, so a root that holds the working
	// directory sees the paths below it as relative ones.
	GlobCwd string
	// GitDir treats a .git directory as the hidden directory it is (rg's
	// rule: searched with Hidden); unset, .git is never searched, the
	// library's rule for agents and listings.
	GitDir bool

	Limit  int // at most this many entries (matching lines, or files in the other modes); 0 = no limit
	Offset int // skip this many entries first (paging)
	Sort   SortOrder

	// Timeout bounds the whole search; what was found by then is returned with Partial set.
	Timeout time.Duration

	// Confine, when set, is the directory Root names, held open by the
	// caller: every directory and file the search opens must be reached
	// beneath it, never by resolving a path string from "/" again, so a
	// Root or a directory inside it replaced by a symbolic link while the
	// search runs cannot lead it outside. Paths (and links inside the
	// tree) that resolve outside it are not searched. An engine that
	// cannot open files this way (rg opens path strings) refuses the query
	// with ErrUnsupported, so a Chain moves on to one that can. Confinement
	// with FollowSymlinks is refused: links out of the tree are what
	// following them is for.
	Confine *os.Root
}

// TypeSelection is one rg -t (or, with Negate, -T) whose type's globs are
// resolved: rg type globs, matched against a file's base name.
type TypeSelection struct {
	Name   string // the type's name, for messages
	Globs  []string
	Negate bool
}

// ContextLines merges rg's -B, -A and -C into the lines of context before
// and after a match, as rg 15 does: -C sets both sides, and -B or -A, when
// given (non-nil), sets its own side whatever the order of the flags.
func ContextLines(before, after *int, context int) (b, a int) {
	b, a = context, context
	if before != nil {
		b = *before
	}
	if after != nil {
		a = *after
	}
	return b, a
}

// CustomReading names the first of q's reading fields (Encoding, SearchZip,
// CRLF, NoUnicode, Binary) that is not rg's default, or returns "". An
// engine whose tool is not told about them declines such a query with
// ErrUnsupported, so the Chain moves on to one that honours them.
func (q Query) CustomReading() string {
	switch {
	case q.NullData:
		return "null-data"
	case q.Encoding != "" && q.Encoding != "auto":
		return "encoding " + q.Encoding
	case q.SearchZip:
		return "search-zip"
	case q.CRLF:
		return "crlf"
	case q.NoUnicode:
		return "no-unicode"
	case q.Binary == BinarySearch:
		return "binary"
	case q.Binary == BinaryText:
		return "text"
	case q.NullData:
		return "null-data"
	}
	return ""
}
