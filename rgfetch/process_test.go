package rgfetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// processRoleEnv selects TestProcessRole's behaviour in a re-executed test
// binary; its value is a JSON processConfig. Only this test file reads it.
const processRoleEnv = "RGFETCH_TEST_PROCESS"

type processConfig struct {
	BinDir, Mirror, SHA256, Version string
	CertPEM                         string
	Checkpoint, Marker              string // block at Checkpoint after writing Marker
}

type processResult struct {
	Res Resolved
	Err string
}

// TestProcessRole is not a test on its own: other tests run the test binary
// with -test.run=^TestProcessRole$ and processRoleEnv set, to get a second
// process resolving rg (the lockedfile_test.go pattern).
func TestProcessRole(t *testing.T) {
	raw := os.Getenv(processRoleEnv)
	if raw == "" {
		t.Skip("helper process; run by the multi-process tests")
	}
	var cfg processConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(cfg.CertPEM))
	r := &Resolver{
		BinDir: cfg.BinDir, Mirror: cfg.Mirror, SHA256: cfg.SHA256, Version: cfg.Version, NoSystem: true,
		target: linuxAMD64, getenv: func(string) string { return "" },
		HTTPClient: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}},
	}
	if cfg.Checkpoint != "" {
		r.checkpoint = func(name string) {
			if name == cfg.Checkpoint {
				os.WriteFile(cfg.Marker, []byte(name), 0o644)
				select {} // wait for SIGKILL
			}
		}
	}
	res, err := r.Resolve(context.Background())
	out := processResult{Res: res}
	if err != nil {
		out.Err = err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// startProcess re-executes the test binary in the resolver role.
func startProcess(t *testing.T, cfg processConfig) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	raw, _ := json.Marshal(cfg)
	cmd := exec.Command(os.Args[0], "-test.run=^TestProcessRole$", "-test.count=1")
	cmd.Env = append(os.Environ(), processRoleEnv+"="+string(raw))
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// parseResult finds the child's JSON line in its test output.
func parseResult(t *testing.T, out string) processResult {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "{") {
			var pr processResult
			if json.Unmarshal([]byte(line), &pr) == nil {
				return pr
			}
		}
	}
	return processResult{Err: "no result in child output:\n" + out}
}

func certPEM(e *testEnv) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: e.srv.Certificate().Raw}))
}

// Twenty processes resolving at once download once and all get a working
// rg.
func TestTwentyProcessesDownloadOnce(t *testing.T) {
	skipIfNoShell(t)
	if testing.Short() {
		t.Skip("starts 20 processes")
	}
	e := newTestEnv(t)
	name, d := e.serveFake("15.2.0")
	cfg := processConfig{BinDir: e.binDir, Mirror: e.srv.URL, SHA256: d, Version: "15.2.0", CertPEM: certPEM(e)}
	type child struct {
		cmd *exec.Cmd
		out *strings.Builder
	}
	var children []child
	for range 20 {
		cmd, out := startProcess(t, cfg)
		children = append(children, child{cmd, out})
	}
	for i, c := range children {
		err := c.cmd.Wait()
		pr := parseResult(t, c.out.String())
		if err != nil || pr.Err != "" {
			t.Errorf("process %d: %v %s", i, err, pr.Err)
			continue
		}
		if pr.Res.Path != filepath.Join(e.binDir, "rg") {
			t.Errorf("process %d got %+v", i, pr.Res)
		}
		assertWorks(t, pr.Res, "15.2.0")
	}
	if n := e.srv.count(name); n != 1 {
		t.Errorf("archive downloaded %d times by 20 processes, want 1", n)
	}
	assertNoTemps(t, e.binDir)
}

// A process SIGKILLed at any install step leaves the old rg or the new one,
// never a broken one, and the next run succeeds without manual cleanup
// .
func TestKilledInstallLeavesWorkingRg(t *testing.T) {
	skipIfNoShell(t)
	for _, cp := range []string{checkpointLocked, checkpointDownloaded, checkpointMidWrite, checkpointVerified, checkpointRenamed} {
		t.Run(cp, func(t *testing.T) {
			e := newTestEnv(t)
			_, oldD := e.serveFake("15.0.0")
			_, newD := e.serveFake("15.2.0")
			old := e.resolver()
			old.NoSystem, old.Version, old.SHA256 = true, "15.0.0", oldD
			if _, err := old.Resolve(context.Background()); err != nil {
				t.Fatal(err)
			}

			marker := filepath.Join(t.TempDir(), "reached")
			cmd, out := startProcess(t, processConfig{BinDir: e.binDir, Mirror: e.srv.URL, SHA256: newD, Version: "15.2.0",
				CertPEM: certPEM(e), Checkpoint: cp, Marker: marker})
			deadline := time.Now().Add(60 * time.Second)
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("child never reached %s:\n%s", cp, out)
				}
				time.Sleep(5 * time.Millisecond)
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()

			// Whatever is at the target runs and is a complete version.
			target := filepath.Join(e.binDir, "rg")
			v, err := rgVersion(context.Background(), target, 5*time.Second, sleepCtx)
			if err != nil || (v != "15.0.0" && v != "15.2.0") {
				t.Fatalf("after a kill at %s the installed rg is broken: %q, %v", cp, v, err)
			}

			next := e.resolver()
			next.NoSystem, next.SHA256 = true, newD
			res, err := next.Resolve(context.Background())
			if err != nil {
				t.Fatalf("next run after a kill at %s: %v", cp, err)
			}
			assertWorks(t, res, "15.2.0")
			assertNoTemps(t, e.binDir)
		})
	}
}

// A second installer waiting behind a live lock holder gives up when its
// context ends, saying an install is in progress.
func TestLockWaitHonoursContext(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	marker := filepath.Join(t.TempDir(), "reached")
	cmd, out := startProcess(t, processConfig{BinDir: e.binDir, Mirror: e.srv.URL, SHA256: d, Version: "15.2.0",
		CertPEM: certPEM(e), Checkpoint: checkpointLocked, Marker: marker})
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for i := 0; ; i++ {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if i > 12000 {
			t.Fatalf("child never took the lock:\n%s", out)
		}
		time.Sleep(5 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r := e.resolver()
	r.NoSystem, r.SHA256, r.sleep = true, d, sleepCtx
	_, err := r.Resolve(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
	// The caller sees its own deadline; the shared flight's error (checked
	// with a detached resolver) names the lock.
	r2 := e.resolver()
	r2.NoSystem, r2.SHA256 = true, d
	s := r2.settings()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	p, _ := s.plan()
	s.sleep = sleepCtx
	_, err = r2.install(ctx2, s, p)
	var le *lockError
	if !asErr(err, &le) || !strings.Contains(err.Error(), "in progress") {
		t.Fatalf("install err = %v, want a lockError saying an install is in progress", err)
	}
}
