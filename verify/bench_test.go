package verify

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// BenchmarkRunBeat checks a 20,000-transaction toeplitz trace: MB/s of VCD
// and cycles per second through sampling, the golden model and the
// scoreboard.
func BenchmarkRunBeat(b *testing.B) {
	trace := synthTrace(b, "toeplitz", nil, toeplitzStim(20000), synthOpts{resetCycles: 2})
	m := synthMap(b, "toeplitz", "latency: 1", "")
	b.SetBytes(int64(len(trace)))
	b.ResetTimer()
	var cycles uint64
	for b.Loop() {
		res, err := Run(m, bytes.NewReader(trace), "bench.vcd")
		if err != nil || !res.Passed() {
			b.Fatal(err, res.Summary())
		}
		cycles += res.Cycles
	}
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkRunFrames checks an fcs trace of 2,000 frames on a 64-bit
// AXI-Stream, the frame-assembly path.
func BenchmarkRunFrames(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	frames := frameStimulus(r, 2000, 60, 1500, nil)
	trace := synthFrameTrace(b, frames)
	m := synthFrameMap(b)
	b.SetBytes(int64(len(trace)))
	b.ResetTimer()
	var cycles uint64
	for b.Loop() {
		res, err := Run(m, bytes.NewReader(trace), "bench.vcd")
		if err != nil || !res.Passed() {
			b.Fatal(err, res.Summary())
		}
		cycles += res.Cycles
	}
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
}
