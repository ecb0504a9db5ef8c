package fabric

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// largestFrameBytes is the longest frame the scenario's NICs send: a
// first packet of nic.mtu payload bytes with its RETH in the NICs' header
// stack, and the in-band telemetry its data packets reserve when their
// congestion control reads it (nic400g.CollectsINT).
func (s *Scenario) largestFrameBytes() int {
	c := s.nicConfig(0, 1)
	frame := stackOf(c.Stack).FrameBytes(c.MTU)
	if collects, _ := nic400g.CollectsINT(c); collects { // an unknown cc is nic.cc's error
		frame += packet.INTLen
	}
	return frame
}

// checkBufferHoldsAFrame refuses a switch.buffer_bytes too small for the
// largest frame the NICs send: the switch would drop every such frame,
// and the flows would fail only when their retries ran out. The buffer
// holds frames in whole cells, so the smallest it accepts is the cells
// that frame takes.
func (s *Scenario) checkBufferHoldsAFrame() error {
	if s.Switch.BufferBytes == 0 {
		return nil // the default buffer
	}
	frame := s.largestFrameBytes()
	cell := uint64(switchasic.DefaultConfig().TM.CellBytes)
	cells := (uint64(frame) + cell - 1) / cell
	if least := cells * cell; s.Switch.BufferBytes < least {
		return keyed("switch.buffer_bytes", fmt.Errorf("switch.buffer_bytes %d: smaller than the largest frame the NICs send, %d B "+
			"(nic.mtu %d and the headers), which takes %d cells of %d B: at least %d",
			s.Switch.BufferBytes, frame, s.nicConfig(0, 1).MTU, cells, cell, least))
	}
	return nil
}
