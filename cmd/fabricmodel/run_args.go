package main

import (
	"fmt"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/urfave/cli/v2"
)

// checkScenarioArgs checks run's arguments: at most one scenario file.
// The command line's flags end at its first argument, so flags written
// after the scenario file arrive as arguments: that is said as such.
func checkScenarioArgs(c *cli.Context) error {
	if c.NArg() <= 1 {
		return nil
	}
	args := c.Args().Slice()
	if looksLikeFlags(args[1:]) {
		return fmt.Errorf("%s after the scenario file %s: flags go before it, as in fabricmodel %s [flags] scenario.yaml",
			strings.Join(args[1:], " "), args[0], c.Command.Name)
	}
	return fmt.Errorf("one scenario file at a time; got %d: %v", len(args), args)
}

// checkNoArgs refuses arguments to a command that takes flags only,
// saying when flags came after an argument, where they end the flags.
func checkNoArgs(c *cli.Context) error {
	if c.NArg() == 0 {
		return nil
	}
	args := c.Args().Slice()
	if looksLikeFlags(args[1:]) {
		return fmt.Errorf("%s takes flags only: %q is not one, and the flags after it (%s) were not read", c.Command.Name, args[0], strings.Join(args[1:], " "))
	}
	return fmt.Errorf("%s takes flags only, no arguments: got %q", c.Command.Name, args)
}

// looksLikeFlags tells whether any of args looks like a flag ("-x",
// "--x"; a lone "-" is a file name for standard input by custom).
func looksLikeFlags(args []string) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			return true
		}
	}
	return false
}

// settingsFlag reads run's --set flags: KEY=VALUE each, each key once.
func settingsFlag(c *cli.Context) ([]fabric.Setting, error) {
	var settings []fabric.Setting
	first := map[string]string{}
	for _, text := range c.StringSlice("set") {
		st, err := fabric.ParseSetting(text)
		if err != nil {
			return nil, fmt.Errorf("--set %w", err)
		}
		if f, dup := first[st.Key]; dup {
			return nil, fmt.Errorf("--set %s: %s set twice (first --set %s)", text, st.Key, f)
		}
		first[st.Key] = text
		settings = append(settings, st)
	}
	return settings, nil
}
