package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
)

// runOutputFiles are the run's flags that name a file the run writes.
var runOutputFiles = []string{"json", "csv", "stats-json", "stats-csv", "trace", "pcap", "cpuprofile", "memprofile"}

// checkOutputs checks, before a run starts, that the files the run's flags
// ask for can be written where they are asked for, so that a mistyped
// or unwritable path fails at once instead of after a long run whose
// results it would lose, that no two outputs, the plots --plots writes
// among them, are one file, and that none is one of the inputs, the
// files the run reads. It creates the plot directory and leaves no file:
// an existing result stays as it is until the run ends well.
func checkOutputs(c *cli.Context, inputs []runInput) error {
	outputs, err := fileOutputs(c, runOutputFiles)
	if err != nil {
		return err
	}
	dir := c.String("plots")
	if dir != "" {
		outputs = append(outputs, output{flag: "plots", path: dir})
		for _, name := range plotFiles {
			outputs = append(outputs, output{flag: "plots", path: filepath.Join(dir, name), plotDir: dir})
		}
	}
	if err := distinctOutputs(outputs); err != nil {
		return err
	}
	if err := notInputs(outputs, inputs); err != nil {
		return err
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return outputError("plots", dir, err)
		}
		probe, err := os.CreateTemp(dir, ".fabricmodel-plots-*")
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return fmt.Errorf("--plots %s: cannot write a file in it: %w", dir, err)
		}
		probe.Close()
		if err := os.Remove(probe.Name()); err != nil {
			return outputError("plots", dir, err)
		}
	}
	return nil
}

// output is a file, or the directory of --plots, that a command writes,
// with the flag that names it.
type output struct {
	flag, path string
	// plotDir is, for a plot file, the directory --plots names; its
	// path is that directory's and the plot's file name
	plotDir string
}

// checkOutputFiles checks the files named by the flags of files that are
// set: each can be opened for writing, and no two of them, nor the
// directory of the flag dirFlag (when not ""), are the same. It leaves
// every file as it was.
func checkOutputFiles(c *cli.Context, dirFlag string, files ...string) error {
	outputs, err := fileOutputs(c, files)
	if err != nil {
		return err
	}
	if dirFlag != "" && c.String(dirFlag) != "" {
		outputs = append(outputs, output{flag: dirFlag, path: c.String(dirFlag)})
	}
	return distinctOutputs(outputs)
}

// fileOutputs are the outputs of the flags of files that are set, each
// checked to be a file, in a directory, that can be opened for writing.
// It leaves every file as it was.
func fileOutputs(c *cli.Context, files []string) ([]output, error) {
	var outputs []output
	for _, flag := range files {
		path := c.String(flag)
		if path == "" {
			continue
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return nil, fmt.Errorf("--%s %s: a directory, not a file", flag, path)
		}
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--%s %s: no directory %s to write it in", flag, path, dir)
		}
		if err := checkWritable(path, 0); err != nil {
			return nil, outputError(flag, path, err)
		}
		outputs = append(outputs, output{flag: flag, path: path})
	}
	return outputs, nil
}

// distinctOutputs refuses two outputs that are one file, naming both
// flags, or, for a plot file, the plot.
func distinctOutputs(outputs []output) error {
	for i, a := range outputs {
		for _, b := range outputs[:i] {
			if a.flag == b.flag || !sameOutput(a.path, b.path) {
				continue
			}
			if a.plotDir != "" {
				a, b = b, a
			}
			if b.plotDir != "" {
				return fmt.Errorf("--%s %s: the file of the plot %s that --plots %s writes; each output needs one of its own",
					a.flag, a.path, filepath.Base(b.path), b.plotDir)
			}
			return fmt.Errorf("--%s %s and --%s %s: the same file; each output needs one of its own", b.flag, b.path, a.flag, a.path)
		}
	}
	return nil
}

// checkWritable checks that path can be opened for writing and leaves it
// as it was: an existing file is opened without truncating it, and one
// that does not exist is created and removed. A symbolic link to no file
// yet is followed to where the file would be (links counts those
// followed, against a loop).
func checkWritable(path string, links int) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		return f.Close()
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if target, err := os.Readlink(path); err == nil && links < maxLinks {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		return checkWritable(target, links+1)
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(path)
}

// outputError is err, met writing the output of the flag to path, with
// the flag and the path in front (and the path once only).
func outputError(flag, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = pe.Err
	}
	return fmt.Errorf("--%s %s: %w", flag, path, err)
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
