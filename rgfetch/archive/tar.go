package archive

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/ulikunitz/xz"
)

// compressedTar reads a gzip- or xz-compressed tar stream (f is TarGz or
// TarXz), then drains the decompressor so its trailer (gzip CRC and length,
// xz index and check) is verified: a truncated stream is an error even when
// the tar end marker came through.
func (s *selector) compressedTar(r *io.SectionReader, f Format) error {
	var dec io.Reader
	switch f {
	case TarGz:
		zr, err := gzip.NewReader(r)
		if err != nil {
			return s.corrupt("", fmt.Errorf("gzip: %w", err))
		}
		defer zr.Close()
		dec = zr
	case TarXz:
		if err := s.checkXZ(r, r.Size()); err != nil {
			return err
		}
		zr, err := xz.NewReader(r)
		if err != nil {
			return s.corrupt("", fmt.Errorf("xz: %w", err))
		}
		dec = zr
	default:
		dec = r
	}
	dec = s.counted(dec)
	if err := s.tar(dec); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, dec); err != nil {
		return s.corrupt("", fmt.Errorf("compressed stream after the tar end: %w", err))
	}
	return nil
}

// tar checks every entry of the tar stream r and takes the member.
func (s *selector) tar(r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, tar.ErrInsecurePath) {
				// Only returned with GODEBUG=tarinsecurepath=0; h is valid
				// and our own check below names the entry.
				err = nil
			} else {
				return s.corrupt("", fmt.Errorf("tar: %w", err))
			}
		}
		if err := s.entry(h.Name); err != nil {
			return err
		}
		if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
			if why := unsafeLink(h.Name, h.Linkname, h.Typeflag == tar.TypeLink); why != "" {
				return &Error{Kind: Traversal, Entry: h.Name, Detail: why}
			}
		}
		if !sameName(h.Name, s.member) {
			continue
		}
		switch h.Typeflag {
		case tar.TypeReg: // archive/tar reports old-style TypeRegA entries as TypeReg
		case tar.TypeSymlink:
			return &Error{Kind: Link, Entry: h.Name, Detail: "symlink to " + h.Linkname}
		case tar.TypeLink:
			return &Error{Kind: Link, Entry: h.Name, Detail: "hard link to " + h.Linkname}
		default:
			return &Error{Kind: NotRegular, Entry: h.Name, Detail: tarTypeName(h.Typeflag)}
		}
		if err := s.take(h.Name, h.Size, tr); err != nil {
			return err
		}
	}
}

// tarTypeName describes a tar entry type for error messages.
func tarTypeName(t byte) string {
	switch t {
	case tar.TypeDir:
		return "a directory"
	case tar.TypeChar:
		return "a character device"
	case tar.TypeBlock:
		return "a block device"
	case tar.TypeFifo:
		return "a FIFO"
	case tar.TypeGNUSparse:
		return "a GNU sparse file"
	case tar.TypeCont:
		return "a contiguous file"
	}
	return fmt.Sprintf("tar entry type %q", t)
}
