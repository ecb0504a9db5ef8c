package rtlmodel

import "unsafe"

// prefetch is PREFETCHT0 (prefetch_amd64.s).
//
//go:noescape
func prefetch(p unsafe.Pointer)

// prefetchLines is PREFETCHT0 of each line of the n bytes from p, in one
// call (prefetch_amd64.s).
//
//go:noescape
func prefetchLines(p unsafe.Pointer, n uintptr)
