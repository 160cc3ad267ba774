package rgcli

import (
	"os"
	"strconv"
	"strings"
)

// Unescape turns rg's escapes in a separator into bytes: \n, \r, \t, \\,
// \0 and \xHH; anything else stays as written.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		case '0':
			b.WriteByte(0)
		case 'x':
			if i+3 < len(s) {
				if n, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
					b.WriteByte(byte(n))
					i += 3
					continue
				}
			}
			b.WriteString(s[i : i+2])
		default:
			b.WriteString(s[i : i+2])
		}
		i++
	}
	return b.String()
}

// ConfigArgs reads rg's configuration file named by RIPGREP_CONFIG_PATH
// (getenv's value): one argument per line, blank lines and lines starting
// with '#' skipped. It returns nil when the variable is unset or args
// contain --no-config. A file that cannot be read is a *ConfigReadError:
// rg warns about it and searches without it, so the caller prints it and
// goes on. Only the command line honours it; the library and the agent
// tools never read it.
func ConfigArgs(getenv func(string) string, args []string) ([]string, error) {
	path := getenv("RIPGREP_CONFIG_PATH")
	if path == "" {
		return nil, nil
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--no-config" {
			return nil, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigReadError{Path: path, Reason: ioReason(err)}
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out, nil
}

// ConfigReadError is a RIPGREP_CONFIG_PATH file that could not be read,
// worded as rg's warning.
type ConfigReadError struct {
	Path, Reason string
}

func (e *ConfigReadError) Error() string {
	return "failed to read the file specified in RIPGREP_CONFIG_PATH: " + e.Path + ": " + e.Reason
}

// ioReason words an OS error as rg's messages do ("No such file or
// directory (os error 2)").
func ioReason(err error) string {
	var pe *os.PathError
	if e, ok := err.(*os.PathError); ok {
		pe = e
	}
	if pe != nil {
		err = pe.Err
	}
	return OSError(err)
}
