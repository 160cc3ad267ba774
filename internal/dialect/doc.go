// Package dialect translates a normalised Query's Go RE2 pattern into the
// regex dialect an external engine reads: Rust (rg), PCRE (git grep -P)
// or POSIX ERE (grep -E), or refuses with search.ErrUnsupported when the
// translation could not be exact.
package dialect
