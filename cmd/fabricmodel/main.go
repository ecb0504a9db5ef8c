package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "fabricmodel:", err)
		os.Exit(1)
	}
}

// commands holds the CLI's commands; each command's file adds its own in
// an init function, so commands live one per file.
var commands []*cli.Command

func newApp() *cli.App {
	return &cli.App{
		Name:     "fabricmodel",
		Usage:    "cycle-accurate model of a 400G RDMA NIC, a 51.2T switch and the fabrics built from them",
		Commands: commands,
		// a repeatable flag takes each value whole: sbatch options and
		// YAML lists hold commas of their own
		DisableSliceFlagSeparator: true,
	}
}
