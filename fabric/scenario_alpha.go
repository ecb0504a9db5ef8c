package fabric

import (
	"fmt"
	"math"

	"github.com/fabricmodel/fabricmodel/switchasic"
)

// alphaShift is the traffic manager's dynamic-threshold shift for
// switch.alpha (alpha = 2^-shift; switchasic.TMConfig.AlphaShift): 0 when
// the key is absent, and an error naming the key unless alpha is a power
// of two the shift can express.
func (w ScenarioSwitch) alphaShift() (int, error) {
	if w.Alpha == nil {
		return 0, nil
	}
	a := *w.Alpha
	frac, exp := math.Frexp(a) // a = frac × 2^exp, frac in [0.5, 1)
	shift := 1 - exp
	if a <= 0 || math.IsInf(a, 0) || frac != 0.5 || shift < switchasic.MinAlphaShift || shift > switchasic.MaxAlphaShift {
		return 0, keyed("switch.alpha", fmt.Errorf("switch.alpha %g: a power of two from 1/%d to %d (the dynamic threshold is a shift of the free cells)",
			a, 1<<switchasic.MaxAlphaShift, 1<<-switchasic.MinAlphaShift))
	}
	return shift, nil
}
