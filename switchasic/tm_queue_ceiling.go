package switchasic

import "fmt"

// LossyQueueCeilingBytes returns the most bytes one queue of a lossy class
// can ever hold in a buffer of this configuration when no frame is longer
// than frameBytes. Past its reserve (QueueReserveBytes), a packet of n
// cells joins a queue of q shared cells while q + n <= alpha × the free
// shared cells (TrafficManager.Admit), so a queue alone in the buffer
// ends at or below its reserve and alpha/(1+alpha) of the shared pool and
// one frame (the buffer less the headroom the lossless classes and the
// queues' reserves take); any other traffic only lowers it. A WRED curve
// whose KminBytes is above it never marks that class.
func (c TMConfig) LossyQueueCeilingBytes(frameBytes int) (uint64, error) {
	l, err := c.resolve()
	if err != nil {
		return 0, fmt.Errorf("TMConfig.%w", err)
	}
	if frameBytes <= 0 {
		return 0, fmt.Errorf("frame of %d bytes; it must be positive", frameBytes)
	}
	cell := uint64(c.CellBytes)
	shared := c.BufferBytes/cell - l.reserveCells - l.queueResvAll
	n := (uint64(frameBytes) + cell - 1) / cell
	var cells uint64
	if c.AlphaShift >= 0 { // alpha = 1/a: (S + n)/(a + 1)
		cells = (shared + n) / (1<<uint(c.AlphaShift) + 1)
	} else { // alpha = a: a(S + n)/(a + 1), as S + n - (S + n)/(a + 1)
		a := uint64(1) << uint(-c.AlphaShift)
		cells = shared + n - (shared+n)/(a+1)
	}
	return (l.queueResv + cells) * cell, nil
}
