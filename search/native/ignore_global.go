package native

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// excludesFileRE is the lazy INI match rg 13 uses for core.excludesFile
// (ignore crate, gitignore.rs parse_excludes_file). Like rg, it does not
// handle sections, quoting or includes.
var excludesFileRE = regexp.MustCompile(`(?im)^\s*excludesfile\s*=\s*(.+)\s*$`)

// globalExcludesPath finds the global gitignore the way rg 13 does, without
// running git: core.excludesFile from $HOME/.gitconfig, else from
// $XDG_CONFIG_HOME/git/config (or ~/.config/git/config), else the default
// $XDG_CONFIG_HOME/git/ignore (or ~/.config/git/ignore). '~' is replaced by
// $HOME anywhere in the configured value, as rg does.
func globalExcludesPath(getenv func(string) string) string {
	home := getenv("HOME")
	xdg := getenv("XDG_CONFIG_HOME")
	configDir := xdg
	if configDir == "" && home != "" {
		configDir = filepath.Join(home, ".config")
	}
	var candidates []string
	if home != "" {
		candidates = append(candidates, filepath.Join(home, ".gitconfig"))
	}
	if configDir != "" {
		candidates = append(candidates, filepath.Join(configDir, "git", "config"))
	}
	for _, cfg := range candidates {
		data, err := os.ReadFile(cfg)
		if err != nil {
			continue
		}
		if m := excludesFileRE.FindSubmatch(data); m != nil {
			p := string(m[1])
			if home != "" {
				p = strings.ReplaceAll(p, "~", home)
			}
			return p
		}
	}
	if configDir == "" {
		return ""
	}
	return filepath.Join(configDir, "git", "ignore")
}
