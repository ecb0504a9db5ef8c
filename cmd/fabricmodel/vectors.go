package main

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/verify"
	"github.com/urfave/cli/v2"
)

func init() { commands = append(commands, vectorsCommand()) }

func vectorsCommand() *cli.Command {
	return &cli.Command{
		Name:  "vectors",
		Usage: "write stimulus and expected outputs of a block's golden model for an RTL testbench",
		Description: "Draws --count random inputs for --block from --seed, runs the block's golden model and writes\n" +
			"into --out: stimulus.hex and expected.hex ($readmemh, one transaction per line, fields packed\n" +
			"first-field-most-significant; frames as {tlast, tkeep[7:0], tdata[63:0]} beats), stimulus.jsonl\n" +
			"and expected.jsonl, and vectors.json with the packing of every line. --list describes the blocks\n" +
			"and the range of each parameter; a value outside it, a parameter given twice, or a shortest\n" +
			"length above the longest is an error. Flags (symmetric, paper) are 0 or 1.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "block", Usage: "golden model `NAME` (see --list)"},
			&cli.IntFlag{Name: "count", Value: 100, Usage: "number of input transactions"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random stimulus"},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (created if needed)"},
			&cli.StringSliceFlag{Name: "param", Usage: "block parameter `NAME=VALUE` (repeatable, each NAME once; --list gives the ranges)"},
			&cli.BoolFlag{Name: "list", Usage: "list the blocks, their parameters and transaction formats"},
		},
		Action: runVectors,
	}
}

func runVectors(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("vectors takes no arguments (got %q): give the block's parameters with --param", c.Args().Slice())
	}
	if c.Bool("list") {
		return verify.WriteBlocks(c.App.Writer)
	}
	if c.String("block") == "" || c.String("out") == "" {
		return fmt.Errorf("vectors: --block and --out are required (--list shows the blocks)")
	}
	params, err := verify.ParseParams(c.StringSlice("param"))
	if err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	v, err := verify.GenerateVectors(c.String("block"), params, c.Int("count"), c.Uint64("seed"))
	if err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	if err := v.WriteDir(c.String("out")); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	_, err = fmt.Fprintf(c.App.Writer, "vectors: %s: %d inputs, %d expected outputs in %s\n",
		v.Block.Name, len(v.Inputs), len(v.Outputs), c.String("out"))
	return err
}
