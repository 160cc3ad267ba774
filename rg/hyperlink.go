package rg

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rgkit/rgkit/internal/rgcli"
)

// hyperlinkFormats are rg 15's aliases (docs/cli.md), on Unix.
var hyperlinkFormats = map[string]string{
	"cursor":          "cursor://file{path}:{line}:{column}",
	"default":         "file://{host}{path}",
	"file":            "file://{host}{path}",
	"grep+":           "grep+://{path}:{line}",
	"kitty":           "file://{host}{path}#{line}",
	"macvim":          "mvim://open?url=file://{path}&line={line}&column={column}",
	"none":            "",
	"textmate":        "txmt://open?url=file://{path}&line={line}&column={column}",
	"vscode":          "vscode://file{path}:{line}:{column}",
	"vscode-insiders": "vscode-insiders://file{path}:{line}:{column}",
	"vscodium":        "vscodium://file{path}:{line}:{column}",
}

// hyperlinker builds the URLs of --hyperlink-format (already checked by
// rgcli), {host} being host: lines says the format names the line. nil
// when there is none.
func hyperlinker(o *rgcli.Options, host string) (url func(abs string, line, column int) string, lines bool) {
	format := o.HyperlinkFormat
	if f, ok := hyperlinkFormats[format]; ok {
		format = f
	}
	if format == "" {
		return nil, false
	}
	return func(abs string, line, column int) string {
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			c := format[i]
			if (c == '{' || c == '}') && i+1 < len(format) && format[i+1] == c {
				b.WriteByte(c)
				i++
				continue
			}
			if c != '{' {
				b.WriteByte(c)
				continue
			}
			j := strings.IndexByte(format[i:], '}') + i
			switch format[i+1 : j] {
			case "path":
				b.WriteString(hyperlinkPath(abs))
			case "host":
				b.WriteString(host)
			case "line":
				b.WriteString(strconv.Itoa(line))
			case "column":
				b.WriteString(strconv.Itoa(column))
			case "wslprefix":
			}
			i = j
		}
		return b.String()
	}, strings.Contains(format, "{line}")
}

// hyperlinkPath is a file's path as rg puts it in a URL: resolved through
// links, with every ASCII byte but letters, digits and "/:-._~"
// percent-encoded.
func hyperlinkPath(abs string) string {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	var b strings.Builder
	for i := 0; i < len(abs); i++ {
		c := abs[i]
		switch {
		case c >= 0x80, c >= '0' && c <= '9', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', strings.IndexByte("/:-._~", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}
