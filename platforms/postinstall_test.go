package platforms

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// call is one command PostInstall ran.
type call struct {
	name string
	args []string
}

// recorder fakes codesign: it answers `-dv` with the given output and exit
// error, and `--sign` with signErr.
type recorder struct {
	calls   []call
	dvOut   string
	dvErr   error
	signErr error
	xattrs  []string
	xErr    error
}

func (r *recorder) options() PostInstallOptions {
	return PostInstallOptions{
		GOOS: "darwin",
		Run: func(ctx context.Context, name string, args ...string) ([]byte, error) {
			r.calls = append(r.calls, call{name, args})
			if len(args) > 0 && args[0] == "-dv" {
				return []byte(r.dvOut), r.dvErr
			}
			return []byte("signed"), r.signErr
		},
		RemoveXattr: func(path, attr string) error {
			r.xattrs = append(r.xattrs, path+" "+attr)
			return r.xErr
		},
	}
}

// Real `codesign -dv` outputs (stderr), abbreviated.
const (
	linkerSigned = `Executable=/tmp/rg
Identifier=rg-55554944d1e8f1e8a2a03c8a8e5f4ddb1c1a6e2e
Format=Mach-O thin (arm64)
CodeDirectory v=20400 size=12345 flags=0x20002(adhoc,linker-signed) hashes=381+0 location=embedded
Signature=adhoc
`
	unsigned    = "/tmp/rg: code object is not signed at all\n"
	adhocSigned = `Executable=/tmp/rg
CodeDirectory v=20400 size=12345 flags=0x2(adhoc) hashes=381+7 location=embedded
Signature=adhoc
`
	developerID = `Executable=/tmp/rg
CodeDirectory v=20500 size=12345 flags=0x10000(runtime) hashes=381+7 location=embedded
Authority=Developer ID Application: Example (ABCDE12345)
`
)

var exit1 = &exec.ExitError{}

func TestPostInstallDarwin(t *testing.T) {
	const path = "/home/u/.rgkit/bin/.rg-123.tmp"
	dv := call{"/usr/bin/codesign", []string{"-dv", path}}
	sign := call{"/usr/bin/codesign", []string{"--sign", "-", "--force", "--preserve-metadata=entitlements,requirements,flags,runtime", path}}
	tests := []struct {
		name      string
		dvOut     string
		dvErr     error
		wantCalls []call
	}{
		{"linker-signed (ripgrep's aarch64 release) is re-signed ad hoc", linkerSigned, nil, []call{dv, sign}},
		{"unsigned (exit 1) is signed ad hoc", unsigned, exit1, []call{dv, sign}},
		{"already ad-hoc signed is left alone", adhocSigned, nil, []call{dv}},
		{"Developer ID signature is left alone", developerID, nil, []call{dv}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{dvOut: tc.dvOut, dvErr: tc.dvErr}
			if err := PostInstall(context.Background(), path, r.options()); err != nil {
				t.Fatalf("PostInstall: %v", err)
			}
			if !reflect.DeepEqual(r.calls, tc.wantCalls) {
				t.Errorf("commands:\n got %v\nwant %v", r.calls, tc.wantCalls)
			}
			if want := []string{path + " com.apple.quarantine"}; !reflect.DeepEqual(r.xattrs, want) {
				t.Errorf("RemoveXattr calls = %v; want %v", r.xattrs, want)
			}
		})
	}
}

func TestPostInstallDarwinErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("codesign -dv fails for another reason", func(t *testing.T) {
		r := &recorder{dvOut: "/tmp/rg: No such file or directory\n", dvErr: exit1}
		err := PostInstall(ctx, "/tmp/rg", r.options())
		if err == nil || !strings.Contains(err.Error(), "No such file") {
			t.Fatalf("err = %v; want the codesign output in the error", err)
		}
		if len(r.xattrs) != 0 {
			t.Error("quarantine removal ran after a failed inspection")
		}
	})
	t.Run("signing fails", func(t *testing.T) {
		r := &recorder{dvOut: linkerSigned, signErr: errors.New("exit status 1")}
		err := PostInstall(ctx, "/tmp/rg", r.options())
		if err == nil || !strings.Contains(err.Error(), "ad-hoc signing") {
			t.Fatalf("err = %v; want an ad-hoc signing error", err)
		}
	})
	t.Run("quarantine removal fails", func(t *testing.T) {
		r := &recorder{dvOut: adhocSigned, xErr: errors.New("operation not permitted")}
		err := PostInstall(ctx, "/tmp/rg", r.options())
		if err == nil || !strings.Contains(err.Error(), "com.apple.quarantine") {
			t.Fatalf("err = %v; want a quarantine error", err)
		}
	})
}

func TestPostInstallIsANoOpElsewhere(t *testing.T) {
	for _, goos := range []string{"linux", "windows", "freebsd"} {
		r := &recorder{dvOut: unsigned}
		o := r.options()
		o.GOOS = goos
		if err := PostInstall(context.Background(), "/tmp/rg", o); err != nil {
			t.Errorf("%s: PostInstall = %v", goos, err)
		}
		if len(r.calls) != 0 || len(r.xattrs) != 0 {
			t.Errorf("%s: PostInstall ran %v and removed %v; want nothing", goos, r.calls, r.xattrs)
		}
	}
}

// TestPostInstallDefaultRunner runs the real command runner: a missing
// codesign is an error that names the binary, not a silent success.
func TestPostInstallDefaultRunner(t *testing.T) {
	o := PostInstallOptions{GOOS: "darwin", Codesign: "/nonexistent/codesign", RemoveXattr: func(string, string) error { return nil }}
	err := PostInstall(context.Background(), "/tmp/rg", o)
	if err == nil || !strings.Contains(err.Error(), "/tmp/rg") {
		t.Fatalf("PostInstall with a missing codesign = %v; want an error naming the binary", err)
	}
}
