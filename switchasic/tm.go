package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TrafficManager is the admission logic of the switch's shared buffer
// (FACTS 4 [R71]): for every arriving packet it decides enqueue, trim or
// drop, whether to mark ECN CE, and whether the ingress (port, class) must
// send PFC XOFF; on every departure it returns the cells and says when
// XON is due. It keeps the byte and cell counts of every egress queue
// (egress port, class) and every ingress (port, class).
//
// Admission of a packet of n cells in class c from ingress i to egress e:
//
//   - Lossless class (PFC.Enabled[c], FACTS 2.7): exempt from the dynamic
//     threshold. While (i, c) is not paused and the shared pool has n free
//     cells, the packet is charged to the shared pool; otherwise to the
//     headroom of (i, c), and if that is used up it is dropped with
//     DropHeadroomOverflow. XOFF is raised when the bytes of (i, c) exceed
//     the XOFF threshold or a packet had to use headroom.
//   - Lossy class: queued out of the queue's reserve when the n cells fit
//     in what is left of it (QueueReserveBytes); else dropped with
//     DropBufferFull when the shared pool has fewer than n free cells, or
//     with DropQueueLimit when the queue's shared cells (e, c) would exceed
//     alpha × the free shared cells (SharedBuffer). With
//     trimming on, such a packet of a trim-eligible class (Trimmable)
//     longer than TrimBytes is trimmed instead and queued in
//     (e, TrimClass) if its TrimBytes fit in what is left of that queue's
//     reserve or in the free shared cells (FACTS 2.5 [R19]; trim-eligible
//     classes: TrimConfig).
//   - ECN: an ECN-capable packet queued whole in a class with WRED enabled
//     takes one LFSR draw and is marked when the draw is below the curve's
//     probability at the depth of (e, c) before it (FACTS 2.1 [R9]).
//
// Release frees a lossy queue's shared cells before its reserve, and
// headroom cells of (i, c) before shared ones, and reports
// XON when the bytes of a paused (i, c) fall below the XON threshold with
// no headroom in use.
//
// A TrafficManager is plain state owned by one component and used from
// its Eval; Admit and Release allocate nothing. Indices out of range and
// releases of more than is held are internal bugs and panic.
type TrafficManager struct {
	// What admission and release read comes first, in the first lines:
	// a traffic manager is out of the caches at each run of its switch.
	nPorts, nClasses int       // cfg.Ports and cfg.Classes
	queues           []tmCount // egress*Classes + class
	ingress          []tmCount // ingress*Classes + class
	ports            []uint64  // bytes per egress port
	lfsr             *LFSR
	metrics          *tmMetrics
	// used and marked are the metrics most admissions update, kept here
	// (Observe registers them) rather than as objects of their own
	used   rtlmodel.Gauge
	marked rtlmodel.Counter
	stats  TMStats
	buf    SharedBuffer
	lim    tmLimits

	curves [MaxClasses]WREDCurve
	cfg    TMConfig
}

// tmCount is the bytes and cells held by one queue or ingress pair; for
// an ingress pair of a lossless class also the headroom cells and the
// XOFF state.
type tmCount struct {
	bytes, cells uint64
	hdrm         uint64 // of an ingress pair: headroom cells held
	resv         uint64 // of a lossy queue: reserve cells held
	paused       bool
}

// NewTrafficManager validates cfg and returns an empty traffic manager
// whose marking LFSR is seeded from seed (NewLFSR32). Errors name the
// TMConfig field at fault.
func NewTrafficManager(cfg TMConfig, seed uint64) (*TrafficManager, error) {
	lim, err := cfg.resolve()
	if err != nil {
		return nil, fmt.Errorf("switchasic: TMConfig.%w", err)
	}
	buf, err := NewSharedBuffer(cfg.BufferBytes, cfg.CellBytes, lim.reserveCells, cfg.AlphaShift)
	if err == nil {
		err = buf.reserveQueues(lim.queueResvAll)
	}
	if err != nil {
		return nil, fmt.Errorf("switchasic: TMConfig.%w", err)
	}
	tm := &TrafficManager{
		nPorts:   cfg.Ports,
		nClasses: cfg.Classes,
		cfg:      cfg,
		lim:      lim,
		buf:      *buf,
		lfsr:     NewLFSR32(seed),
		queues:   make([]tmCount, cfg.Ports*cfg.Classes),
		ingress:  make([]tmCount, cfg.Ports*cfg.Classes),
		ports:    make([]uint64, cfg.Ports),
	}
	for c := 0; c < cfg.Classes; c++ {
		tm.curves[c] = NewWREDCurve(cfg.WRED[c])
	}
	return tm, nil
}

// Config returns the configuration.
func (tm *TrafficManager) Config() TMConfig { return tm.cfg }

// Buffer returns the cell accounting (read it; do not charge it).
func (tm *TrafficManager) Buffer() *SharedBuffer { return &tm.buf }

// Curve returns the compiled WRED curve of class c.
func (tm *TrafficManager) Curve(c int) WREDCurve { return tm.curves[c] }

// Lossless reports whether class c is PFC-enabled.
func (tm *TrafficManager) Lossless(c int) bool { return c < MaxClasses && tm.lim.lossless[c] }

// PFCThresholds returns the resolved XOFF and XON thresholds and the
// headroom of port 0 per lossless class, in bytes (zeros when no class is
// lossless), FACTS 2.7.
func (tm *TrafficManager) PFCThresholds() (xoff, xon, headroom uint64) {
	return tm.lim.xoff, tm.lim.xon, tm.lim.headroomBytes[0]
}

// PortHeadroomBytes returns the headroom of ingress port per lossless
// class in bytes, and the same in cells as reserved (FACTS 2.7).
func (tm *TrafficManager) PortHeadroomBytes(port int) (bytes, cells uint64) {
	tm.index(port, 0)
	return tm.lim.headroomBytes[port], tm.lim.headroomCells[port]
}

// index is the slot of port and class in the per-port, per-class state.
// With its panic out of line the profile-guided build inlines it at every
// admission and release (its cost, 82, is just above the plain build's
// budget of 80).
func (tm *TrafficManager) index(port, class int) int {
	if uint(port) >= uint(tm.nPorts) || uint(class) >= uint(tm.nClasses) {
		tm.outOfRange(port, class)
	}
	return port*tm.nClasses + class
}

// outOfRange panics: a port or class outside the traffic manager is a
// broken invariant of the switch, not a user error. It stays out of line
// so that index stays small.
//
//go:noinline
func (tm *TrafficManager) outOfRange(port, class int) {
	panic(fmt.Sprintf("switchasic: port %d class %d out of range (%d ports, %d classes)", port, class, tm.nPorts, tm.nClasses))
}

// Admit decides the fate of a packet of bytes arriving on ingress for
// egress in class, and charges the buffer when it is queued (whole or
// trimmed). See TrafficManager for the rules.
func (tm *TrafficManager) Admit(ingress, egress, class int, bytes int, ecnCapable bool) Verdict {
	if bytes <= 0 {
		panic(fmt.Sprintf("switchasic: admit of %d bytes", bytes))
	}
	qi, ii := tm.index(egress, class), tm.index(ingress, class)
	n := tm.buf.CellsFor(bytes)
	var v Verdict
	if tm.lim.lossless[class] {
		ig := &tm.ingress[ii]
		hdrm := ig.paused || n > tm.buf.SharedFree()
		switch {
		case !hdrm:
			tm.buf.TakeShared(n)
		case ig.hdrm+n <= tm.lim.headroomCells[ingress]:
			tm.buf.TakeHeadroom(n)
			ig.hdrm += n
		default:
			return tm.drop(DropHeadroomOverflow)
		}
		tm.charge(qi, ii, egress, bytes, n)
		if !ig.paused && (hdrm || ig.bytes > tm.lim.xoff) {
			ig.paused = true
			v.PFCXoff = true
			tm.stats.Xoff++
			if tm.metrics != nil {
				tm.metrics.xoff.Inc()
			}
		}
	} else if q := &tm.queues[qi]; tm.fromReserve(q, class, n) {
		tm.charge(qi, ii, egress, bytes, n)
	} else {
		free := tm.buf.SharedFree()
		reason := DropNone
		if n > free {
			reason = DropBufferFull
		} else if q.cells-q.resv+n > tm.buf.QueueLimit() {
			reason = DropQueueLimit
		}
		if reason != DropNone {
			return tm.refuse(ingress, egress, class, bytes, reason)
		}
		tm.buf.TakeShared(n)
		tm.charge(qi, ii, egress, bytes, n)
	}
	v.Action, v.Cells, v.Class, v.Bytes = Enqueue, int(n), class, bytes
	if ecnCapable && tm.curves[class].enabled {
		depth := tm.queues[qi].bytes - uint64(bytes) // as the packet found it
		if tm.curves[class].Mark(depth, tm.lfsr.Draw16()) {
			v.MarkCE = true
			tm.stats.Marked++
			if tm.metrics != nil {
				tm.marked.Inc()
			}
		}
	}
	tm.stats.Enqueued++
	tm.noteUsed()
	return v
}

// refuse handles a lossy packet the buffer or its queue limit will not
// take: trimmed when trimming is on, its class is trim-eligible, it is
// longer than the trim size and the header fits in the trim class's
// queue reserve or the shared pool; dropped otherwise. A control frame (an ACK, NACK, pull or CNP, not of a
// trim-eligible class) is dropped whole, never cut: a switch trims only
// packets marked trimmable (UEC 1.0.3 §4.1, htsim [R19]; see TrimConfig).
func (tm *TrafficManager) refuse(ingress, egress, class, bytes int, reason DropReason) Verdict {
	t := &tm.cfg.Trim
	if !t.Enabled || !t.Trimmable[class] || bytes <= t.TrimBytes {
		return tm.drop(reason)
	}
	n := tm.buf.CellsFor(t.TrimBytes)
	qi := tm.index(egress, t.TrimClass)
	switch {
	case tm.fromReserve(&tm.queues[qi], t.TrimClass, n):
	case n > tm.buf.SharedFree():
		return tm.drop(DropBufferFull)
	default:
		tm.buf.TakeShared(n)
	}
	tm.charge(qi, tm.index(ingress, t.TrimClass), egress, t.TrimBytes, n)
	tm.stats.Trimmed++
	if tm.metrics != nil {
		tm.metrics.trimmed.Inc()
	}
	tm.noteUsed()
	return Verdict{Action: Trim, Cells: int(n), Class: t.TrimClass, Bytes: t.TrimBytes}
}

// fromReserve charges n cells to queue q of class out of its reserve
// (QueueReserveBytes) when the class is lossy and they fit in what is
// left of it, and reports whether it did.
func (tm *TrafficManager) fromReserve(q *tmCount, class int, n uint64) bool {
	if tm.lim.lossless[class] || q.resv+n > tm.lim.queueResv {
		return false
	}
	tm.buf.TakeReserve(n)
	q.resv += n
	return true
}

func (tm *TrafficManager) drop(r DropReason) Verdict {
	tm.stats.Drops[r]++
	if tm.metrics != nil {
		tm.metrics.drops[r].Inc()
	}
	return Verdict{Action: Drop, Reason: r}
}

func (tm *TrafficManager) charge(qi, ii, egress, bytes int, n uint64) {
	q, ig := &tm.queues[qi], &tm.ingress[ii]
	q.bytes += uint64(bytes)
	q.cells += n
	ig.bytes += uint64(bytes)
	ig.cells += n
	tm.ports[egress] += uint64(bytes)
	if tm.metrics != nil && tm.metrics.queues != nil {
		tm.metrics.queues[qi].Set(int64(q.bytes))
	}
}

func (tm *TrafficManager) noteUsed() {
	if tm.metrics != nil {
		tm.used.Set(int64(tm.buf.UsedCells()))
	}
}

// Release returns the cells of a queued packet leaving the egress queue:
// pass the ingress port, egress port, and the Class and Bytes of its
// Verdict. It reports true when this release took a paused lossless
// (ingress, class) below its XON threshold with no headroom in use, so
// XON is due (FACTS 2.7).
func (tm *TrafficManager) Release(ingress, egress, class int, bytes int) (pfcXon bool) {
	qi, ii := tm.index(egress, class), tm.index(ingress, class)
	n := tm.buf.CellsFor(bytes)
	q, ig := &tm.queues[qi], &tm.ingress[ii]
	b := uint64(bytes)
	if bytes <= 0 || q.bytes < b || q.cells < n || ig.bytes < b || ig.cells < n {
		panic(fmt.Sprintf("switchasic: release of %d B (%d cells) from queue (%d,%d) holding %d B/%d cells, ingress (%d,%d) holding %d B/%d cells",
			bytes, n, egress, class, q.bytes, q.cells, ingress, class, ig.bytes, ig.cells))
	}
	// a lossy queue gives back its shared cells first, then its reserve
	r := n - min(n, q.cells-q.resv)
	if r > 0 {
		q.resv -= r
		tm.buf.PutReserve(r)
	}
	q.bytes -= b
	q.cells -= n
	ig.bytes -= b
	ig.cells -= n
	tm.ports[egress] -= b
	if tm.metrics != nil && tm.metrics.queues != nil {
		tm.metrics.queues[qi].Set(int64(q.bytes))
	}
	h := min(n-r, ig.hdrm)
	ig.hdrm -= h
	tm.buf.PutHeadroom(h)
	tm.buf.PutShared(n - r - h)
	tm.stats.Released++
	tm.noteUsed()
	if ig.paused && ig.hdrm == 0 && ig.bytes < tm.lim.xon {
		ig.paused = false
		tm.stats.Xon++
		if tm.metrics != nil {
			tm.metrics.xon.Inc()
		}
		return true
	}
	return false
}

// QueueBytes returns the bytes queued in (egress, class).
func (tm *TrafficManager) QueueBytes(egress, class int) uint64 {
	return tm.queues[tm.index(egress, class)].bytes
}

// QueueCells returns the cells held by (egress, class).
func (tm *TrafficManager) QueueCells(egress, class int) uint64 {
	return tm.queues[tm.index(egress, class)].cells
}

// PortBytes returns the bytes queued for egress over all classes.
func (tm *TrafficManager) PortBytes(egress int) uint64 {
	tm.index(egress, 0)
	return tm.ports[egress]
}

// UsedCells returns the buffer cells held: shared pool, headroom and the
// queues' reserve.
func (tm *TrafficManager) UsedCells() uint64 { return tm.buf.UsedCells() }

// FreeCells returns the buffer cells not held (shared, headroom and the
// queues' reserve; the shared pool alone is Buffer().SharedFree()).
func (tm *TrafficManager) FreeCells() uint64 { return tm.buf.TotalCells() - tm.buf.UsedCells() }

// QueueReserveCells returns the reserve cells (egress, class) holds
// (QueueReserveBytes).
func (tm *TrafficManager) QueueReserveCells(egress, class int) uint64 {
	return tm.queues[tm.index(egress, class)].resv
}

// IngressBytes returns the bytes held that arrived on (ingress, class).
func (tm *TrafficManager) IngressBytes(ingress, class int) uint64 {
	return tm.ingress[tm.index(ingress, class)].bytes
}

// IngressHeadroomCells returns the headroom cells (ingress, class) holds.
func (tm *TrafficManager) IngressHeadroomCells(ingress, class int) uint64 {
	return tm.ingress[tm.index(ingress, class)].hdrm
}

// Paused reports whether (ingress, class) is in XOFF (FACTS 2.7).
func (tm *TrafficManager) Paused(ingress, class int) bool {
	return tm.ingress[tm.index(ingress, class)].paused
}

// Stats returns the event counts so far.
func (tm *TrafficManager) Stats() TMStats {
	s := tm.stats
	s.MaxUsedCells = tm.buf.MaxUsedCells()
	return s
}

// Observe registers the traffic manager's statistics in r under prefix:
// counters prefix/drops/<reason> for the three TM drop reasons,
// prefix/ecn_marked, prefix/trimmed, prefix/pfc_xoff, prefix/pfc_xon, and
// the gauge prefix/used_cells whose maximum is the most cells held. Counts
// made before the call are carried in. Call it once: the traffic manager
// keeps ecn_marked and used_cells inside it, in one registry at a time.
func (tm *TrafficManager) Observe(r *rtlmodel.Registry, prefix string) {
	if tm.metrics == nil {
		// counted from here on, with the counts made before carried in
		tm.marked.Add(tm.stats.Marked)
	}
	r.Own(&tm.marked, prefix+"/ecn_marked", "packets", "packets marked ECN CE by WRED (FACTS 2.1)")
	r.OwnGauge(&tm.used, prefix+"/used_cells", "cells", "buffer cells held; its maximum is the peak (FACTS 4)")
	m := &tmMetrics{
		trimmed: r.Counter(prefix+"/trimmed", "packets", "packets trimmed to their header (FACTS 2.5)"),
		xoff:    r.Counter(prefix+"/pfc_xoff", "events", "PFC XOFF raised for an (ingress port, class) (FACTS 2.7)"),
		xon:     r.Counter(prefix+"/pfc_xon", "events", "PFC XON due for an (ingress port, class) (FACTS 2.7)"),
	}
	for _, d := range []DropReason{DropBufferFull, DropQueueLimit, DropHeadroomOverflow} {
		m.drops[d] = r.Counter(prefix+"/drops/"+d.String(), "packets", "packets dropped by the traffic manager: "+d.String())
		m.drops[d].Add(tm.stats.Drops[d])
	}
	m.trimmed.Add(tm.stats.Trimmed)
	m.xoff.Add(tm.stats.Xoff)
	m.xon.Add(tm.stats.Xon)
	tm.used.Set(int64(tm.buf.MaxUsedCells()))
	tm.used.Set(int64(tm.buf.UsedCells()))
	if tm.metrics != nil {
		m.queues = tm.metrics.queues
	}
	tm.metrics = m
}

// ObserveQueues registers a gauge per egress queue in r, named
// prefix/q<egress>/c<class>/bytes: the bytes queued, whose maximum is the
// queue's peak. It implies Observe(r, prefix) when that was not called.
func (tm *TrafficManager) ObserveQueues(r *rtlmodel.Registry, prefix string) {
	if tm.metrics == nil {
		tm.Observe(r, prefix)
	}
	qs := make([]*rtlmodel.Gauge, len(tm.queues))
	for i := range qs {
		e, c := i/tm.nClasses, i%tm.nClasses
		qs[i] = r.Gauge(fmt.Sprintf("%s/q%d/c%d/bytes", prefix, e, c), "bytes", "bytes queued in (egress port, class)")
		qs[i].Set(int64(tm.queues[i].bytes))
	}
	tm.metrics.queues = qs
}
