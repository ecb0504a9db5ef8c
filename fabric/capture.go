package fabric

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// Capture keeps the frames of chosen flows as they were on each cable of
// the fabric, for a packet capture Wireshark and tcpdump read
// (Capture.WriteTo, pcapng, pcapngWriter): every frame that crossed a
// cable, and the PFC frames sent on those cables, on one
// interface per cable direction, named by its link (a switch port's rx
// link or a NIC's), stamped with the time it was sent onto the cable, to
// the nanosecond. A frame is written whole, without its FCS: the header
// bytes it had on that cable (the switches rewrite MACs and TTL on the
// way), then its payload as the model has it, zeros (descriptors carry
// payload lengths, not bytes: ARCHITECTURE "Fidelity"), and a RoCEv2
// packet's ICRC as its NIC sealed it over them (a trimmed header has
// none). The capture keeps the header bytes in memory until it is
// written.
type Capture struct {
	recs []capturedFrame
}

// capturedFrame is one frame on one cable.
type capturedFrame struct {
	t       rtlmodel.Time
	link    string
	data    []byte // the header bytes on the cable
	length  int    // the frame's length without the FCS
	trimmed bool
	icrc    uint32 // the ICRC its NIC sealed (0: none, as with nic400g.Config.NoICRC)
	pfc     bool   // a PFC frame, which WriteTo keeps on the flows' cables alone
}

// CaptureFlows captures, for the flows with the given IDs, every frame
// between their two endpoints on every cable (the frames TraceFlows
// follows, where they cross a cable), and the PFC frames on those cables.
// Call it before the run.
func (r *Run) CaptureFlows(ids []int) (*Capture, error) {
	traced, err := r.flowFilter(ids)
	if err != nil {
		return nil, err
	}
	c := &Capture{}
	e := r.Cluster.Engine
	keep := func(f serdes.RxFrame[*packet.Desc]) bool { return f.Frame.Kind == packet.KindPFC || traced(f.Frame) }
	e.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
		f, ok := rtlmodel.TransferValue[serdes.RxFrame[*packet.Desc]](ev)
		if !ok || !keep(f) {
			return
		}
		d := f.Frame
		c.recs = append(c.recs, capturedFrame{t: ev.Time, link: ev.Link, data: bytes.Clone(d.Header()),
			length: max(int(d.FrameBytes)-packet.FCSLen, int(d.HdrLen)), trimmed: d.Trimmed, icrc: d.Meta.ICRC,
			pfc: d.Kind == packet.KindPFC})
	})
	// the capture reads cables alone: the model's other links need not
	// tell the hooks of anything on its account
	rtlmodel.KeepTransfers(e, func(*packet.Desc) bool { return false })
	rtlmodel.KeepTransfers(e, keep)
	return c, nil
}

// Len returns the number of frames captured.
func (c *Capture) Len() int { return len(c.recs) }

// WriteTo writes the capture to w as pcapng: a section, an interface per
// link in the order of their first frame, then the frames in the order of
// their times (then link and bytes, so the same run gives the same file).
// Of the PFC frames it keeps those on the cables the flows' frames
// crossed, and forgets the others.
// It returns the bytes written and the first error.
func (c *Capture) WriteTo(w io.Writer) (int64, error) {
	// PFC frames on the cables the flows crossed: the pauses their frames met
	crossed := map[string]bool{}
	for _, rec := range c.recs {
		crossed[rec.link] = crossed[rec.link] || !rec.pfc
	}
	c.recs = slices.DeleteFunc(c.recs, func(rec capturedFrame) bool { return rec.pfc && !crossed[rec.link] })
	slices.SortStableFunc(c.recs, func(a, b capturedFrame) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.link, b.link), bytes.Compare(a.data, b.data))
	})
	pw := newPcapngWriter(w, "fabricmodel")
	ids := map[string]int{}
	for _, rec := range c.recs {
		if _, ok := ids[rec.link]; !ok {
			ids[rec.link] = len(ids)
			pw.addInterface(rec.link)
		}
	}
	var frame []byte
	for _, rec := range c.recs {
		frame = rec.whole(frame)
		pw.packet(ids[rec.link], uint64(rec.t/rtlmodel.Nanosecond), frame)
	}
	if err := pw.flush(); err != nil {
		return pw.n, fmt.Errorf("capture: %w", err)
	}
	return pw.n, nil
}

// whole returns the frame as it was on the cable, in buf's array when it
// is large enough: the header bytes, zeros for the payload, and a RoCEv2
// packet's ICRC as its NIC sealed it, least-significant byte first.
func (rec *capturedFrame) whole(buf []byte) []byte {
	if cap(buf) < rec.length {
		buf = make([]byte, rec.length)
	}
	b := buf[:rec.length]
	clear(b[copy(b, rec.data):])
	var f packet.RoCEv2
	if !rec.trimmed && f.DecodeHeaders(rec.data, rec.length+packet.FCSLen) == nil && f.End() <= len(b) {
		binary.LittleEndian.PutUint32(b[f.ICRCOff:], rec.icrc)
	}
	return b
}
