package rg_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rg"
)

// TestDecodedBinaryFilesAsRg15: a file with a NUL that rg reads through
// its decoder (-E) prints the lines of the reads before the one that
// brought the NUL, then rg's note. rg's first read is the three bytes its
// decoder peeked at for a byte-order mark, so a first line that fits in
// them prints, for an asked UTF-8 too (which rgkit read as one). -v and
// --passthru printed nothing of such a walked file, and every line of a
// named one, NULs included, without the note.
func TestDecodedBinaryFilesAsRg15(t *testing.T) {
	ref := testtool.ReferenceRg(t)
	dir := t.TempDir()
	files := map[string]string{
		"f1.txt": "ab\ncd\x00ef\n", "f2.txt": "a\x82\ncd\x00ef\n", "f3.txt": "0\x82\ncd\nxx\x00ef\n",
		"f4.txt": "abcd\nef\x00\n", "f5.txt": "\xc3\xa9\nx\x00\n", "f6.txt": "a\xc3\xa9\nx\x00\n",
	}
	var named []string
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		named = append(named, path)
	}
	for _, enc := range []string{"utf-8", "latin1"} {
		for _, flags := range [][]string{{"-v", "zzz"}, {"--passthru", "zzz"}, {"-n", "."}, {"-v", "-n", "-A1", "zzz"}} {
			for _, walked := range []bool{true, false} {
				paths, how := []string{dir}, "walked"
				if !walked {
					paths, how = named, "named"
				}
				args := append(append([]string{"--no-config", "--sort", "path", "-E", enc}, flags...), paths...)
				t.Run(enc+" "+strings.Join(flags, " ")+" "+how, func(t *testing.T) {
					t.Parallel()
					wantOut, wantErr, wantCode := testtool.Run(t, exec.Command(ref, args...))
					var out, errOut bytes.Buffer
					code := rg.Main(context.Background(), args, nil, &out, &errOut)
					if code != wantCode || out.String() != wantOut || errOut.String() != wantErr {
						t.Errorf("rg %q: exit %d (rg 15.2.0: %d)\n%s(stderr %q)\nrg 15.2.0:\n%s(stderr %q)", args, code, wantCode, out.String(), errOut.String(), wantOut, wantErr)
					}
				})
			}
		}
	}
}
