package rgcli

import (
	"fmt"
	"strconv"
	"strings"
)

// Style is one output element's look (rg's --colors for path, line,
// column, match or highlight).
type Style struct {
	FG, BG                           string // "" none, a color name, "N" (0-255) or "R,G,B"
	Bold, Intense, Underline, Italic bool
}

// IsZero reports whether the style sets nothing (printed without escapes).
func (s Style) IsZero() bool { return s == Style{} }

// Palette is every element's Style.
type Palette struct {
	Path, Line, Column, Match, Highlight Style
}

// DefaultPalette is rg's default on Unix: magenta paths, green line
// numbers, bold red matches.
func DefaultPalette() Palette {
	return Palette{Path: Style{FG: "magenta"}, Line: Style{FG: "green"}, Match: Style{FG: "red", Bold: true}}
}

// colorSpec is one parsed --colors value.
type colorSpec struct {
	target, attr, value string
}

// parseColorSpec checks one --colors value in rg's {type}:{attribute}:{value}
// or {type}:none form.
func parseColorSpec(s string) (colorSpec, error) {
	parts := strings.Split(s, ":")
	var c colorSpec
	switch len(parts) {
	case 2:
		if parts[1] != "none" {
			return c, errorf("invalid color spec format: '%s'. Valid format is '(path|line|column|match|highlight):(fg|bg|style):(value)'.", s)
		}
		c = colorSpec{target: parts[0], attr: "none"}
	case 3:
		c = colorSpec{target: parts[0], attr: parts[1], value: parts[2]}
	default:
		return c, errorf("invalid color spec format: '%s'. Valid format is '(path|line|column|match|highlight):(fg|bg|style):(value)'.", s)
	}
	switch c.target {
	case "path", "line", "column", "match", "highlight":
	default:
		return c, errorf("unrecognized output type '%s'. Choose from: path, line, column, match, highlight.", c.target)
	}
	switch c.attr {
	case "none":
	case "fg", "bg":
		if !validColor(c.value) {
			return c, errorf("unrecognized color name '%s'. Choose from: black, blue, green, red, cyan, magenta, yellow, white", c.value)
		}
	case "style":
		switch c.value {
		case "bold", "nobold", "intense", "nointense", "underline", "nounderline", "italic", "noitalic":
		default:
			return c, errorf("unrecognized style attribute '%s'. Choose from: nobold, bold, nointense, intense, nounderline, underline, noitalic, italic.", c.value)
		}
	default:
		return c, errorf("unrecognized spec type '%s'. Choose from: fg, bg, style, none.", c.attr)
	}
	return c, nil
}

func validColor(v string) bool {
	switch v {
	case "black", "blue", "green", "red", "cyan", "magenta", "yellow", "white":
		return true
	}
	parts := strings.Split(v, ",")
	if len(parts) != 1 && len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if _, err := parseColorNumber(p); err != nil {
			return false
		}
	}
	return true
}

func parseColorNumber(p string) (uint8, error) {
	if h, ok := strings.CutPrefix(p, "0x"); ok {
		n, err := strconv.ParseUint(h, 16, 8)
		return uint8(n), err
	}
	n, err := strconv.ParseUint(p, 10, 8)
	return uint8(n), err
}

// Palette applies --colors over rg's default palette, in order.
func (o *Options) Palette() Palette {
	p := DefaultPalette()
	for _, s := range o.Colors {
		c, err := parseColorSpec(s)
		if err != nil {
			continue // rejected while parsing
		}
		var st *Style
		switch c.target {
		case "path":
			st = &p.Path
		case "line":
			st = &p.Line
		case "column":
			st = &p.Column
		case "match":
			st = &p.Match
		default:
			st = &p.Highlight
		}
		switch c.attr {
		case "none":
			*st = Style{}
		case "fg":
			st.FG = c.value
		case "bg":
			st.BG = c.value
		case "style":
			on := !strings.HasPrefix(c.value, "no")
			switch strings.TrimPrefix(c.value, "no") {
			case "bold":
				st.Bold = on
			case "intense":
				st.Intense = on
			case "underline":
				st.Underline = on
			case "italic":
				st.Italic = on
			}
		}
	}
	return p
}

// Escape is the ANSI sequence that starts s, as rg's terminal library
// writes it: a reset, the attributes, then the colors.
func (s Style) Escape() string {
	var b strings.Builder
	b.WriteString("\x1b[0m")
	if s.Bold {
		b.WriteString("\x1b[1m")
	}
	if s.Italic {
		b.WriteString("\x1b[3m")
	}
	if s.Underline {
		b.WriteString("\x1b[4m")
	}
	if s.FG != "" {
		b.WriteString(colorEscape(s.FG, s.Intense, false))
	}
	if s.BG != "" {
		b.WriteString(colorEscape(s.BG, s.Intense, true))
	}
	return b.String()
}

func colorEscape(c string, intense, bg bool) string {
	names := map[string]int{"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7}
	base := "3"
	if bg {
		base = "4"
	}
	if n, ok := names[c]; ok {
		if intense {
			return fmt.Sprintf("\x1b[%s8;5;%dm", base, n+8)
		}
		return fmt.Sprintf("\x1b[%s%dm", base, n)
	}
	parts := strings.Split(c, ",")
	if len(parts) == 3 {
		r, _ := parseColorNumber(parts[0])
		g, _ := parseColorNumber(parts[1])
		bl, _ := parseColorNumber(parts[2])
		return fmt.Sprintf("\x1b[%s8;2;%d;%d;%dm", base, r, g, bl)
	}
	n, _ := parseColorNumber(c)
	return fmt.Sprintf("\x1b[%s8;5;%dm", base, n)
}
