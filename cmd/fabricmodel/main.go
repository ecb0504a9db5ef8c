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

func newApp() *cli.App {
	return &cli.App{
		Name:  "fabricmodel",
		Usage: "cycle-accurate model of a 400G RDMA NIC, a 51.2T switch and the fabrics built from them",
		Commands: []*cli.Command{
			runCommand(),
		},
	}
}
