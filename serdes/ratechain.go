package serdes

// ChainStep is one stage of the PCS/FEC rate chain: the ratio it applies to
// the rate of the stage before, and the rate after it.
type ChainStep struct {
	// Name names the stage.
	Name string
	// Ratio is the exact factor the stage applies.
	Ratio Rat
	// Rate is the rate after the stage.
	Rate Rate
}

// Rate chain ratios. FACTS 3 [R23]: the MAC's 64-bit words are 64b/66b
// coded, four 66b blocks are transcoded into one 257b block, and twenty
// 257b blocks (5140 bits) are the 514-symbol message of one RS(544,514)
// codeword.
var (
	// Ratio64b66b is the 64b/66b line code, 66/64.
	Ratio64b66b = NewRat(66, 64)
	// RatioTranscode is 256b/257b transcoding seen from the 66b stream:
	// 4 x 66 = 264 bits become 257, so 257/264 (257/256 from the MAC).
	RatioTranscode = NewRat(257, 4*66)
	// RatioRS544 is the RS(544,514) overhead, 544/514.
	RatioRS544 = NewRat(RS544N, RS544K)
)

// RateChain walks a MAC rate through 64b/66b, 256b/257b transcoding and
// RS(544,514) and returns each stage, the first being the MAC itself. For
// 100 Gb/s it ends exactly on 106.25 Gb/s; for a lane group's MACRate, on
// its LineRate. Alignment markers do not appear: they take the place of
// removed idles (see AMPlan), so they change no rate. FACTS 3 [R23].
func RateChain(mac Rate) []ChainStep {
	steps := []ChainStep{{Name: "MAC", Ratio: IntRat(1), Rate: mac}}
	for _, s := range []struct {
		name  string
		ratio Rat
	}{
		{"64b/66b", Ratio64b66b},
		{"256b/257b transcode", RatioTranscode},
		{"RS(544,514)", RatioRS544},
	} {
		prev := steps[len(steps)-1].Rate
		steps = append(steps, ChainStep{Name: s.name, Ratio: s.ratio, Rate: prev.Scale(s.ratio)})
	}
	return steps
}

// LineRateOf returns the line rate that carries a MAC rate: the last stage
// of RateChain, mac x 257/256 x 544/514 = mac x 17/16.
func LineRateOf(mac Rate) Rate {
	steps := RateChain(mac)
	return steps[len(steps)-1].Rate
}

// MACRateOf is the inverse of LineRateOf: line x 16/17.
func MACRateOf(line Rate) Rate {
	return line.Scale(NewRat(RS544K, RS544N)).Scale(NewRat(4*66, 257)).Scale(NewRat(64, 66))
}
