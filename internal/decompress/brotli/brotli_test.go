package brotli

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/decompress"
	"github.com/rgkit/rgkit/internal/testtool"
)

// Imported, the package makes .br a format rg -z decodes, and the decoder
// reads what the brotli tool writes.
func TestBrotliIsLinkedAndDecodesTheToolsOutput(t *testing.T) {
	t.Parallel()
	tool := testtool.Need(t, "brotli")
	data := []byte(strings.Repeat("line of the log: foo bar\n", 5000))
	cmd := exec.Command(tool, "-q", "5", "-c")
	cmd.Stdin = bytes.NewReader(data)
	packed, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := decompress.ForPath("x.br")
	if !ok || f != decompress.Brotli {
		t.Fatalf("ForPath(x.br) = %v, %v", f, ok)
	}
	r, err := decompress.NewReader(f, bytes.NewReader(packed), "x.br")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("decoded %d bytes (err %v), want %d", len(got), err, len(data))
	}
}
