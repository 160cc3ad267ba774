//go:build !unix

package main

import "os"

// outputFile is standard output: only Unix kills a program for a write to
// a closed pipe.
func outputFile() *os.File { return os.Stdout }
