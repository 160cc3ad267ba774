package rgcli

import (
	"slices"
	"strings"
)

// Choices are the values a flag accepts, for shell completion and for the
// messages of rgkit's own flags; typeNames completes -t and -T.
func Choices(long string, typeNames func() []string) []string {
	switch long {
	case "backend":
		return []string{"auto", "fastest", "ripgrep", "gitgrep", "grep", "native"}
	case "format":
		return []string{"rg", "rgkit-json"}
	case "sort", "sortr":
		return []string{"none", "path", "modified", "accessed", "created"}
	case "color":
		return []string{"never", "auto", "always", "ansi"}
	case "type", "type-not":
		if typeNames != nil {
			return typeNames()
		}
	}
	return nil
}

// Complete returns the completions for the word being typed (toComplete)
// after the arguments before it: a flag's values when the previous word is
// a flag that takes one (or the word is --flag=), rg's long flags when the
// word starts with "--", and nil (files) otherwise.
func Complete(before []string, toComplete string, typeNames func() []string) []string {
	if long, prefix, ok := strings.Cut(toComplete, "="); ok && strings.HasPrefix(long, "--") {
		var out []string
		for _, c := range Choices(strings.TrimPrefix(long, "--"), typeNames) {
			if strings.HasPrefix(c, prefix) {
				out = append(out, long+"="+c)
			}
		}
		return out
	}
	if n := len(before); n > 0 {
		if f, ok := lookupFlag(before[n-1]); ok && f.value {
			var out []string
			for _, c := range Choices(f.long, typeNames) {
				if strings.HasPrefix(c, toComplete) {
					out = append(out, c)
				}
			}
			return out
		}
	}
	if strings.HasPrefix(toComplete, "--") {
		var out []string
		for _, f := range flags {
			if w := "--" + f.long; strings.HasPrefix(w, toComplete) {
				out = append(out, w)
			}
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// lookupFlag finds the flag a whole word names: --long or a lone -s.
func lookupFlag(word string) (flag, bool) {
	for _, f := range flags {
		if word == "--"+f.long || (f.short != 0 && word == "-"+string(f.short)) {
			return f, true
		}
	}
	return flag{}, false
}
