package verify

import (
	"fmt"
	"io"
	"os"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
)

// RunFile checks the VCD file at path against the signal map m.
func RunFile(m *Map, path string) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Run(m, f, path)
}

// checker holds the state of one run.
type checker struct {
	m      *Map
	block  *Block
	model  Model
	in     *portReader
	out    *portReader
	sb     scoreboard
	reset  probe
	rstLvl byte
	minLat uint64
	span   uint64
	ts     vcd.Timescale
	ctx    int
	res    Result
	ring   []rawRow // the last ctx+1 cycles, as a ring
	head   int      // ring index of the current cycle
	filled int      // cycles held in the ring
	outBuf []Txn
	inRst  bool
}

// Run reads a VCD from r (named name in errors) and checks it against the
// signal map m. It returns an error for input it cannot use (a malformed
// VCD, a mapped signal the VCD does not have); a divergence is not an
// error but part of the Result.
func Run(m *Map, r io.Reader, name string) (*Result, error) {
	rd, err := vcd.NewReader(r, vcd.WithName(name))
	if err != nil {
		return nil, err
	}
	c, s, err := newChecker(m, rd)
	if err != nil {
		return nil, err
	}
	return c.run(s)
}

func newChecker(m *Map, rd *vcd.Reader) (*checker, *Sampler, error) {
	if err := m.check(); err != nil {
		return nil, nil, err
	}
	b, err := LookupBlock(m.Block)
	if err != nil {
		return nil, nil, m.errAt(m.lines["block"], "%v", err)
	}
	p, err := b.Resolve(m.Params)
	if err != nil {
		return nil, nil, m.errAt(m.lines["params"], "%v", err)
	}
	model, err := b.New(p)
	if err != nil {
		return nil, nil, m.errAt(m.lines["params"], "%v", err)
	}
	bd := &binder{m: m, h: rd.Header()}
	clk, err := bd.bindBit(m.Clock.Signal, "clock")
	if err != nil {
		return nil, nil, err
	}
	if clk.constant {
		return nil, nil, m.errAt(m.Clock.Signal.Line, "clock: a constant cannot clock anything")
	}
	c := &checker{m: m, block: b, model: model, ts: rd.Header().Timescale, ctx: defaultContext, rstLvl: '1'}
	if m.Compare.Context != nil {
		c.ctx = *m.Compare.Context
	}
	if m.Reset != nil {
		if c.reset, err = bd.bindBit(m.Reset.Signal, "reset"); err != nil {
			return nil, nil, err
		}
		if m.Reset.Active == "low" {
			c.rstLvl = '0'
		}
	}
	if c.in, err = bindPort(bd, "input", &m.Input, &b.Input); err != nil {
		return nil, nil, err
	}
	if c.out, err = bindPort(bd, "output", &m.Output, &b.Output); err != nil {
		return nil, nil, err
	}
	s := newSampler(rd, bd.sigs, clk, m.Clock.Edge == "falling")
	bd.fix(s, append(append([]*probe{&s.clk, &c.reset}, c.in.probes()...), c.out.probes()...)...)
	cmp := newComparer(&b.Output, &m.Output, c.out)
	c.minLat = m.Compare.Latency
	c.res = Result{Block: b.Name, Mode: "exact"}
	switch m.Compare.Mode {
	case ModeWindow:
		c.span = m.Compare.MaxLatency - m.Compare.Latency
		c.sb = &inOrder{c: cmp}
		c.res.Mode = fmt.Sprintf("in order, %d to %d cycles", m.Compare.Latency, m.Compare.MaxLatency)
	case ModeKey:
		k := b.Output.field(m.Compare.Key)
		c.sb = &byKey{c: cmp, key: k, keyW: b.Output.Fields[k].Width, maxLat: m.Compare.MaxLatency != 0}
		if m.Compare.MaxLatency != 0 {
			c.span = m.Compare.MaxLatency - m.Compare.Latency
		}
		c.res.Mode = "out of order by " + m.Compare.Key
	default:
		c.sb = &inOrder{c: cmp}
		c.res.Mode = fmt.Sprintf("in order, cycle-exact, latency %d", m.Compare.Latency)
	}
	return c, s, nil
}

// timeText formats a VCD time with its timescale.
func (c *checker) timeText(t uint64) string {
	if c.ts.IsZero() {
		return fmt.Sprintf("%d", t)
	}
	return fmt.Sprintf("%d%s", t*uint64(c.ts.Magnitude), c.ts.Unit)
}

func (c *checker) run(s *Sampler) (*Result, error) {
	for {
		ok, err := s.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		d := c.cycle(s, c.next())
		if d == nil {
			continue
		}
		d.Cycle, d.Time, d.TimeText = s.Cycle, s.Time, c.timeText(s.Time)
		d.Window = c.window(true)
		if err := c.after(s, d); err != nil {
			return nil, err
		}
		c.res.Divergence = d
		return &c.res, nil
	}
	if left := c.sb.left(); len(left) > 0 {
		d := missing(c.sb.comparerOf(), left[0])
		d.Detail += fmt.Sprintf("; the trace ended at cycle %d with %d expected outputs never seen", c.res.Cycles-1, len(left))
		if c.res.Cycles > 0 {
			d.Cycle = c.res.Cycles - 1
		}
		d.Time, d.TimeText = s.Time, c.timeText(s.Time)
		d.Window = c.window(false)
		c.res.Divergence = d
	}
	return &c.res, nil
}

func (s *inOrder) comparerOf() *comparer { return s.c }
func (s *byKey) comparerOf() *comparer   { return s.c }

// rawRow is one cycle kept for the window around a divergence; it is
// formatted only when a divergence needs it.
type rawRow struct {
	cycle, time uint64
	reset       bool
	in          Txn
	hasIn       bool
	exp         []Txn
	obs         Txn
	hasObs      bool
	issue       string
}

// next returns the ring slot for a new cycle, reusing its memory.
func (c *checker) next() *rawRow {
	if c.ring == nil {
		c.ring = make([]rawRow, c.ctx+1)
		c.head = -1
	}
	c.head = (c.head + 1) % len(c.ring)
	c.filled = min(c.filled+1, len(c.ring))
	r := &c.ring[c.head]
	*r = rawRow{exp: r.exp[:0]}
	return r
}

// window formats the cycles held in the ring, oldest first; with here the
// newest is the divergence's cycle.
func (c *checker) window(here bool) []Row {
	var out []Row
	for i := c.filled - 1; i >= 0; i-- {
		r := &c.ring[(c.head-i+len(c.ring))%len(c.ring)]
		out = append(out, c.format(r, here && i == 0))
	}
	return out
}

func (c *checker) format(r *rawRow, here bool) Row {
	row := Row{Cycle: r.cycle, Time: r.time, TimeText: c.timeText(r.time), Reset: r.reset, Here: here, Observed: r.issue}
	if r.hasIn {
		row.Input = formatTxn(&c.block.Input, &r.in)
	}
	for i := range r.exp {
		row.Expected = append(row.Expected, formatTxn(&c.block.Output, &r.exp[i]))
	}
	if r.hasObs {
		row.Observed = formatTxn(&c.block.Output, &r.obs)
	}
	return row
}

// after collects the rows that follow a divergence. The model and the
// scoreboard keep running so that the rows show what was expected, but
// nothing they find is reported and the counts stay as they were.
func (c *checker) after(s *Sampler, d *Divergence) error {
	keep := c.res
	defer func() { c.res = keep }()
	for i := 0; i < c.ctx; i++ {
		ok, err := s.Next()
		if err != nil || !ok {
			return err
		}
		var r rawRow
		c.cycle(s, &r)
		d.Window = append(d.Window, c.format(&r, false))
	}
	return nil
}

func (c *checker) inReset(s *Sampler) bool {
	if !c.reset.set {
		return false
	}
	v := c.reset.bit(s.pre)
	return v == c.rstLvl || (v != '0' && v != '1')
}

// cycle processes one edge: reset, input, model, output, deadlines; it
// records the cycle in row.
func (c *checker) cycle(s *Sampler, row *rawRow) *Divergence {
	c.res.Cycles++
	row.cycle, row.time = s.Cycle, s.Time
	if c.inReset(s) {
		row.reset = true
		c.res.ResetCycles++
		if !c.inRst {
			c.model.Reset()
			c.sb.reset()
			c.in.reset()
			c.out.reset()
			c.inRst = true
		}
		return nil
	}
	c.inRst = false
	in, iss := c.in.sample(s.pre, s.Cycle, s.Time, true)
	if iss != nil {
		return &Divergence{Kind: KindXInput, Signal: iss.signal, Expected: "0 or 1", Got: iss.value,
			Detail: "x/z on the input " + iss.what + " while the block is out of reset"}
	}
	if in != nil {
		row.in, row.hasIn = *in, true
		if d := c.apply(in); d != nil {
			return d
		}
	}
	row.exp = c.sb.dueAt(s.Cycle, row.exp)
	got, iss := c.out.sample(s.pre, s.Cycle, s.Time, false)
	if iss != nil {
		row.issue = iss.what + "=" + iss.value
		return &Divergence{Kind: KindX, Signal: iss.signal, Expected: "0 or 1", Got: iss.value,
			Detail: "x/z on the output " + iss.what + " while the block is out of reset"}
	}
	if got != nil {
		row.obs, row.hasObs = *got, true
		idx := c.res.Outputs
		c.res.Outputs++
		if d := c.sb.observe(got, idx); d != nil {
			return d
		}
		c.res.Matched++
	}
	return c.sb.tick(s.Cycle)
}

// apply runs the model on one input and queues what it expects.
func (c *checker) apply(in *Txn) *Divergence {
	c.res.Inputs++
	if in.User != 0 {
		c.res.Dropped++
		return nil
	}
	var err error
	c.outBuf, err = c.model.Apply(in, c.outBuf[:0])
	if err != nil {
		return &Divergence{Kind: KindModel, Signal: c.in.valid.name, Expected: "an input the golden model accepts",
			Got: formatTxn(&c.block.Input, in), Detail: err.Error()}
	}
	for _, o := range c.outBuf {
		due := in.Cycle + c.minLat
		c.sb.expect(pending{txn: o, in: in.Cycle, due: due, deadline: due + c.span, index: c.res.Expected})
		c.res.Expected++
	}
	return nil
}
