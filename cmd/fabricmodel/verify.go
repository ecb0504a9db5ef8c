package main

import (
	"fmt"
	"os"

	"github.com/fabricmodel/fabricmodel/verify"
	"github.com/urfave/cli/v2"
)

func init() { commands = append(commands, verifyCommand()) }

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "check an RTL simulation's VCD against a block's golden model",
		Description: "Reads the signal map (YAML: block, clock and edge, reset and polarity, the signals of the\n" +
			"input and output transactions, compare mode), samples the VCD at each clock edge, drives the\n" +
			"block's golden model with the inputs it finds and compares the outputs. Prints a pass line with\n" +
			"transaction counts and cycles, or the first divergence with cycle, time, signal, expected and\n" +
			"got values and the cycles around it; exits with status 1 on a divergence.\n" +
			"Blocks and their transaction formats: fabricmodel vectors --list.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "map", Required: true, Usage: "signal map `FILE` (YAML)"},
			&cli.StringFlag{Name: "vcd", Required: true, Usage: "VCD `FILE` written by the RTL simulator"},
			&cli.StringFlag{Name: "junit", Usage: "also write the result as JUnit XML to `FILE`"},
			&cli.StringFlag{Name: "scope", Usage: "replace the map's scope (the prefix of every signal name), e.g. TOP.top for Verilator"},
		},
		Action: runVerify,
	}
}

func runVerify(c *cli.Context) error {
	if err := checkNoArgs(c); err != nil {
		return err
	}
	if err := checkOutputFiles(c, "", "junit"); err != nil {
		return err
	}
	m, err := verify.LoadMapFile(c.String("map"))
	if err != nil {
		return err
	}
	if c.IsSet("scope") {
		m.Scope = c.String("scope")
	}
	res, err := verify.RunFile(m, c.String("vcd"))
	if err != nil {
		return err
	}
	if err := res.WriteText(c.App.Writer); err != nil {
		return err
	}
	if path := c.String("junit"); path != "" {
		if err := writeJUnit(path, res, c.String("vcd")); err != nil {
			return outputError("junit", path, err)
		}
	}
	if !res.Passed() {
		return cli.Exit(fmt.Sprintf("verify: %s diverges from the %s golden model", c.String("vcd"), res.Block), 1)
	}
	return nil
}

// writeJUnit writes the result of checking the VCD file vcd as JUnit XML
// to path.
func writeJUnit(path string, res *verify.Result, vcd string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := res.WriteJUnit(f, vcd); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
