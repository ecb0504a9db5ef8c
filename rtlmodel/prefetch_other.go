//go:build !amd64

package rtlmodel

import "unsafe"

// prefetch does nothing where the kernel has no prefetch instruction for
// the architecture: the caches fill when the lines are read.
func prefetch(unsafe.Pointer) {}

// prefetchLines does nothing either.
func prefetchLines(unsafe.Pointer, uintptr) {}
