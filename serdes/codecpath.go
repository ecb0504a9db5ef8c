package serdes

import (
	"fmt"
	"math/bits"
)

// CodecPath sends codewords through the real codec: it encodes, interleaves
// Depth codewords symbol by symbol, deals the interleaved symbols to the
// lanes of the group, lets each lane's LaneErrors flip bits, reassembles,
// decodes and counts. It is the bit-true path for verification and error
// studies; performance runs use the statistical path (FailureSampler).
//
// The dealing: symbol j of every codeword forms a group of Depth symbols
// (one per codeword), group j goes to lane j mod lanes, and each lane sends
// its groups in order, each symbol whole and least significant bit first.
// So every lane carries all the interleaved codewords in turn, and a burst
// on one lane alternates between them. This is the model's simplification
// of the PCS/PMA lane mapping (tag E); with independent bit errors it does
// not change the statistics.
type CodecPath struct {
	code     *Code
	dec      *Decoder
	group    LaneGroup
	il       Interleave
	lanes    []*LaneErrors
	cw, rx   [][]uint16
	hits     []uint64
	counters FECCounters
	hiSER    *HighSERMonitor
}

// NewCodecPath returns a clean path for a lane group and interleave depth;
// lane i draws from the RNG seeded with DeriveSeed(seed, i). Set each lane's
// error process with Lane(i).
func NewCodecPath(g LaneGroup, il Interleave, seed uint64) (*CodecPath, error) {
	if _, err := NewLaneGroup(g.Lanes()); err != nil {
		return nil, err
	}
	if _, err := NewInterleave(il.Depth()); err != nil {
		return nil, err
	}
	c := RS544()
	p := &CodecPath{code: c, dec: NewDecoder(c), group: g, il: il, hiSER: NewHighSERMonitor()}
	for i := 0; i < g.Lanes(); i++ {
		l, err := NewLaneErrors(DeriveSeed(seed, uint64(i)), 0)
		if err != nil {
			return nil, err
		}
		p.lanes = append(p.lanes, l)
	}
	for i := 0; i < il.Depth(); i++ {
		p.cw = append(p.cw, make([]uint16, c.N()))
		p.rx = append(p.rx, make([]uint16, c.N()))
	}
	p.hits = make([]uint64, 0, 1024)
	return p, nil
}

// Lane returns lane i's error process.
func (p *CodecPath) Lane(i int) *LaneErrors { return p.lanes[i] }

// Counters returns the counts so far.
func (p *CodecPath) Counters() FECCounters { return p.counters }

// HighSER returns the path's hi-SER monitor.
func (p *CodecPath) HighSER() *HighSERMonitor { return p.hiSER }

// Transfer encodes Depth messages of k symbols, sends them and writes the
// decoded messages to out and each codeword's result to res (both of length
// Depth). It does not allocate once the error buffer has grown to the
// largest burst seen.
func (p *CodecPath) Transfer(msgs, out [][]uint16, res []DecodeResult) {
	d := p.il.Depth()
	if len(msgs) != d || len(out) != d || len(res) != d {
		panic(fmt.Sprintf("serdes: Transfer needs %d messages, outputs and results", d))
	}
	for i := range d {
		p.code.Encode(msgs[i], p.cw[i])
	}
	p.send(p.cw, res)
	for i := range d {
		copy(out[i], p.rx[i][:p.code.K()])
	}
}

// TransferCodewords sends Depth codewords that are already encoded and
// writes what the receiver decoded into rx (Depth slices of n symbols).
// Since the code is linear and the decoder's behaviour depends only on the
// error pattern, Monte Carlo runs may resend a few codewords.
func (p *CodecPath) TransferCodewords(cw, rx [][]uint16, res []DecodeResult) {
	d := p.il.Depth()
	if len(cw) != d || len(rx) != d || len(res) != d {
		panic(fmt.Sprintf("serdes: TransferCodewords needs %d codewords, outputs and results", d))
	}
	p.send(cw, res)
	for i := range d {
		copy(rx[i], p.rx[i])
	}
}

func (p *CodecPath) send(cw [][]uint16, res []DecodeResult) {
	d := p.il.Depth()
	n := p.code.N()
	nl := p.group.Lanes()
	for i := range d {
		copy(p.rx[i], cw[i])
	}
	perLane := uint64(d * n * GFBits / nl)
	for li, lane := range p.lanes {
		p.hits = lane.Advance(perLane, p.hits[:0])
		for _, off := range p.hits {
			ls := int(off / GFBits) // symbol position on the lane
			c := ls % d             // codeword
			j := (ls/d)*nl + li     // symbol index within the codeword
			p.rx[c][j] ^= 1 << (off % GFBits)
		}
		p.counters.InjectedBitErrors += uint64(len(p.hits))
	}
	k := p.code.K()
	for i := range d {
		sent, got := cw[i], p.rx[i]
		for j := range got {
			if got[j] != sent[j] {
				p.counters.InjectedSymbolErrors++
			}
		}
		r := p.dec.Decode(got)
		res[i] = r
		p.hiSER.Observe(r)
		c := &p.counters
		c.Codewords++
		c.LineBits += RS544CodewordBits
		c.MessageBits += RS544MessageBits
		switch r.Status {
		case DecodeCorrected:
			c.CorrectedCodewords++
			c.CorrectedSymbols += uint64(r.Symbols)
			c.CorrectedBits += uint64(r.Bits)
		case DecodeUncorrectable:
			c.UncorrectableCodewords++
		}
		var wrong uint64
		for j := 0; j < k; j++ {
			wrong += uint64(bits.OnesCount16(got[j] ^ sent[j]))
		}
		c.ResidualBitErrors += wrong
		if wrong > 0 || r.Status == DecodeUncorrectable {
			c.ErroredCodewords++
		}
		if wrong > 0 && r.Status != DecodeUncorrectable {
			c.MiscorrectedCodewords++
		}
	}
}
