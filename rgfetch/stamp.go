package rgfetch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// stamp records what was installed in the bin dir, next to the binary. It is
// what makes a pin bump reinstall (the stamp's version differs) and what
// detects a binary changed after install (its SHA-256 differs).
type stamp struct {
	Version       string    `json:"version"`
	Triple        string    `json:"triple"`
	SHA256        string    `json:"sha256"` // of the installed executable
	Size          int64     `json:"size"`
	ArchiveSHA256 string    `json:"archive_sha256"`
	DigestOrigin  string    `json:"digest_origin"` // pinned, --sha256, sidecar
	From          string    `json:"from"`          // URL or path of the archive
	InstalledAt   time.Time `json:"installed_at"`
}

// stampPath is the stamp file for the executable exe in dir.
func stampPath(dir, exe string) string { return filepath.Join(dir, "."+exe+".stamp") }

// verifyManaged checks the managed executable: a regular file (not a link),
// executable, with a stamp for version whose size and SHA-256 match. Errors
// wrap fs.ErrNotExist when nothing is installed.
func verifyManaged(dir, exe, version string) (Resolved, error) {
	path := filepath.Join(dir, exe)
	fi, err := os.Lstat(path)
	if err != nil {
		return Resolved{}, err
	}
	if !fi.Mode().IsRegular() {
		return Resolved{}, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	if err := checkExecutable(path); err != nil {
		return Resolved{}, err
	}
	data, err := os.ReadFile(stampPath(dir, exe))
	if err != nil {
		return Resolved{}, fmt.Errorf("no version stamp: %w", err)
	}
	var st stamp
	if err := json.Unmarshal(data, &st); err != nil {
		return Resolved{}, fmt.Errorf("unreadable version stamp: %v", err)
	}
	if st.Version != version {
		return Resolved{}, fmt.Errorf("stamp says version %s, want %s", st.Version, version)
	}
	if st.Size != fi.Size() {
		return Resolved{}, fmt.Errorf("size %d differs from the stamp's %d (changed after install)", fi.Size(), st.Size)
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return Resolved{}, err
	}
	if sum != st.SHA256 {
		return Resolved{}, fmt.Errorf("SHA-256 %s differs from the stamp's %s (changed after install)", sum, st.SHA256)
	}
	return Resolved{Path: path, Version: st.Version, Source: SourceManaged, Triple: st.Triple}, nil
}

// writeStamp replaces the stamp atomically (temp file, fsync, rename).
func writeStamp(dir, exe string, st stamp) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, tempPrefix+"stamp-*"+tempSuffix)
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), stampPath(dir, exe))
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
