// Package sysgrep is the engine that runs the system's grep (GNU or BSD) on
// the files the native walker selects, and searches natively what grep
// cannot answer exactly (BOMs, NULs, some patterns).
//
// It imports search, backends/native, internal/dialect and internal/proc.
package sysgrep
