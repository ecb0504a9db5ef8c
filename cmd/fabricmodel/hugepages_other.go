//go:build !linux

package main

// preferHugePages does nothing where the kernel has no transparent huge
// pages to ask for (hugepages_linux.go).
func preferHugePages() (uint64, error) { return 0, nil }
