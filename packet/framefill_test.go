package packet

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRoCEv2BuildThenFillCRCs checks that a built frame leaves the ICRC and
// FCS where the checksum code expects them: filling both makes the frame
// verify, and the parser still reads the same headers.
func TestRoCEv2BuildThenFillCRCs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		v6, vlan bool
		payload  int
	}{{"IPv4", false, false, 4096}, {"IPv4 VLAN", false, true, 13}, {"IPv6", true, false, 1}, {"IPv4 tiny", false, false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			f := hdrRoCEv2(tc.v6, tc.vlan, RCWriteOnlyImm)
			buf := make([]byte, 4300)
			n, err := BuildRoCEv2Write(buf, &f, make([]byte, tc.payload))
			require.NoError(t, err)
			frame := buf[:n]
			require.NoError(t, PutRoCEv2ICRC(frame[f.Eth.Len():]))
			require.NoError(t, PutFCS(frame))
			require.NoError(t, CheckRoCEv2ICRC(frame[f.Eth.Len():]))
			require.NoError(t, CheckFCS(frame))
			var g RoCEv2
			require.NoError(t, g.Decode(frame))
			if tc.v6 {
				f.IP4 = IPv4{}
			} else {
				f.IP6 = IPv6{}
			}
			require.Equal(t, f, g)
		})
	}
}
