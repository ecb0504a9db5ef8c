package fabric

import (
	"fmt"
	"strconv"
)

// BudgetParamError is a budget parameter value the budget cannot be
// computed with: the parameter, the value it has, and what it takes.
// Related, when set, is another parameter the value conflicts with, so
// that a caller can point at whichever of the two it was given.
type BudgetParamError struct {
	Name, Value, Reason string
	Related             string
}

// Error reads "nic.mtu -5: payload bytes per packet, 256 to 4096 B"; a
// value that is not a whole number is quoted.
func (e *BudgetParamError) Error() string {
	v := e.Value
	if _, err := strconv.ParseInt(v, 10, 64); err != nil {
		if _, err := strconv.ParseUint(v, 10, 64); err != nil {
			v = strconv.Quote(v)
		}
	}
	return fmt.Sprintf("%s %s: %s", e.Name, v, e.Reason)
}

// Validate checks every parameter against its range and the parameters
// that must agree with each other; its errors are *BudgetParamError.
// ComputeBudget runs it first, so that a config built in code fails
// with an error rather than inside the models.
func (c *BudgetConfig) Validate() error {
	for _, p := range budgetParams {
		if err := p.check(c); err != nil {
			return err
		}
	}
	sw := &c.Path.Switch
	if sw.Plan == nil || sw.Plan.Pipes() != sw.Pipes.Pipes {
		planPipes := 0
		if sw.Plan != nil {
			planPipes = sw.Plan.Pipes()
		}
		return &BudgetParamError{Name: "switch.pipes", Value: strconv.Itoa(sw.Pipes.Pipes),
			Reason: fmt.Sprintf("the switch's port plan has %d pipes (set switch.pipes to change both)", planPipes)}
	}
	if sw.MMUCycles+sw.EgressCycles < 1 {
		return &BudgetParamError{Name: "switch.mmu_cycles", Value: "0", Related: "switch.egress_cycles",
			Reason: "the traffic manager and the egress pipeline need at least one cycle between them, and switch.egress_cycles is 0"}
	}
	if mtu := c.Path.NIC.MTU; c.Payload > mtu {
		return &BudgetParamError{Name: "latency.payload", Value: strconv.Itoa(c.Payload), Related: "nic.mtu",
			Reason: fmt.Sprintf("at most nic.mtu, %d B: the latency budgets follow one packet", mtu)}
	}
	return nil
}
