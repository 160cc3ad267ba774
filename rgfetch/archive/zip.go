package archive

import (
	"archive/zip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
)

// zip checks the central directory of the zip file src and reads the member.
// Only the member's data is decompressed, so the total cap is the member cap.
func (s *selector) zip(src io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(src, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return s.corrupt("", fmt.Errorf("zip: %w", err))
	}
	var member *zip.File
	for _, f := range zr.File {
		if err := s.entry(f.Name); err != nil {
			return err
		}
		if f.Mode()&fs.ModeSymlink != 0 {
			if err := s.zipSymlink(f); err != nil {
				return err
			}
		}
		if !sameName(f.Name, s.member) {
			continue
		}
		if member != nil {
			return &Error{Kind: Duplicate, Entry: f.Name, Detail: "the member appears more than once in the central directory"}
		}
		member = f
	}
	if member == nil {
		return nil
	}
	f := member
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return &Error{Kind: Link, Entry: f.Name, Detail: "symlink"}
	case !mode.IsRegular():
		return &Error{Kind: NotRegular, Entry: f.Name, Detail: "mode " + mode.String()}
	case f.UncompressedSize64 > uint64(s.lim.MaxMemberSize):
		return &Error{Kind: TooLarge, Entry: f.Name, Detail: fmt.Sprintf("declared size %d > cap %d", f.UncompressedSize64, s.lim.MaxMemberSize)}
	}
	rc, err := f.Open()
	if err != nil {
		if errors.Is(err, zip.ErrAlgorithm) {
			return &Error{Kind: Unsupported, Entry: f.Name, Detail: fmt.Sprintf("compression method %d", f.Method), Err: err}
		}
		return s.corrupt(f.Name, fmt.Errorf("zip: %w", err))
	}
	defer rc.Close()
	// archive/zip checks the CRC at EOF only when the recorded CRC is
	// non-zero; check it ourselves so a zeroed CRC cannot skip it.
	h := crc32.NewIEEE()
	if err := s.take(f.Name, int64(f.UncompressedSize64), io.TeeReader(rc, h)); err != nil {
		return err
	}
	if h.Sum32() != f.CRC32 {
		s.found, s.data = false, nil
		return &Error{Kind: Corrupt, Entry: f.Name, Detail: fmt.Sprintf("CRC-32 %08x, central directory says %08x", h.Sum32(), f.CRC32), Err: zip.ErrChecksum}
	}
	return nil
}

// maxLinkTarget bounds the symlink target read from a zip entry.
const maxLinkTarget = 4096

// zipSymlink checks that a symlink entry's target (its data) stays inside
// the archive, as tar link entries are checked.
func (s *selector) zipSymlink(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return s.corrupt(f.Name, fmt.Errorf("zip: %w", err))
	}
	defer rc.Close()
	target, err := io.ReadAll(io.LimitReader(rc, maxLinkTarget+1))
	if err != nil {
		return s.corrupt(f.Name, fmt.Errorf("zip: %w", err))
	}
	if len(target) > maxLinkTarget {
		return &Error{Kind: TooLarge, Entry: f.Name, Detail: "symlink target over 4096 bytes"}
	}
	if why := unsafeLink(f.Name, string(target), false); why != "" {
		return &Error{Kind: Traversal, Entry: f.Name, Detail: why}
	}
	return nil
}
