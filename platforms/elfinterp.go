package platforms

import (
	"debug/elf"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxInterpLen bounds the PT_INTERP segment we read; real ones are ~30 bytes.
const maxInterpLen = 4096

// ELFInterpreter returns the program interpreter (the PT_INTERP string, e.g.
// "/lib/ld-musl-aarch64.so.1") of the ELF file r, or "" if it has none (a
// static executable).
func ELFInterpreter(r io.ReaderAt) (string, error) {
	f, err := elf.NewFile(r)
	if err != nil {
		return "", err
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type != elf.PT_INTERP {
			continue
		}
		if prog.Filesz == 0 || prog.Filesz > maxInterpLen {
			return "", fmt.Errorf("platforms: PT_INTERP of size %d", prog.Filesz)
		}
		buf := make([]byte, prog.Filesz)
		if _, err := prog.ReadAt(buf, 0); err != nil {
			return "", fmt.Errorf("platforms: reading PT_INTERP: %w", err)
		}
		return strings.TrimRight(string(buf), "\x00"), nil
	}
	return "", nil
}

// elfInterpOfFile is the default Probes.ELFInterp.
func elfInterpOfFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return ELFInterpreter(f)
}
