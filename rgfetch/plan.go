package rgfetch

import (
	"errors"
	"fmt"
	"regexp"
	"sync"
)

// digestOrigin says which source of truth an archive digest came from.
type digestOrigin int

const (
	originPinned  digestOrigin = iota + 1 // compiled into the binary
	originFlag                            // Resolver.SHA256 / --sha256
	originSidecar                         // the release's .sha256 (opt-in)
)

func (o digestOrigin) String() string {
	switch o {
	case originPinned:
		return "pinned"
	case originFlag:
		return "--sha256"
	case originSidecar:
		return "sidecar"
	}
	return "unknown"
}

// plan is everything an install needs to know before touching the network.
type plan struct {
	version, triple string
	asset           string // archive file name
	member          string // the executable inside it
	loc             location
	want            string // trusted digest; "" until the sidecar is read
	origin          digestOrigin
	pin             *Pin // the compiled-in pin, when there is one
	checkSidecar    bool // fetch the sidecar too and require it to agree
}

// downloadForbidden returns why downloading is off, or "".
func (s settings) downloadForbidden() string {
	switch {
	case s.offline:
		return "offline mode (" + s.envPrefix + "_OFFLINE or --offline)"
	case s.noDownload:
		return "downloads disabled (" + s.envPrefix + "_NO_DOWNLOAD or the caller)"
	}
	return ""
}

// plan works out the asset, its location and the digest to trust for a
// release download. It reads the local mirror's directory but opens no
// socket.
func (s settings) plan() (plan, error) {
	triple, err := s.target.Triple(s.version)
	if err != nil {
		return plan{}, err
	}
	asset, err := s.target.AssetName(s.version)
	if err != nil {
		return plan{}, err
	}
	member, err := s.target.MemberName(s.version)
	if err != nil {
		return plan{}, err
	}
	p := plan{version: s.version, triple: triple, asset: asset, member: member}
	if err := s.trust(&p); err != nil {
		return plan{}, err
	}
	p.loc, err = locate(s.mirror, s.version, asset)
	if he := (*httpError)(nil); errors.As(err, &he) {
		he.Triple = triple
	}
	if err != nil {
		return plan{}, err
	}
	return p, nil
}

// trust chooses the digest for p: --sha256 first, then the pin, then (only
// with the opt-in) the sidecar. There is no silent downgrade: without a
// digest or the opt-in the answer is an *unpinnedError.
func (s settings) trust(p *plan) error {
	if pin, ok := LookupPin(p.version, p.triple); ok {
		p.pin = &pin
	}
	switch {
	case s.sha256 != "":
		d, err := NormalizeSHA256(s.sha256)
		if err != nil {
			return err
		}
		p.want, p.origin = d, originFlag
	case p.pin != nil:
		p.want, p.origin = p.pin.SHA256, originPinned
		// With the opt-in, the sidecar is fetched as well and must agree
		// with the pin.
		p.checkSidecar = s.allowUnpinned
	case s.allowUnpinned:
		p.origin = originSidecar
	default:
		return &unpinnedError{Version: p.version, Triple: p.triple, Asset: p.asset}
	}
	return nil
}

// releaseAssetRE matches ripgrep's release archive names.
// Compiled when first used: every rgkit start would pay for it (as for
// debAssetRE below).
var releaseAssetRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ripgrep-(\d+\.\d+\.\d+)-([a-z0-9_]+(?:-[a-z0-9_]+){2,3})\.(tar\.gz|tar\.xz|zip)$`)
})

// debAssetRE matches ripgrep's .deb names: ripgrep_14.1.1-1_amd64.deb,
// ripgrep_13.0.0_amd64.deb (and Debian's own ripgrep_13.0.0-4+b2_amd64.deb).
var debAssetRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ripgrep_(\d+\.\d+\.\d+)[^_]*_([a-z0-9]+)\.deb$`)
})

// archivePlan describes installing from a file the user already has. The
// version and triple come from a release-style file name when it has one
// (the pin then applies), else from the settings.
func (s settings) archivePlan(path, name string) (plan, error) {
	p := plan{version: s.version, loc: location{path: path}, asset: name}
	if m := releaseAssetRE().FindStringSubmatch(name); m != nil {
		p.version, p.triple = m[1], m[2]
		exe := "rg"
		if m[3] == "zip" {
			exe = "rg.exe"
		}
		p.member = "ripgrep-" + p.version + "-" + p.triple + "/" + exe
	} else if m := debAssetRE().FindStringSubmatch(name); m != nil {
		p.version, p.triple, p.member = m[1], "deb-"+m[2], "usr/bin/rg"
	} else {
		triple, err := s.target.Triple(s.version)
		if err != nil {
			return plan{}, err
		}
		member, err := s.target.MemberName(s.version)
		if err != nil {
			return plan{}, err
		}
		p.triple, p.member = triple, member
		if len(name) > 4 && name[len(name)-4:] == ".deb" {
			p.member = "usr/bin/rg"
		}
	}
	if s.allowUnpinned && s.sha256 == "" {
		if _, ok := LookupPin(p.version, p.triple); !ok {
			return plan{}, fmt.Errorf("%s: --allow-unpinned needs a release sidecar, which a local archive does not have; pass --sha256", name)
		}
	}
	return p, s.trust(&p)
}
