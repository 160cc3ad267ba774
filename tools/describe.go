package tools

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Tool descriptions are written for a model, like Claude Code's: when to use
// the tool, the pattern dialect, how to escape, how paging works. {Grep},
// {Glob}, {Read}, {root} and the {limits} are filled in per Workspace.

const grepDescription = `Searches file contents with a regular expression. Built on ripgrep; when ripgrep is missing it falls back to git grep, grep or a pure-Go engine that give the same results.

Usage:
- ALWAYS use {Grep} to search file contents. Do not run grep or rg through a shell.
- pattern is a regular expression in ripgrep's syntax (the Rust regex dialect rg uses without -P: Unicode-aware \w \d \s \b), e.g. "log.*Error" or "func\s+\w+". Escape characters that are special in a regex: to find "interface{}" search for "interface\{\}", to find "a.b(" search for "a\.b\(". Or set fixed_strings to true to match the text literally. Look-around and back-references are not supported.
- A pattern matches within one line unless multiline is true (then "." also matches newlines and a match may span lines).
- Narrow the files with glob (e.g. "*.js", "**/*.{ts,tsx}", "!**/testdata/**") or type (e.g. "go", "py", "rust", "js", "ts").
- output_mode: "files_with_matches" (default) lists the files that contain a match, newest modified first (ties by path); "content" shows matching lines as path:line:text, with context lines (-A, -B, -C) as path-line-text and "--" between groups; "count" shows path:N, the number of matching lines per file.
- Results are paged: at most head_limit entries (default {grep_head_limit}; 0 for no limit) after skipping offset entries. An entry is a matching line in content mode and a file otherwise. When results are cut, the output says so and gives the offset of the next page.
- Paths are relative to the workspace root {root}. path limits the search to a file or directory under the root. {skipped_grep} are skipped.
- Matching lines longer than {max_columns} bytes are cut and marked "[... N more bytes]"; use {Read} to see such a line.
- Use {Glob} to find files by name and {Read} to see a file's lines.`

const globDescription = `Finds files by path with a glob pattern, e.g. "**/*.go" or "src/**/*.{ts,tsx}". Lists matching files, newest modified first.

Usage:
- Use {Glob} to find files by name or extension. To search file contents use {Grep}.
- Patterns use glob syntax: "*" matches any characters except "/", "**" matches any number of directories, "{a,b}" either alternative, "[abc]" one character. A pattern without "/" matches file names at any depth ("*.go" finds every Go file); a pattern with "/" matches paths from the search directory ("cmd/*/main.go").
- path is the directory to search, relative to the workspace root {root} (default: the root). The pattern may not climb above the root with "..".
- At most head_limit files are listed (default {glob_head_limit}); offset skips that many first. When the list is cut, the output says how many files matched and gives the next offset; a more specific pattern is usually better than paging.
- {skipped_glob}. Paths are shown relative to the workspace root, ready for {Read}.`

const readDescription = `Reads a text file and shows its lines numbered from 1, one per line as "N<TAB>content".

Usage:
- file_path is absolute or relative to the workspace root {root}; it must lie inside the root.
- Up to {read_lines} lines are shown from offset (the first line to show, 1-based; default 1). For a long file read the part you need with offset and limit, e.g. the lines around a {Grep} match.
- Lines longer than {read_line_chars} characters are cut and marked "[... N more bytes]".
- When lines are left out, the output ends with a note giving the offset to continue from.
- Binary files are refused. A directory is refused: use {Glob} to list its files.`

// describe fills in a description's placeholders for this Workspace.
func (w *Workspace) describe(tmpl string) string {
	l := w.limits
	return strings.NewReplacer(
		"{Grep}", w.names.Grep,
		"{Glob}", w.names.Glob,
		"{Read}", w.names.Read,
		"{root}", w.sandbox.Root(),
		"{grep_head_limit}", strconv.Itoa(l.GrepHeadLimit),
		"{glob_head_limit}", strconv.Itoa(l.GlobHeadLimit),
		"{max_columns}", strconv.Itoa(l.MaxColumns),
		"{read_lines}", strconv.Itoa(l.ReadLines),
		"{read_line_chars}", strconv.Itoa(l.ReadLineChars),
		"{skipped_grep}", w.skipped(true),
		"{skipped_glob}", w.skippedGlob(),
	).Replace(tmpl)
}

// skipped names what searches leave out under this Workspace's options.
func (w *Workspace) skipped(binary bool) string {
	var s []string
	if !w.noIgnore {
		s = append(s, "files ignored by .gitignore/.ignore")
	}
	if !w.hidden {
		s = append(s, "hidden files")
	}
	if binary {
		s = append(s, "binary files")
	}
	switch len(s) {
	case 0:
		return "Only .git"
	case 1:
		return strings.ToUpper(s[0][:1]) + s[0][1:]
	}
	out := strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	return strings.ToUpper(out[:1]) + out[1:]
}

func (w *Workspace) skippedGlob() string {
	if w.noIgnore && w.hidden {
		return "Every file is listed except those under .git"
	}
	return w.skipped(false) + ` are normally skipped (as with rg --glob, a pattern such as "**/*" that matches their directories lists them too)`
}

// pathHint adds what to do next to a sandbox error a model can act on.
func (w *Workspace) pathHint(err error) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w; use %s to find files by name", err, w.names.Glob)
	}
	return err
}
