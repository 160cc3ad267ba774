package archive

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// arMagic starts every ar archive (and so every .deb).
const arMagic = "!<arch>\n"

// arHeaderLen is the size of an ar member header.
const arHeaderLen = 60

// arMember is one member of an ar archive.
type arMember struct {
	name      string
	off, size int64 // data, after any BSD long name
}

// deb finds data.tar.{xz,gz} (or an uncompressed data.tar) in the .deb src
// and selects the member from it.
func (s *selector) deb(src io.ReaderAt, size int64) error {
	members, err := s.ar(src, size)
	if err != nil {
		return err
	}
	var data *arMember
	for i, m := range members {
		if m.name != "data.tar" && !strings.HasPrefix(m.name, "data.tar.") {
			continue
		}
		if data != nil {
			return &Error{Kind: Duplicate, Entry: m.name, Detail: "more than one data member (also " + data.name + ")"}
		}
		data = &members[i]
	}
	if data == nil {
		return &Error{Kind: NotFound, Entry: s.member, Detail: "the .deb has no data.tar member"}
	}
	r := io.NewSectionReader(src, data.off, data.size)
	switch data.name {
	case "data.tar.xz":
		return s.compressedTar(r, TarXz)
	case "data.tar.gz":
		return s.compressedTar(r, TarGz)
	case "data.tar":
		return s.compressedTar(r, 0)
	}
	return &Error{Kind: Unsupported, Entry: data.name, Detail: "unsupported compression " + strings.TrimPrefix(data.name, "data.tar.") + "; want data.tar.xz or data.tar.gz"}
}

// ar parses the ar archive src: the System V/GNU form (names ending in "/",
// a "//" long-name table, "/N" references, "/" and "/SYM64/" symbol tables)
// and the BSD form ("#1/N": the name is the first N data bytes).
func (s *selector) ar(src io.ReaderAt, size int64) ([]arMember, error) {
	magic := make([]byte, len(arMagic))
	if _, err := src.ReadAt(magic, 0); err != nil || string(magic) != arMagic {
		return nil, &Error{Kind: Corrupt, Detail: "not an ar archive (.deb): bad magic"}
	}
	var (
		members   []arMember
		longNames []byte
		hdr       [arHeaderLen]byte
	)
	for off := int64(len(arMagic)); off < size; {
		if size-off == 1 { // the final padding byte may be missing
			break
		}
		if _, err := src.ReadAt(hdr[:], off); err != nil {
			return nil, s.corrupt("", fmt.Errorf("ar header at offset %d: %w", off, err))
		}
		if string(hdr[58:60]) != "`\n" {
			return nil, &Error{Kind: Corrupt, Detail: fmt.Sprintf("ar header at offset %d: bad terminator", off)}
		}
		rawName := strings.TrimRight(string(hdr[0:16]), " ")
		n, err := strconv.ParseInt(strings.TrimRight(string(hdr[48:58]), " "), 10, 64)
		if err != nil || n < 0 {
			return nil, &Error{Kind: Corrupt, Entry: rawName, Detail: fmt.Sprintf("ar header at offset %d: bad size %q", off, hdr[48:58])}
		}
		m := arMember{off: off + arHeaderLen, size: n}
		if m.off+n > size {
			return nil, &Error{Kind: Corrupt, Entry: rawName, Detail: fmt.Sprintf("ar member of %d bytes runs past the end of the file (truncated?)", n), Err: io.ErrUnexpectedEOF}
		}
		off = m.off + n + n%2
		switch {
		case rawName == "/" || rawName == "/SYM64/" || rawName == "__.SYMDEF" || rawName == "__.SYMDEF SORTED":
			continue // symbol tables
		case rawName == "//":
			if n > 1<<20 {
				return nil, &Error{Kind: TooLarge, Entry: rawName, Detail: "ar long-name table over 1 MiB"}
			}
			longNames = make([]byte, n)
			if _, err := src.ReadAt(longNames, m.off); err != nil {
				return nil, s.corrupt(rawName, err)
			}
			continue
		case strings.HasPrefix(rawName, "#1/"):
			l, err := strconv.ParseInt(rawName[3:], 10, 64)
			if err != nil || l <= 0 || l > n || l > 4096 {
				return nil, &Error{Kind: Corrupt, Entry: rawName, Detail: "bad BSD long-name length"}
			}
			name := make([]byte, l)
			if _, err := src.ReadAt(name, m.off); err != nil {
				return nil, s.corrupt(rawName, err)
			}
			m.name = string(bytes.TrimRight(name, "\x00"))
			m.off, m.size = m.off+l, n-l
		case len(rawName) > 1 && rawName[0] == '/':
			i, err := strconv.Atoi(rawName[1:])
			if err != nil || i < 0 || i >= len(longNames) {
				return nil, &Error{Kind: Corrupt, Entry: rawName, Detail: "bad GNU long-name reference"}
			}
			name, _, ok := strings.Cut(string(longNames[i:]), "/\n")
			if !ok {
				return nil, &Error{Kind: Corrupt, Entry: rawName, Detail: "unterminated GNU long name"}
			}
			m.name = name
		default:
			m.name = strings.TrimSuffix(rawName, "/")
		}
		if err := s.entry(m.name); err != nil {
			return nil, err
		}
		members = append(members, m)
	}
	return members, nil
}
