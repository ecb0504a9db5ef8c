package fabric

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every parameter --list names computes at both ends of its range and
// is an error, never a panic, just outside it and for text that is not
// a number.
func TestBudgetParamRangesHoldForEveryParameter(t *testing.T) {
	for _, p := range budgetParams {
		if p.lo == 0 && p.hi == 0 {
			continue // a choice, below
		}
		for _, v := range []int64{p.lo, p.hi} {
			cfg := DefaultBudgetConfig()
			require.NoError(t, cfg.Set(p.name, strconv.FormatInt(v, 10)), p.name)
			_, err := ComputeBudget(cfg)
			require.NoError(t, err, "%s=%d", p.name, v)
		}
		for _, v := range []string{strconv.FormatInt(p.lo-1, 10), strconv.FormatInt(p.hi+1, 10), "18446744073709551616", "-18446744073709551616"} {
			cfg := DefaultBudgetConfig()
			var pe *BudgetParamError
			require.True(t, errors.As(cfg.Set(p.name, v), &pe), "%s=%s", p.name, v)
			require.Equal(t, p.name, pe.Name)
			require.Equal(t, p.meaning(), pe.Reason)
		}
		cfg := DefaultBudgetConfig()
		require.EqualError(t, cfg.Set(p.name, "abc"), p.name+` "abc": not a whole number`)
	}
	cfg := DefaultBudgetConfig()
	require.EqualError(t, cfg.Set("nic.stack", "ethernet"), `nic.stack "ethernet": header stack, one of roce-ipv4, roce-ipv6, ib, uet`)
	require.NoError(t, cfg.Set("nic.stack", "uet"))
	require.EqualError(t, cfg.Set("nic.mtu", "-5"), "nic.mtu -5: payload bytes per packet, 256 to 4096 B")
	require.EqualError(t, cfg.Set("pcie.mps", "384"), "pcie.mps 384: max payload size, a power of two from 128 to 4096 B")
}

// switch.pipes takes the pipe counts that split the SerDes cores evenly
// and rebuilds the port plan on them, so the two always agree.
func TestBudgetSwitchPipesRebuildsThePortPlan(t *testing.T) {
	cfg := DefaultBudgetConfig()
	require.NoError(t, cfg.Set("switch.pipes", "4"))
	require.Equal(t, 4, cfg.Path.Switch.Plan.Pipes())
	require.Equal(t, 128, cfg.Path.Switch.Plan.NumPorts())
	rep, err := ComputeBudget(cfg)
	require.NoError(t, err)
	var slot string
	for _, s := range rep.Sections {
		for _, r := range s.Rows {
			if r[0] == "smallest wire slot at line rate" {
				slot = r[1]
			}
		}
	}
	require.Equal(t, "320 B (frame 300 B)", slot, "half the pipes: twice the 160 B slot")
	for _, v := range []string{"0", "3", "1000000"} {
		err := cfg.Set("switch.pipes", v)
		require.ErrorContains(t, err, "switch.pipes "+v+": packet-processing pipes, 1, 2, 4, 8, 16, 32 or 64")
	}
}

// A config built in code with values Set would refuse is an error of
// ComputeBudget, not a panic inside the models.
func TestBudgetComputeRejectsAnInvalidConfig(t *testing.T) {
	for name, breakIt := range map[string]func(c *BudgetConfig){
		"switch.pipes 4: the switch's port plan has 8 pipes": func(c *BudgetConfig) { c.Path.Switch.Pipes.Pipes = 4 },
		"scale.endpoints 0":        func(c *BudgetConfig) { c.Endpoints = 0 },
		"latency.payload -1":       func(c *BudgetConfig) { c.Payload = -1 },
		"nic.mtu -5":               func(c *BudgetConfig) { c.Path.NIC.MTU = -5 },
		`nic.stack "stack(9)"`:     func(c *BudgetConfig) { c.Path.NIC.Stack = 9 },
		"phy.cable_mm 18446744073": func(c *BudgetConfig) { c.Path.Switch.CableMillimetres = 1<<64 - 1 },
		"switch.mmu_cycles 0: the traffic manager and the egress pipeline need at least one cycle": func(c *BudgetConfig) {
			c.Path.Switch.MMUCycles, c.Path.Switch.EgressCycles = 0, 0
		},
		"latency.payload 1000: at most nic.mtu, 256 B": func(c *BudgetConfig) { c.Path.NIC.MTU, c.Payload = 256, 1000 },
	} {
		cfg := DefaultBudgetConfig()
		breakIt(&cfg)
		_, err := ComputeBudget(cfg)
		require.Error(t, err, name)
		require.True(t, strings.HasPrefix(err.Error(), name), "%q does not start with %q", err, name)
	}
}
