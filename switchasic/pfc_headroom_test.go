package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FACTS 2.7 (E): the component formula at 400G, MTU 4200, gives 68 / 71 /
// 116 KB at 3 / 10 / 100 m; the mlx5 formula 134 KB at 3 m and 218 KB at
// 100 m (KB = 1000 B, rounded to the nearest).
func TestHeadroomFormulasReproduceFACTS(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       func(speed, metres, mtu int) (uint64, error)
		metres  int
		bytes   uint64
		roundKB uint64
	}{
		{"cisco 3 m", HeadroomBytes, 3, 67820, 68},
		{"cisco 10 m", HeadroomBytes, 10, 71320, 71},
		{"cisco 100 m", HeadroomBytes, 100, 116320, 116},
		{"mlx5 3 m", HeadroomMLX5Bytes, 3, 134224, 134},
		{"mlx5 100 m", HeadroomMLX5Bytes, 100, 218224, 218},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f(400, tc.metres, 4200)
			require.NoError(t, err)
			require.Equal(t, tc.bytes, got)
			require.Equal(t, tc.roundKB, (got+500)/1000)
		})
	}
}

// The mlx5 formula as the driver evaluates it: integer steps, speed in
// Mb/s, a floor of 40 Gb/s. 2.16·3 truncates to 6 at 3 m, so the driver's
// 134,224 B sits 192 B below the real-valued 134,416 B.
func TestHeadroomMLX5DriverArithmetic(t *testing.T) {
	for _, tc := range []struct {
		speed, metres, mtu int
		want               uint64
	}{
		{400, 3, 4200, (301+6)*400 + 11424},
		{400, 0, 1500, 301*400 + 4080},
		{100, 100, 9216, (301+216)*100 + 25067},
		{25, 5, 1500, (301+10)*40 + 4080}, // below 40G the driver uses 40G
		{800, 7, 4200, (301+15)*800 + 11424},
	} {
		got, err := HeadroomMLX5Bytes(tc.speed, tc.metres, tc.mtu)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%d G %d m MTU %d", tc.speed, tc.metres, tc.mtu)
	}
	real := (301 + 2.16*3) * 400.0
	require.InDelta(t, 134416.0, real+2.72*4200, 1e-6)
}

// The component breakdown: each FACTS 2.7 [R51] term, and the quoted
// response times (463,360 BT = 57.92 KB at 400G).
func TestHeadroomComponents(t *testing.T) {
	h, err := HeadroomComponents(400, 3, 4200, 0, 0)
	require.NoError(t, err)
	require.Equal(t, HeadroomTerms{
		SenderFrame: 4200*8 + 160, PFCFrame: 672, Interface: 0,
		Cable: 2 * 3 * 5 * 400, Response: 463360, ReceiverFrame: 4200 * 8,
	}, h)
	require.Equal(t, uint64(33760+672+12000+463360+33600), h.BitTimes())
	require.Equal(t, uint64(67924), h.Bytes())
	require.Equal(t, uint64(57920), h.Response/8)

	h, err = HeadroomComponents(100, 100, 9216, Interface100GBitTimes, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(201728), h.Response)
	require.Equal(t, uint64(122880), h.Interface)
	require.Equal(t, uint64(100000), h.Cable)

	_, err = HeadroomComponents(800, 3, 4200, 0, 0)
	require.ErrorContains(t, err, "800 Gb/s")
	h, err = HeadroomComponents(800, 3, 4200, 0, 500000)
	require.NoError(t, err)
	require.Equal(t, uint64(500000), h.Response)
}

func TestHeadroomArgumentErrors(t *testing.T) {
	for _, tc := range []struct {
		speed, metres, mtu int
		msg                string
	}{{0, 3, 4200, "speed"}, {400, -1, 4200, "cable"}, {400, 3, 0, "MTU"}} {
		_, err := HeadroomBytes(tc.speed, tc.metres, tc.mtu)
		require.ErrorContains(t, err, tc.msg)
		_, err = HeadroomMLX5Bytes(tc.speed, tc.metres, tc.mtu)
		require.ErrorContains(t, err, tc.msg)
	}
}

// xoff_threshold = buffer − xoff; xon = xoff_threshold − max_MTU [R49].
func TestMLX5Xon(t *testing.T) {
	thr, xon, err := MLX5XonBytes(300000, 134224, 4200)
	require.NoError(t, err)
	require.Equal(t, uint64(165776), thr)
	require.Equal(t, uint64(161576), xon)
	_, _, err = MLX5XonBytes(138000, 134224, 4200)
	require.Error(t, err)
}

func TestPFCThresholds(t *testing.T) {
	p := DefaultPFCConfig()
	xoff, xon, hr, err := p.Thresholds()
	require.NoError(t, err)
	require.Equal(t, uint64(250000), xoff)
	require.Equal(t, uint64(250000-4200), xon)
	require.Equal(t, uint64(218224), hr)

	p.Formula, p.CableMetres = HeadroomCisco, 3
	_, _, hr, err = p.Thresholds()
	require.NoError(t, err)
	require.Equal(t, uint64(67820), hr)

	for _, tc := range []struct {
		name  string
		edit  func(*PFCConfig)
		field string
	}{
		{"xoff zero", func(p *PFCConfig) { p.XoffBytes = 0 }, "PFC.XoffBytes"},
		{"xon above xoff", func(p *PFCConfig) { p.XonBytes = 300000 }, "PFC.XonBytes"},
		{"mtu for default xon", func(p *PFCConfig) { p.MTUBytes = 0 }, "PFC.MTUBytes"},
		{"cisco at 800G", func(p *PFCConfig) { p.Formula, p.SpeedGbps = HeadroomCisco, 800 }, "PFC.Formula"},
		{"unknown formula", func(p *PFCConfig) { p.Formula = 9 }, "PFC.Formula"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultPFCConfig()
			tc.edit(&p)
			_, _, _, err := p.Thresholds()
			require.ErrorContains(t, err, tc.field)
		})
	}
}

// The driver computes in 32 bits; the 64-bit model agrees up to the cable
// lengths its doc states.
func TestHeadroomMLX5MatchesDriver32Bit(t *testing.T) {
	driver := func(speedGbps, metres, mtu uint32) uint32 {
		speed := max(speedGbps, 40) * 1000
		return (301+216*metres/100)*speed/1000 + 272*mtu/100
	}
	for _, tc := range []struct{ speed, metres int }{{800, 2300}, {400, 4800}, {100, 1000}, {400, 3}} {
		got, err := HeadroomMLX5Bytes(tc.speed, tc.metres, 9216)
		require.NoError(t, err)
		require.Equal(t, uint64(driver(uint32(tc.speed), uint32(tc.metres), 9216)), got)
	}
	got, _ := HeadroomMLX5Bytes(800, 2400, 9216)
	require.NotEqual(t, uint64(driver(800, 2400, 9216)), got, "beyond it the driver's 32 bits wrap")
}
