package ripgrep

import (
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/rgfetch"
	"github.com/rgkit/rgkit/search"
)

// TestReferenceIsTheDefaultDownload: the release whose answers the engines
// give is the release rgfetch installs by default, so a user who lets
// rgkit fetch rg gets the reference, and the ripgrep engine runs it as is.
func TestReferenceIsTheDefaultDownload(t *testing.T) {
	if search.ReferenceVersion != rgfetch.DefaultVersion {
		t.Errorf("search.ReferenceVersion = %s, rgfetch.DefaultVersion = %s: move them together", search.ReferenceVersion, rgfetch.DefaultVersion)
	}
	if testtool.ReferenceVersion != search.ReferenceVersion {
		t.Errorf("testtool.ReferenceVersion = %s, search.ReferenceVersion = %s", testtool.ReferenceVersion, search.ReferenceVersion)
	}
	if d, err := search.Differences(rgfetch.DefaultVersion); err != nil || len(d) != 0 {
		t.Errorf("the default download differs from the reference in %v (%v)", d, err)
	}
}
