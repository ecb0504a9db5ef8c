package rtlmodel

import "unsafe"

// prefetch is PREFETCHT0 (prefetch_amd64.s).
//
//go:noescape
func prefetch(p unsafe.Pointer)
