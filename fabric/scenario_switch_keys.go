package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// validate checks the marking curve's values, with off: true too: a
// curve given beside off is one a sweep may turn back on, and a value out
// of range is a mistake either way. With marking on, the file must give
// pmax: left out, it would mean 0 (nothing marked below kmax_bytes), and
// no default for it is documented.
func (e *ECNSpec) validate() error {
	note := ""
	if e.Off {
		note = " (checked with off: true too)"
	}
	if !(e.Pmax >= 0 && e.Pmax <= 1) {
		return keyed("switch.ecn.pmax", fmt.Errorf("switch.ecn.pmax %v: a probability, 0 to 1%s", e.Pmax, note))
	}
	if !e.Off || e.KminBytes != 0 || e.KmaxBytes != 0 {
		if err := e.curve().Validate(); err != nil { // its errors are about Kmax
			return keyed("switch.ecn.kmax_bytes", fmt.Errorf("switch.ecn: %w%s", err, note))
		}
	}
	if !e.Off && e.pmaxOmitted {
		return keyed("switch.ecn", fmt.Errorf("switch.ecn: no pmax: give the marking probability just below kmax_bytes, 0 to 1 "+
			"(0 marks only at and above kmax_bytes), or off: true"))
	}
	return nil
}

// checkPFCClassesOnce refuses a class switch.pfc_classes lists twice,
// at the second. (A class outside 0..7 is switchConfig's to report.)
func (w ScenarioSwitch) checkPFCClassesOnce() error {
	first := map[int]int{}
	for i, cl := range w.PFCClasses {
		if cl < 0 || cl > 7 {
			continue
		}
		if j, dup := first[cl]; dup {
			return keyed(fmt.Sprintf("switch.pfc_classes.%d", i), fmt.Errorf("switch.pfc_classes: class %d listed twice (items %d and %d)", cl, j, i))
		}
		first[cl] = i
	}
	return nil
}

// noteOmittedPmax marks a decoded ECN block whose text has no pmax key,
// for validate, which cannot tell pmax: 0 from no pmax by the value.
func noteOmittedPmax(root *yaml.Node, s *Scenario) {
	if s.Switch.ECN == nil {
		return
	}
	ecn := yamlfile.Lookup(root, "switch.ecn")
	s.Switch.ECN.pmaxOmitted = ecn != nil && ecn.Kind == yaml.MappingNode && yamlfile.Lookup(root, "switch.ecn.pmax") == nil
}
