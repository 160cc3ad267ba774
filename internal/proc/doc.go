// Package proc is rgkit's one way of running another program: the search
// engines, the rg --version probe of rgfetch, doctor's probes and the
// platform post-install steps all go through Run, so every child gets an
// absolute path, no shell, a chosen environment, its own process group,
// capped output and a kill on cancel.
package proc
