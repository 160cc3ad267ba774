package rgcli

import _ "embed" // rg's help texts

// Special is a mode that answers without searching: help or version. As in
// rg, the last one given wins, it beats every other mode, and the caller
// answers it before reading the config file (which cannot change it).
type Special int

const (
	// NoSpecial is a search (or --files, --type-list).
	NoSpecial Special = iota
	// HelpShort is -h: one line per flag.
	HelpShort
	// HelpLong is --help: the full flag reference.
	HelpLong
	// VersionShort is -V: one line.
	VersionShort
	// VersionLong is --version: the version, the build's features and
	// PCRE2's availability.
	VersionLong
	// VersionPCRE2 is --pcre2-version.
	VersionPCRE2
)

// Help texts: rg 15.2.0's -h and --help output below its first two lines
// (rg's version and author), which the caller writes for itself. They are
// data, compared with rg 15.2.0's output by a test.
var (
	//go:embed help/short.txt
	HelpShortBody string
	//go:embed help/long.txt
	HelpLongBody string
)

// special sets the special mode m from flag -h/--help or -V/--version,
// telling the short spelling from the long one by shown.
func special(short, long Special) func(o *Options, v, shown string) error {
	return func(o *Options, _, shown string) error {
		if len(shown) == 2 {
			o.Special = short
		} else {
			o.Special = long
		}
		return nil
	}
}
