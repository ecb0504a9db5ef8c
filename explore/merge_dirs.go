package explore

import "path/filepath"

// distinctDirs is dirs with each directory once, the first naming of it
// kept: two names are one directory when they resolve to the same
// absolute path, links followed ("o", "./o", "/abs/o" and a link to it).
// A name that does not resolve (no such directory) is compared as it is
// cleaned, for Merge to read nothing from it.
func distinctDirs(dirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		key := filepath.Clean(d)
		if abs, err := filepath.Abs(d); err == nil {
			key = abs
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				key = real
			}
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}
