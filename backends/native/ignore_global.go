package native

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// excludesFileRE is the lazy INI match rg 15.2 uses for core.excludesFile
// (ignore crate, gitignore.rs parse_excludes_file): optional double quotes
// around the value are dropped. Like rg, it does not handle sections,
// escapes or includes. Compiled when first used (not at every start).
var excludesFileRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$`)
})

// systemGitconfig is git's system configuration when GIT_CONFIG_SYSTEM is
// unset.
const systemGitconfig = "/etc/gitconfig"

// globalExcludesPath finds the global gitignore the way rg 15.2 does,
// without running git: core.excludesFile from $GIT_CONFIG_GLOBAL, else from
// $HOME/.gitconfig, else from $XDG_CONFIG_HOME/git/config (or
// ~/.config/git/config), else from $GIT_CONFIG_SYSTEM (or /etc/gitconfig);
// without one, $XDG_CONFIG_HOME/git/ignore (or ~/.config/git/ignore). '~'
// is replaced by $HOME anywhere in the configured value, as rg does.
func globalExcludesPath(getenv func(string) string) string {
	home := getenv("HOME")
	xdg := getenv("XDG_CONFIG_HOME")
	configDir := xdg
	if configDir == "" && home != "" {
		configDir = filepath.Join(home, ".config")
	}
	var candidates []string
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		candidates = append(candidates, g)
	}
	if home != "" {
		candidates = append(candidates, filepath.Join(home, ".gitconfig"))
	}
	if configDir != "" {
		candidates = append(candidates, filepath.Join(configDir, "git", "config"))
	}
	system := getenv("GIT_CONFIG_SYSTEM")
	if system == "" {
		system = systemGitconfig
	}
	candidates = append(candidates, system)
	for _, cfg := range candidates {
		data, err := os.ReadFile(cfg)
		if err != nil {
			continue
		}
		if !bytes.Contains(bytes.ToLower(data), []byte("excludesfile")) {
			continue // (most configurations: no regexp compiled at all)
		}
		if m := excludesFileRE().FindSubmatch(data); m != nil {
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
