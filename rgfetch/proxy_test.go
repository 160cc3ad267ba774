package rgfetch

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
)

// connectProxy is a minimal HTTPS (CONNECT) proxy that counts tunnels.
func connectProxy(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var tunnels atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		up, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		tunnels.Add(1)
		w.WriteHeader(http.StatusOK)
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			up.Close()
			return
		}
		go func() { io.Copy(up, brw); up.Close() }()
		io.Copy(conn, up)
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv, &tunnels
}

// Downloads go through an HTTPS proxy when the transport names one
// (the env is read once by net/http and localhost is
// never proxied, so the test injects Transport.Proxy; the default client's
// Proxy is http.ProxyFromEnvironment, checked in
// TestDefaultClientUsesProxyFromEnvironment).
func TestDownloadThroughConnectProxy(t *testing.T) {
	skipIfNoShell(t)
	e := newTestEnv(t)
	_, d := e.serveFake("15.2.0")
	proxy, tunnels := connectProxy(t)
	pu, _ := url.Parse(proxy.URL)
	c := e.srv.Client()
	tr := c.Transport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(pu)
	r := e.resolver()
	r.NoSystem, r.SHA256, r.HTTPClient = true, d, &http.Client{Transport: tr}
	res, err := r.Resolve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	assertWorks(t, res, "15.2.0")
	if tunnels.Load() != 1 || e.srv.count(fakeAsset) != 1 {
		t.Fatalf("tunnels %d, archive requests %d; want the download to go through the proxy once", tunnels.Load(), e.srv.count(fakeAsset))
	}
}
