package main

import (
	"os"
	"path/filepath"
)

// maxLinks is how many symbolic links in a row an output's path is
// followed through before it is taken as it is (against a loop).
const maxLinks = 40

// sameOutput tells whether two output paths are one file: two names of
// one existing file, or two paths to one place where neither file exists
// yet, through symbolic links or not. Devices (/dev/null) are not files
// that one output could overwrite with another.
func sameOutput(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return sa.Mode().IsRegular() && os.SameFile(sa, sb)
	}
	return outputLocation(a) == outputLocation(b)
}

// outputLocation is the absolute path of the file that writing path
// creates or writes: the symbolic links of its existing directories
// resolved, and a link at its end followed to its target, which need
// not exist yet (as os.Create follows it).
func outputLocation(path string) string {
	for links := 0; ; links++ {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return absPath(real)
		}
		dir, name := filepath.Split(path)
		dir = resolveExisting(dir)
		path = filepath.Join(dir, name)
		target, err := os.Readlink(path)
		if err != nil || links == maxLinks {
			return absPath(path)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		path = target
	}
}

// resolveExisting is dir with the symbolic links of its longest part
// that exists resolved; the rest, which does not exist, is kept as it is.
func resolveExisting(dir string) string {
	if dir == "" {
		dir = "."
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if parent == filepath.Clean(dir) {
		return dir
	}
	return filepath.Join(resolveExisting(parent), filepath.Base(dir))
}

// absPath is path made absolute, or path itself where the working
// directory is unknown.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
