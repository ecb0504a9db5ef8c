package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
)

// checkOutputs checks, before a run starts, that the files the run's flags
// ask for can be written where they are asked for, so that a mistyped
// path fails at once instead of after a long run whose results it would
// lose. It creates the plot directory and writes no file: an existing
// result stays as it is until the run ends well.
func checkOutputs(c *cli.Context) error {
	for _, flag := range []string{"json", "csv", "stats-json", "stats-csv", "trace", "cpuprofile", "memprofile"} {
		path := c.String(flag)
		if path == "" {
			continue
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return fmt.Errorf("--%s %s: a directory, not a file", flag, path)
		}
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("--%s %s: no directory %s to write it in", flag, path, dir)
		}
	}
	if dir := c.String("plots"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("--plots: %w", err)
		}
	}
	return nil
}

// stepFlag returns --step-us in ps, refusing what is not a positive
// number of microseconds the clock can hold.
func stepFlag(c *cli.Context) (uint64, error) {
	us := c.Float64("step-us")
	if !(us > 0) || us > 1e12 {
		return 0, fmt.Errorf("--step-us %v: a positive number of simulated microseconds, at most 1e12", us)
	}
	step := uint64(us * 1e6)
	if step == 0 {
		return 0, fmt.Errorf("--step-us %v: less than a picosecond", us)
	}
	return step, nil
}
