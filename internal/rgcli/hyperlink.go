package rgcli

import "strings"

// hyperlinkAliases are rg 15's names for hyperlink formats, in the order
// its error message lists them.
var hyperlinkAliases = []string{"default", "none", "cursor", "file", "grep+", "kitty", "macvim", "textmate", "vscode", "vscode-insiders", "vscodium"}

// HyperlinkFormatActive reports whether --hyperlink-format asks for
// hyperlinks at all: an empty format and "none" do not.
func (o *Options) HyperlinkFormatActive() bool {
	return o.HyperlinkFormat != "" && o.HyperlinkFormat != "none"
}

// checkHyperlinkFormat validates a --hyperlink-format value as rg 15 does:
// an alias, or text with {path} (and {line} if {column}) after a URL
// scheme; the reason is worded as rg's.
func checkHyperlinkFormat(v string) string {
	for _, a := range hyperlinkAliases {
		if v == a {
			return ""
		}
	}
	if v == "" {
		return ""
	}
	type part struct {
		text string
		v    string // a variable's name; "" for text
	}
	var parts []part
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, part{text: text.String()})
			text.Reset()
		}
	}
	rs := []rune(v)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '}':
			if i+1 < len(rs) && rs[i+1] == '}' {
				text.WriteRune('}')
				i++
				continue
			}
			return "unopened variable: found '}' without a corresponding '{' preceding it"
		case c == '{':
			if i+1 < len(rs) && rs[i+1] == '{' {
				text.WriteRune('{')
				i++
				continue
			}
			j := i + 1
			for j < len(rs) && rs[j] != '}' {
				j++
			}
			if j >= len(rs) {
				return "unclosed variable: found '{' without a corresponding '}' following it"
			}
			name := string(rs[i+1 : j])
			switch name {
			case "host", "wslprefix", "path", "line", "column":
			default:
				return "invalid hyperlink format variable: '" + name + "', choose from: path, line, column, host, wslprefix"
			}
			flush()
			parts = append(parts, part{v: name})
			i = j
		default:
			text.WriteRune(c)
		}
	}
	flush()
	has := func(name string) bool {
		for _, p := range parts {
			if p.v == name {
				return true
			}
		}
		return false
	}
	anyVar := false
	for _, p := range parts {
		anyVar = anyVar || p.v != ""
	}
	switch {
	case len(parts) == 0:
		return ""
	case !anyVar:
		return "at least a {path} variable is required in a hyperlink format, or otherwise use a valid alias: " + strings.Join(hyperlinkAliases, ", ")
	case !has("path"):
		return "the {path} variable is required in a hyperlink format"
	case has("column") && !has("line"):
		return "the hyperlink format contains a {column} variable, but no {line} variable is present"
	}
	first := parts[0]
	scheme, _, found := strings.Cut(first.text, ":")
	if first.v != "" || !found || scheme == "" || strings.TrimLeft(scheme, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+-.") != "" {
		return "the hyperlink format must start with a valid URL scheme, i.e., [0-9A-Za-z+-.]+:"
	}
	return ""
}
