package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

// Completion reports a finished message: at the requester when its last
// packet is acknowledged, at the responder when its last byte is placed
// in order; Visible is when the CQE is visible to the polling CPU.
type Completion struct {
	Responder bool
	Op        Op
	QP        uint32
	Msg       uint32
	Bytes     uint64
	Posted    rtlmodel.Time // doorbell written by the CPU
	Placed    rtlmodel.Time // the NIC wrote the data (responder) or took the ACK (requester)
	Visible   rtlmodel.Time
	// Status is how the work request ended; the zero value, StatusOK,
	// is a success
	Status CompletionStatus
}

// NIC is one 400G RDMA NIC as an rtlmodel component: doorbells in from
// the driver, frames in from the wire, frames out to its own PHY. Its
// transmit side schedules active QPs round robin (one packet per turn,
// O(1) per decision), gates each by its congestion control (rate pacing
// and window), segments messages at the MTU into real headers of the
// configured stack, and keeps every unacknowledged packet for go-back-N
// or selective repeat. Its receive side tracks PSNs in a bitmap window,
// places packets that carry their address directly and holds the others
// in a reorder buffer with a slot for each PSN up to its size past the
// expected one, completes messages in order, coalesces
// ACKs with a SACK bitmap, NAKs sequence errors (go-back-N), NACKs trimmed
// packets at once and sends CNPs with a minimum interval (DCQCN NP).
type NIC struct {
	cfg  Config
	e    *rtlmodel.Engine
	dom  *rtlmodel.Domain
	h    *rtlmodel.Handle
	pool *packet.DescPool
	ids  packet.DescIDs // numbers the descriptors this NIC makes
	host HostSide
	pcie *PCIeHostSide // host when it is the PCIe model, for Prefetch
	rng  *rtlmodel.RNG
	mac  [6]byte // the NIC's MAC (MAC)

	phy       *serdes.PhyLink[*packet.Desc]
	out       *rtlmodel.Link[*packet.Desc]
	in        *rtlmodel.Link[serdes.RxFrame[*packet.Desc]]
	doorbells *rtlmodel.Link[WorkRequest]
	cqes      *rtlmodel.Link[Completion]

	store *QPStore
	cache *QPCache
	qps   []*qpState                   // nil for idle QPs
	ring  rtlmodel.Queue[uint32]       // active QPs waiting for a transmit turn
	ctrl  rtlmodel.Queue[*packet.Desc] // ACK/NAK/CNP frames waiting to go, before data
	// ctrlPushed and ctrlSent count the control frames queued and sent
	ctrlPushed, ctrlSent uint64
	timers               timerHeap
	np                   *NotificationPoint
	ackEv                AckEvent         // the event handed to congestion control, reused
	pacer                *RecvCreditPacer // EQDS receiver's pull pacer (CC "eqds"), else nil
	eqp                  EQDSParams
	free                 []*qpState // released active states, reused
	ccf                  ccFactory
	// collectINT: data packets collect in-band telemetry, for senders
	// whose algorithm reads it (intReader: HPCC)
	collectINT bool
	// notifyCE: the notification point turns CE marks into CNPs, for a
	// fabric whose senders' algorithm reads them (cnpReader: DCQCN, on
	// either framing); the others ignore CNPs (NSCC and path-aware
	// spraying read the ECN echo of the ACKs, which every receiver
	// sends), so their receivers send none
	notifyCE bool
	// QP context reads in flight, and QPs waiting for a read slot
	reads   timeHeap // completion times of context reads in flight
	ctxWait []uint32
	waitAt  int
	// PFC: data transmission is paused until pauseUntil; a quantum is 512
	// bit times at the port's rate (FACTS 2.7).
	pauseUntil rtlmodel.Time
	quantum    rtlmodel.Time
	// tmpl: the headers of the last data packet built without RETH, for
	// the next one like it (nic_headers_template.go); nil: none kept
	tmpl *hdrTemplate

	// OnComplete, when set, sees every completion.
	OnComplete func(Completion)

	st *nicStats // a block of its own: a packet reads its first line
}

// New registers a NIC under path with its own clock domain and PHY.
func New(e *rtlmodel.Engine, path string, cfg Config, pool *packet.DescPool) (*NIC, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Stack == LeanNative {
		cfg.Wire.NoEthernetFraming = true
	}
	var err error
	dom, err := e.AddDomain(path+"/core", cfg.ClockPeriod, 0)
	if err != nil {
		return nil, err
	}
	n := &NIC{cfg: cfg, e: e, dom: dom, pool: pool, ids: packet.NewDescIDs(cfg.ID), host: cfg.Host, qps: make([]*qpState, cfg.QPs), tmpl: &hdrTemplate{}, mac: macOf(cfg.ID)}
	if n.host == nil {
		if n.host, cfg.QPCache.MissLatency, err = NewDefaultPCIeHostSide(); err != nil {
			return nil, err
		}
		n.cfg.QPCache.MissLatency = cfg.QPCache.MissLatency
	}
	n.pcie, _ = n.host.(*PCIeHostSide)
	if n.ccf, err = newCCFactory(&cfg); err != nil {
		return nil, err
	}
	// what the algorithm's senders read (intReader, cnpReader) decides
	// what data packets collect and what receivers send back
	sample := n.ccf()
	_, n.collectINT = sample.(intReader)
	_, n.notifyCE = sample.(cnpReader)

	switch cfg.Paths {
	case "fixed", "spray", "pathaware":
	default:
		return nil, fmt.Errorf("nic %d: unknown path selection %q (fixed, spray or pathaware)", cfg.ID, cfg.Paths)
	}
	qt := cfg.Wire.Lanes.MACRate().SerialTime(512)
	n.quantum = rtlmodel.Time((qt.Num() + qt.Den() - 1) / qt.Den())
	if n.h, err = e.Add(dom, path, n); err != nil {
		return nil, err
	}
	n.rng = n.h.RNG()
	if n.store, err = NewQPStore(cfg.QPs, DefaultHostContextBytes); err != nil {
		return nil, err
	}
	cc := cfg.QPCache
	cc.Seed = cfg.Seed
	if n.cache, err = NewQPCache(cc, e.Stats(), path+"/qpc"); err != nil {
		return nil, err
	}
	if n.np, err = NewNotificationPoint(cfg.CNPInterval, 4096); err != nil {
		return nil, err
	}
	if cfg.CC == "eqds" {
		if n.eqp, err = eqdsParams(&cfg); err != nil {
			return nil, err
		}
		if n.pacer, err = NewRecvCreditPacer(&n.eqp, cfg.QPs); err != nil {
			return nil, err
		}
	}
	n.st = new(nicStats)
	n.st.register(e.Stats(), path)
	if n.phy, err = serdes.NewPhyLink[*packet.Desc](e, dom, path+"/phy", cfg.Wire, descBytes); err != nil {
		return nil, err
	}
	// The transmit pipeline holds bytes, not frames: what the port sends in
	// its latency plus one largest frame, so a PFC pause stops the NIC
	// within that (FACTS 2.7).
	lc := rtlmodel.LinkConfig{Latency: cfg.TxCycles, Width: 1, CreditLatency: 1,
		WidthBytes: cfg.Wire.Lanes.MACRate().BytesPerCycle(dom.Period()), MaxItemBytes: maxFrameBytes}
	lc.Credits = rtlmodel.CreditRoundTrip(lc, dom, dom)
	n.out, err = rtlmodel.NewByteLink[*packet.Desc](path+"/tx", n.h, n.phy.Handle(), lc, descBytes)
	if err != nil {
		return nil, err
	}
	if err := n.phy.Connect(n.out, nil); err != nil {
		return nil, err
	}
	return n, nil
}

func descBytes(d *packet.Desc) int { return int(d.FrameBytes) }

// maxFrameBytes is the largest frame a NIC sends: a 4096-byte payload
// with the longest header stack fits well within it (E).
const maxFrameBytes = 4096 + 512

// Handle returns the NIC component's handle (to attach links to it).
func (n *NIC) Handle() *rtlmodel.Handle { return n.h }

// Phy returns the NIC's transmit PHY.
func (n *NIC) Phy() *serdes.PhyLink[*packet.Desc] { return n.phy }

// MAC returns the NIC's MAC address, the source of its frames: endpoint
// n's is 02:00:00 followed by n's low 24 bits.
func (n *NIC) MAC() [6]byte { return n.mac }

// Host returns the host interface the NIC uses.
func (n *NIC) Host() HostSide { return n.host }

// MinCompletionLatency is the least time from the edge at which the NIC
// completes a work request to its CQE being visible to the host (the
// Visible of the Completion it sends): the host's least CQE latency
// (HostSide.MinCQELatency), as the NIC writes the CQE at that edge.
func (n *NIC) MinCompletionLatency() rtlmodel.Time { return n.host.MinCQELatency() }

// Config returns the configuration.
func (n *NIC) Config() Config { return n.cfg }

// Cache returns the QP context cache.
func (n *NIC) Cache() *QPCache { return n.cache }

// Store returns the QP context backing store.
func (n *NIC) Store() *QPStore { return n.store }

// ConnectWire sets the link the NIC's PHY delivers into (the peer's
// receive link) and the link the NIC receives from. Call it before the
// run.
func (n *NIC) ConnectWire(tx, rx *rtlmodel.Link[serdes.RxFrame[*packet.Desc]]) error {
	if err := n.phy.Connect(n.out, tx); err != nil {
		return err
	}
	n.in = rx
	// the receive pipeline (parse, QPC, translate, place) is the link's:
	// a frame becomes visible when it leaves the pipeline
	rx.DelayArrivals(n.cfg.RxCycles)
	rx.ReadAheadWith(readRxAhead)
	rx.PrefetchWith(prefetchRx)
	return nil
}

// readRxAhead reads what the receive path reads of a frame: its
// descriptor's first line, its headers and its transport fields
// (rtlmodel.Link.ReadAheadWith).
func readRxAhead(f serdes.RxFrame[*packet.Desc]) uint64 { return f.Frame.ReadAheadMeta() }

// ConnectCompletions sets the link requester completions (CQEs) go to the
// driver on; each arrives when its CQE becomes visible.
func (n *NIC) ConnectCompletions(l *rtlmodel.Link[Completion]) { n.cqes = l }

// ConnectDoorbells sets the link the driver posts work requests on.
func (n *NIC) ConnectDoorbells(l *rtlmodel.Link[WorkRequest]) { n.doorbells = l }

// Eval runs the receive pipeline, takes doorbells, serves timers and sends.
func (n *NIC) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	now := edge.Time
	if n.in != nil {
		for {
			f, ok := n.in.Recv()
			if !ok {
				break
			}
			n.receive(f, now)
		}
	}
	if n.doorbells != nil {
		for {
			wr, ok := n.doorbells.Recv()
			if !ok {
				break
			}
			n.post(wr, now)
		}
	}
	n.runTimers(now)
	if n.pacer != nil {
		n.runPacer(now)
	}
	if n.waitAt < len(n.ctxWait) {
		n.releaseWaiters(now)
	}
	n.transmit(now)
	return n.nextWake(edge)
}

// nextWake is the next edge with work: more to send now, the end of a
// pause, the next timer, pacer event or context read (frames leaving the
// receive pipeline wake the NIC through its input link).
func (n *NIC) nextWake(edge rtlmodel.Edge) rtlmodel.Wake {
	// The same tests as transmit, on credits alone: the frame sent at this
	// edge used the link's width, not the next edge's.
	if n.ctrl.Len() > 0 && n.out.HasCredits(int((*n.ctrl.Front()).FrameBytes)) {
		return edge.Next()
	}
	if n.ctrl.Len() == 0 && n.ring.Len() > 0 && n.pauseUntil <= edge.Time && n.out.HasCredits(maxFrameBytes) {
		return edge.Next()
	}
	next := rtlmodel.Forever
	if n.ring.Len() > 0 && n.pauseUntil > edge.Time {
		next = n.pauseUntil
	}
	if n.timers.len() > 0 {
		next = min(next, n.timers.top().at)
	}
	if n.pacer != nil {
		next = min(next, n.pacer.NextEvent())
	}
	if n.waitAt < len(n.ctxWait) && n.reads.len() > 0 {
		next = min(next, n.reads.min())
	}
	if next == rtlmodel.Forever {
		return rtlmodel.Never
	}
	return rtlmodel.Wake(n.dom.CycleAt(n.dom.FirstEdgeAtOrAfter(max(next, edge.Time+1))))
}

// qp returns the active state of QP id, creating it.
func (n *NIC) qp(id uint32) *qpState {
	q := n.qps[id]
	if q == nil {
		if k := len(n.free); k > 0 {
			q = n.free[k-1]
			n.free = n.free[:k-1]
			*q = qpState{unacked: q.unackedBuf[:0], unackedBuf: q.unackedBuf[:0], msgs: q.msgs[:0], dataReady: q.dataReady[:0],
				recvMsgs: q.recvMsgs[:0], rw: q.rw, reads: q.reads[:0], rsps: q.rsps[:0], rspOut: q.rspOut[:0],
				rspAsks: q.rspAsks[:0], early: q.early[:0]}
		} else {
			q = &qpState{}
		}
		q.id = id
		ctx := n.store.Context(id)
		q.nextPSN = uint32(ctx.SendPSN)
		q.cumAck = ctx.SendPSN
		if q.rw != nil {
			q.rw.Reset(ctx.RecvPSN)
		}
		n.qps[id] = q
	}
	return q
}

func (n *NIC) String() string { return fmt.Sprintf("nic%d", n.cfg.ID) }
