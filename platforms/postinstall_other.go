//go:build !darwin

package platforms

// removeXattr does nothing: only darwin's Gatekeeper acts on quarantine.
func removeXattr(path, attr string) error {
	return nil
}
