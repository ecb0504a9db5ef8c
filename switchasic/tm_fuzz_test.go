package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzTMOps drives a small traffic manager (lossless classes, trimming,
// WRED, and with the input's first bit a queue reserve) with admissions
// and releases decoded from the input and checks the accounting against
// a shadow list after every operation.
func FuzzTMOps(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x22, 0x33, 0x80, 0x44, 0x55})
	f.Add([]byte{0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0xF0, 0xF0, 0xF0})
	f.Add([]byte{0x01, 0x13, 0x13, 0x13, 0x13, 0x13, 0x93, 0x13, 0xF0, 0xF0, 0xF0})
	f.Fuzz(func(t *testing.T, data []byte) {
		reserve := len(data) > 0 && data[0]&1 != 0
		tm := smallTM(t, 4, 300, func(c *TMConfig) {
			if reserve {
				c.QueueReserveBytes = 700 // 3 cells of 254 B, 84 of the 300
			}
			c.AlphaShift = -1
			c.PFC.Enabled[3] = true
			c.PFC.XoffBytes, c.PFC.XonBytes, c.PFC.HeadroomBytes = 6000, 3000, 5000
			c.Trim = TrimConfig{Enabled: true, TrimBytes: 64, TrimClass: 7, Trimmable: lowSixTrimmable}
			c.WRED[0] = WREDConfig{Enabled: true, KminBytes: 1000, KmaxBytes: 20000, PmaxQ: 30000}
		})
		if len(data) > 256 { // 128 operations fill and drain a 300-cell buffer
			data = data[:256]
		}
		var held []heldPacket
		for len(data) >= 2 {
			op, arg := data[0], data[1]
			data = data[2:]
			if op&0x80 != 0 && len(held) > 0 {
				i := int(arg) % len(held)
				h := held[i]
				held = append(held[:i], held[i+1:]...)
				tm.Release(h.ingress, h.egress, h.class, h.bytes)
			} else {
				in, eg, cl := int(op&3), int(op>>2&3), int(op>>4&7)
				bytes := 1 + int(arg)*33
				v := tm.Admit(in, eg, cl, bytes, arg&1 == 0)
				if v.Action != Drop {
					held = append(held, heldPacket{in, eg, v.Class, v.Bytes})
				}
			}
			checkTMInvariants(t, tm, held)
		}
		for _, h := range held {
			tm.Release(h.ingress, h.egress, h.class, h.bytes)
		}
		require.Zero(t, tm.UsedCells())
		require.False(t, tm.Paused(0, 3) || tm.Paused(1, 3) || tm.Paused(2, 3) || tm.Paused(3, 3))
	})
}
