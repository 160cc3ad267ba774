package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// withXZDict rewrites the LZMA2 dictionary byte of the first block header of
// the xz stream b (and the header's CRC), as a hostile archive would.
func withXZDict(t *testing.T, b []byte, bits byte) []byte {
	t.Helper()
	b = bytes.Clone(b)
	hsize := (int(b[12]) + 1) * 4
	h := b[12 : 12+hsize]
	i := bytes.Index(h, []byte{0x21, 0x01})
	if i < 0 {
		t.Fatalf("no LZMA2 filter flags in block header % x", h)
	}
	h[i+2] = bits
	binary.LittleEndian.PutUint32(h[hsize-4:], crc32.ChecksumIEEE(h[:hsize-4]))
	return b
}

func TestExtractXZDictionaryCap(t *testing.T) {
	tarball := tarBytes(t, releaseLayout(topDir, "rg"))
	tests := []struct {
		name string
		bits byte
		ok   bool
	}{
		{"8 MiB (xz -6, what real archives use)", 22, true},
		{"32 MiB", 26, true},
		{"64 MiB (xz -9), the cap", 28, true},
		{"96 MiB", 29, false},
		{"1.5 GiB from a 200-byte file", 37, false},
		{"4 GiB - 1", 40, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := withXZDict(t, xzBytes(t, tarball), tc.bits)
			got, err := extract(a, TarXz, member, Limits{})
			if tc.ok {
				if err != nil || !bytes.Equal(got, rgBody) {
					t.Fatalf("Extract = %d bytes, %v; want rg", len(got), err)
				}
				return
			}
			if !errors.Is(err, &Error{Kind: TooLarge}) || !strings.Contains(err.Error(), "dictionary") {
				t.Fatalf("Extract = %v; want TooLarge naming the dictionary", err)
			}
			deb := debBytes(t, "data.tar.xz", withXZDict(t, xzBytes(t, tarBytes(t, debLayout())), tc.bits))
			if _, err := extract(deb, Deb, "usr/bin/rg", Limits{}); !errors.Is(err, &Error{Kind: TooLarge}) {
				t.Fatalf("Extract(deb) = %v; want TooLarge", err)
			}
		})
	}
	if _, err := extract(withXZDict(t, xzBytes(t, tarball), 41), TarXz, member, Limits{}); !errors.Is(err, &Error{Kind: Corrupt}) {
		t.Errorf("dictionary byte 41: Extract = %v; want Corrupt", err)
	}
}

func TestExtractXZStreams(t *testing.T) {
	tarball := tarBytes(t, releaseLayout(topDir, "rg"))
	one := xzBytes(t, tarball)
	empty := xzBytes(t, nil)
	tests := []struct {
		name    string
		archive []byte
		kind    ErrorKind // 0 = extracts rg
	}{
		{"stream padding then a second stream", append(append(bytes.Clone(one), 0, 0, 0, 0), empty...), 0},
		{"trailing stream padding", append(bytes.Clone(one), make([]byte, 8)...), 0},
		{"padding not a multiple of four", append(bytes.Clone(one), 0, 0), Corrupt},
		{"garbage after the stream", append(bytes.Clone(one), []byte("junk")...), Corrupt},
		{"index declares more than the total cap", one, TooLarge},
		{"bad footer CRC", flip(one, len(one)-8), Corrupt},
		{"bad index CRC", flip(one, len(one)-13), Corrupt},
		{"bad block header CRC", flip(one, 13), Corrupt},
		{"bad stream header", flip(one, 1), Corrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lim := Limits{}
			if tc.kind == TooLarge {
				lim.MaxTotal = int64(len(tarball)) - 1
			}
			got, err := extract(tc.archive, TarXz, member, lim)
			if tc.kind == 0 {
				if err != nil || !bytes.Equal(got, rgBody) {
					t.Fatalf("Extract = %d bytes, %v; want rg", len(got), err)
				}
				return
			}
			if !errors.Is(err, &Error{Kind: tc.kind}) {
				t.Fatalf("Extract = %v; want %v", err, tc.kind)
			}
		})
	}
}

// flip returns b with the byte at i inverted.
func flip(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 0xff
	return b
}
