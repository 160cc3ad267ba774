package rgfetch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSidecar(t *testing.T) {
	const d = "4cf9f2741e6c465ffdb7c26f38056a59e2a2544b51f7cc128ef28337eeae4d8e"
	tests := []struct {
		name, in, want, errHas string
	}{
		{"shasum text mode", d + "  ripgrep-14.1.1-x86_64-unknown-linux-musl.tar.gz\n", d, ""},
		{"shasum binary mode star", d + " *ripgrep-14.1.1-x86_64-unknown-linux-musl.tar.gz\n", d, ""},
		{"bare digest without newline", d, d, ""},
		{"uppercase digest", strings.ToUpper(d) + "  x\n", d, ""},
		{"certutil three CRLF lines", "SHA256 hash of ripgrep-14.1.1-x86_64-pc-windows-msvc.zip:\r\n" + d + "\r\nCertUtil: -hashfile command completed successfully.\r\n", d, ""},
		{"build path in the name field (ripgrep#2654)", d + "  target/x86_64-unknown-linux-musl/debian/ripgrep_14.0.0-1_amd64.deb\n", d, ""},
		{"name that looks like hex but is longer", d + "  " + d + "00.tar.gz\n", d, ""},
		{"two digests are ambiguous", d + "  a\n" + strings.Replace(d, "4", "5", 1) + "  b\n", "", "more than one"},
		{"certutil word only", "SHA256 hash of x.zip:\r\nCertUtil: failed\r\n", "", "no SHA-256"},
		{"empty file", "", "", "no SHA-256"},
		{"63 hex digits", d[:63] + "  x\n", "", "no SHA-256"},
		{"65 hex digits", d + "a  x\n", "", "no SHA-256"},
		{"digest glued to the star", "*" + d + "\n", "", "no SHA-256"},
		{"digest of empty input (failed curl)", emptySHA256 + "  x\n", "", "empty input"},
		{"html error page", "<html><body>404 Not Found</body></html>", "", "no SHA-256"},
		{"oversized", strings.Repeat(" ", maxSidecarSize) + d, "", "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSidecar([]byte(tt.in))
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("ParseSidecar = %q, %v; want error containing %q", got, err, tt.errHas)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseSidecar = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// The files in testdata/sidecars are the formats ripgrep's release workflow
// and manual uploads produce; each must yield the digest pinned for it.
func TestParseSidecarRealFormats(t *testing.T) {
	want := map[string]string{
		"shasum.sha256":                 pins[pinKey{"14.1.1", "x86_64-unknown-linux-musl"}].SHA256,
		"certutil.sha256":               pins[pinKey{"14.1.1", "x86_64-pc-windows-gnu"}].SHA256,
		"m2-build-path.sha256":          pins[pinKey{"14.1.1", "aarch64-apple-darwin"}].SHA256,
		"binary-mode-build-path.sha256": pins[pinKey{"14.1.1", "x86_64-unknown-linux-musl"}].SHA256,
	}
	for name, digest := range want {
		data, err := os.ReadFile(filepath.Join("testdata", "sidecars", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseSidecar(data)
		if err != nil || got != digest {
			t.Errorf("%s: ParseSidecar = %q, %v; want %s", name, got, err, digest)
		}
	}
}

func FuzzParseSidecar(f *testing.F) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "sidecars"))
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join("testdata", "sidecars", e.Name())); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(emptySHA256 + "  x\n"))
	f.Add([]byte("SHA256 hash of x:\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseSidecar(data)
		if err != nil {
			return
		}
		// A result is always a normalised digest that occurs in the input
		// as a whole whitespace-separated token.
		if n, nerr := NormalizeSHA256(got); nerr != nil || n != got {
			t.Fatalf("ParseSidecar returned non-normalised %q", got)
		}
		found := false
		for _, tok := range bytes.Fields(data) {
			if strings.EqualFold(string(tok), got) {
				found = true
			}
		}
		if !found {
			t.Fatalf("ParseSidecar returned %q, which is not a token of the input", got)
		}
	})
}
