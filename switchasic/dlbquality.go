package switchasic

// Fixed-point widths of the port quality arithmetic (ARCHITECTURE
// "Fidelity"; FACTS 7 parameters, E).
const (
	// QualitySampleBits is the width of the byte counts UpdatePort takes:
	// transmitted bytes per window and queue bytes saturate at 2^32-1.
	QualitySampleBits = 32
	// QualityLoadFracBits is the number of fractional bits of the load
	// EWMA, held as UQ32.8.
	QualityLoadFracBits = 8
	// QualityWeightFracBits is the number of fractional bits of
	// LoadWeight and QueueWeight (UQ8.8).
	QualityWeightFracBits = 8
)

// PortQuality holds each port's DLB quality inputs and band. All state is
// integer; Update documents the arithmetic bit for bit so an RTL block can
// match it. A port never updated is in band 0 (best).
type PortQuality struct {
	cfg   DLBConfig
	load  []uint64 // load EWMA, UQ32.8 bytes per window
	queue []uint32 // last queue depth, bytes, saturated
	band  []uint8
}

// NewPortQuality returns the state for cfg's arithmetic; the port arrays
// grow as ports are first updated.
func NewPortQuality(cfg DLBConfig) *PortQuality { return &PortQuality{cfg: cfg} }

// sat32 saturates v to QualitySampleBits.
func sat32(v uint64) uint64 { return min(v, 1<<QualitySampleBits-1) }

// Update takes one sample for port: the bytes it sent in the last sample
// window and its queue depth in bytes. With tx and q each saturated to 32
// bits, s = LoadShift, and weights wl, wq in UQ8.8:
//
//	load' = load - (load >> s) + ((tx << 8) >> s)            UQ32.8
//	m     = (wl*load' + wq*(q << 8)) >> 16                   bytes, < 2^41
//	band  = min(Bands-1, m >> BandShift)
//
// The EWMA is the shift-and-subtract form hardware uses; it truncates, so
// under a constant input it settles up to 2^s units of 2^-8 B below it.
func (pq *PortQuality) Update(port int, txBytes, queueBytes uint64) {
	if port < 0 {
		panic("switchasic: port quality update for a negative port")
	}
	if port >= len(pq.band) {
		n := port + 1
		pq.load = append(pq.load, make([]uint64, n-len(pq.load))...)
		pq.queue = append(pq.queue, make([]uint32, n-len(pq.queue))...)
		pq.band = append(pq.band, make([]uint8, n-len(pq.band))...)
	}
	s := pq.cfg.LoadShift
	sample := sat32(txBytes) << QualityLoadFracBits
	l := pq.load[port]
	l = l - l>>s + sample>>s
	q := sat32(queueBytes)
	pq.load[port], pq.queue[port] = l, uint32(q)
	m := (uint64(pq.cfg.LoadWeight)*l + uint64(pq.cfg.QueueWeight)*(q<<QualityLoadFracBits)) >>
		(QualityLoadFracBits + QualityWeightFracBits)
	pq.band[port] = uint8(min(uint64(pq.cfg.Bands-1), m>>pq.cfg.BandShift))
}

// Band is port's quality band, 0 (best) to Bands-1.
func (pq *PortQuality) Band(port int) int {
	if port < len(pq.band) {
		return int(pq.band[port])
	}
	return 0
}

// LoadEWMA is port's load average in raw UQ32.8 (bytes per window x 256).
func (pq *PortQuality) LoadEWMA(port int) uint64 {
	if port < len(pq.load) {
		return pq.load[port]
	}
	return 0
}

// QueueBytes is the last queue depth sampled for port, saturated to 32
// bits.
func (pq *PortQuality) QueueBytes(port int) uint32 {
	if port < len(pq.queue) {
		return pq.queue[port]
	}
	return 0
}
