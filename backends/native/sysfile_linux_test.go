//go:build linux && (amd64 || arm64)

package native

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Raw system calls hold a P for as long as the kernel takes, so only file
// systems whose reads cannot wait on a network or a user-space server get
// them.
func TestDirectIOOnlyOnLocalFileSystems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		magic uint32
		local bool
	}{
		{"ext4", unix.EXT4_SUPER_MAGIC, true},
		{"xfs", unix.XFS_SUPER_MAGIC, true},
		{"btrfs", unix.BTRFS_SUPER_MAGIC, true},
		{"tmpfs", unix.TMPFS_MAGIC, true},
		{"overlay", unix.OVERLAYFS_SUPER_MAGIC, true},
		{"nfs", unix.NFS_SUPER_MAGIC, false},
		{"smb2", unix.SMB2_SUPER_MAGIC, false},
		{"cifs", unix.CIFS_SUPER_MAGIC, false},
		{"fuse", unix.FUSE_SUPER_MAGIC, false},
		{"9p", unix.V9FS_MAGIC, false},
		{"unknown", 0x12345678, false},
	} {
		if got := localFSType(c.magic); got != c.local {
			t.Errorf("%s (%#x): local = %v, want %v", c.name, c.magic, got, c.local)
		}
	}
}

// A walk over this machine's temporary directory (a local disk or tmpfs
// wherever the tests run) lists and reads its files with raw calls, and
// reads them whole.
func TestDirectIOReadsWalkedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if !localFSType(uint32(st.Type)) {
		t.Skipf("the temporary directory is on file system type %#x, not a local one", st.Type)
	}
	body := make([]byte, 3*unknownSizeBuffer+17)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	if err := os.WriteFile(dir+"/f", body, 0o644); err != nil {
		t.Fatal(err)
	}
	var l dirList
	defer l.close()
	if err := l.open(&work{abs: dir}); err != nil {
		t.Fatal(err)
	}
	if !l.directIO() {
		t.Fatal("the listing of a local directory is not read directly")
	}
	if len(l.ents) != 1 || l.ents[0].name != "f" {
		t.Fatalf("listing = %+v, want the one file f", l.ents)
	}
	fd, ok, err := l.openFile(l.ents[0].off)
	if !ok || err != nil {
		t.Fatalf("openFile: ok %v, err %v", ok, err)
	}
	got, err := readFd(sysFile{fd, l.directIO()}, "f", make([]byte, 0, 100))
	sysFile{fd, true}.close()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(body) {
		t.Fatalf("read %d bytes, want the file's %d", len(got), len(body))
	}
}
