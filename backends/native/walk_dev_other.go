//go:build !unix

package native

// deviceOf reports the device as unknown where the walker cannot read it:
// --one-file-system then descends everywhere.
func deviceOf(string) (uint64, bool) { return 0, false }
