//go:build unix

package realrg

import "syscall"

// becomeProgram replaces this process by path (execve); it returns only
// on failure.
func becomeProgram(path string, args, env []string) error {
	return syscall.Exec(path, append([]string{path}, args...), env)
}
