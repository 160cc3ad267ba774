// Package backends assembles rgkit's default Chain (ripgrep, git grep,
// system grep, native) and the Glob file lister. It is the only package
// that imports every engine; a program that wants fewer engines builds its
// own search.Chain instead.
package backends
