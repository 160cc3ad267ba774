// Package archive extracts exactly one member from a ripgrep release archive
// (.tar.gz, .tar.xz, .zip) or Debian package (.deb), and refuses archives that
// are hostile or broken.
//
// It never writes archive names to the file system: the member's bytes go to
// an io.Writer the caller owns (the installer's temp file). The whole archive
// is still checked, because an archive carrying a traversal name, a second
// copy of the member or a decompression bomb is not one to trust at all:
//
//   - every entry name is local (no "..", absolute path, backslash, drive
//     letter or NUL), and every link target stays inside;
//   - the member is selected by exact name (a leading "./" is allowed), must
//     be a regular file, and must appear once;
//   - caps bound the member size (checked from the header and enforced while
//     reading), the total decompressed bytes and the number of entries;
//   - truncated streams and bad checksums are errors, never a short binary.
package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Format is an archive format.
type Format int

const (
	// TarGz is a gzip-compressed tar (ripgrep's Unix assets).
	TarGz Format = iota + 1
	// TarXz is an xz-compressed tar.
	TarXz
	// Zip is a zip file (ripgrep's Windows assets).
	Zip
	// Deb is a Debian package: an ar archive whose data.tar.{xz,gz} holds
	// usr/bin/rg.
	Deb
)

// String returns the format's usual file extension without the dot.
func (f Format) String() string {
	switch f {
	case TarGz:
		return "tar.gz"
	case TarXz:
		return "tar.xz"
	case Zip:
		return "zip"
	case Deb:
		return "deb"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// FormatOf returns the format of an archive from its file name.
func FormatOf(name string) (Format, error) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		return TarGz, nil
	case strings.HasSuffix(lower, ".tar.xz"), strings.HasSuffix(lower, ".txz"):
		return TarXz, nil
	case strings.HasSuffix(lower, ".zip"):
		return Zip, nil
	case strings.HasSuffix(lower, ".deb"):
		return Deb, nil
	}
	return 0, &Error{Kind: Unsupported, Entry: name, Detail: "unknown archive type; want .tar.gz, .tgz, .tar.xz, .zip or .deb"}
}

// Default caps. ripgrep's binary is a few MB and its archives hold ~15
// entries, so these leave room while stopping bombs early.
const (
	DefaultMaxMemberSize = 64 << 20
	DefaultMaxTotal      = 256 << 20
	DefaultMaxEntries    = 10_000
)

// Limits caps the work Extract does; zero fields take the defaults.
type Limits struct {
	// MaxMemberSize caps the member's size (DefaultMaxMemberSize).
	MaxMemberSize int64
	// MaxTotal caps the decompressed bytes read from the archive, all
	// entries together (DefaultMaxTotal).
	MaxTotal int64
	// MaxEntries caps the number of entries (DefaultMaxEntries).
	MaxEntries int
}

func (l Limits) withDefaults() Limits {
	if l.MaxMemberSize <= 0 {
		l.MaxMemberSize = DefaultMaxMemberSize
	}
	if l.MaxTotal <= 0 {
		l.MaxTotal = DefaultMaxTotal
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = DefaultMaxEntries
	}
	return l
}

// Extract checks the whole archive src (size bytes, in format f) and copies
// the member named member (e.g. "ripgrep-15.1.0-x86_64-unknown-linux-musl/rg",
// or "usr/bin/rg" in a .deb) to dst, returning the number of bytes written.
// Nothing is written unless the whole archive passes, so the member is held
// in memory until then (at most lim.MaxMemberSize bytes). Refusals are *Error.
func Extract(src io.ReaderAt, size int64, f Format, member string, dst io.Writer, lim Limits) (int64, error) {
	if member == "" || normName(member) != member || unsafeName(member) != "" {
		return 0, fmt.Errorf("archive: invalid member name %q", member)
	}
	s := &selector{member: member, lim: lim.withDefaults()}
	var err error
	switch f {
	case TarGz, TarXz:
		err = s.compressedTar(io.NewSectionReader(src, 0, size), f)
	case Zip:
		err = s.zip(src, size)
	case Deb:
		err = s.deb(src, size)
	default:
		err = &Error{Kind: Unsupported, Detail: fmt.Sprintf("format %v", f)}
	}
	if err != nil {
		return 0, err
	}
	if !s.found {
		return 0, &Error{Kind: NotFound, Entry: member, Detail: "no such member in the " + f.String() + " archive"}
	}
	return io.Copy(dst, bytes.NewReader(s.data))
}

// selector walks an archive's entries, checks each, and keeps the member's
// bytes.
type selector struct {
	member  string
	lim     Limits
	entries int
	total   int64 // decompressed bytes read so far, across all streams
	found   bool
	data    []byte
}

// entry counts an entry and checks its name.
func (s *selector) entry(name string) error {
	s.entries++
	if s.entries > s.lim.MaxEntries {
		return &Error{Kind: TooManyEntries, Entry: name, Detail: fmt.Sprintf("more than %d entries", s.lim.MaxEntries)}
	}
	if name == "" {
		return &Error{Kind: Corrupt, Detail: fmt.Sprintf("entry %d has an empty name", s.entries)}
	}
	if why := unsafeName(name); why != "" {
		return &Error{Kind: Traversal, Entry: name, Detail: why}
	}
	return nil
}

// take reads the member's data (declared size bytes, -1 if unknown) from r.
func (s *selector) take(name string, declared int64, r io.Reader) error {
	if s.found {
		return &Error{Kind: Duplicate, Entry: name, Detail: "the member appears more than once"}
	}
	if declared > s.lim.MaxMemberSize {
		return &Error{Kind: TooLarge, Entry: name, Detail: fmt.Sprintf("declared size %d > cap %d", declared, s.lim.MaxMemberSize)}
	}
	data, err := io.ReadAll(io.LimitReader(r, s.lim.MaxMemberSize+1))
	if err != nil {
		return s.corrupt(name, err)
	}
	if int64(len(data)) > s.lim.MaxMemberSize {
		return &Error{Kind: TooLarge, Entry: name, Detail: fmt.Sprintf("data exceeds cap %d", s.lim.MaxMemberSize)}
	}
	if declared >= 0 && int64(len(data)) != declared {
		return &Error{Kind: Corrupt, Entry: name, Detail: fmt.Sprintf("read %d bytes, header says %d", len(data), declared)}
	}
	s.found, s.data = true, data
	return nil
}

// errTotal marks the total decompressed cap being hit inside a reader chain.
var errTotal = errors.New("total decompressed size over the cap")

// corrupt wraps a read error, classifying the total cap as TooLarge.
func (s *selector) corrupt(entry string, err error) error {
	var ae *Error
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, errTotal) {
		return &Error{Kind: TooLarge, Entry: entry, Detail: fmt.Sprintf("decompressed data exceeds the total cap %d (a decompression bomb?)", s.lim.MaxTotal), Err: err}
	}
	detail := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		// An EOF inside an entry or a stream is truncation, not success.
		detail += " (truncated)"
		err = io.ErrUnexpectedEOF
	}
	return &Error{Kind: Corrupt, Entry: entry, Detail: detail, Err: err}
}

// counted returns r with its bytes counted against the total cap.
func (s *selector) counted(r io.Reader) io.Reader { return &totalReader{s: s, r: r} }

type totalReader struct {
	s *selector
	r io.Reader
}

func (t *totalReader) Read(p []byte) (int, error) {
	if t.s.total >= t.s.lim.MaxTotal {
		// Allow one more byte to tell "exactly at the cap" from "over".
		p = p[:min(len(p), 1)]
	}
	n, err := t.r.Read(p)
	t.s.total += int64(n)
	if t.s.total > t.s.lim.MaxTotal {
		return n, errTotal
	}
	return n, err
}
