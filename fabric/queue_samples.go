package fabric

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// maxQueueSamples bounds the queue samples a run keeps, so that their
// memory does not grow with the simulated time: a 1024-endpoint fabric
// has some 8,000 egress ports, 64 KB a sample, and a run of one
// simulated second at the default 10 us step would take 100,000 of them.
const maxQueueSamples = 4096

// queueSample is the buffered bytes of every switch egress port at a time.
type queueSample struct {
	at    rtlmodel.Time
	bytes []uint64 // switch-major, port-minor, over Cluster.Switches()
}

// queueSamples keeps the egress queues' depths step by step, at most
// maxQueueSamples of them. When full it halves: each pair of neighbours
// becomes one sample at the first's time holding the deeper of the two
// depths of each queue, and from then on each sample covers twice as many
// steps. A queue's peak, and so which queues are the hottest, is kept
// exactly; a long run's series get coarser instead of larger.
type queueSamples struct {
	kept   []queueSample
	stride int // steps each kept sample covers (a power of two)
	open   int // steps taken into the last kept sample so far
}

// add takes the depths b of every egress queue at time at.
func (q *queueSamples) add(at rtlmodel.Time, b []uint64) {
	if q.stride == 0 {
		q.stride = 1
	}
	if q.open > 0 && q.open < q.stride {
		last := q.kept[len(q.kept)-1].bytes
		for i, v := range b {
			last[i] = max(last[i], v)
		}
		q.open++
		return
	}
	if len(q.kept) == maxQueueSamples {
		q.halve()
	}
	q.kept = append(q.kept, queueSample{at: at, bytes: b})
	q.open = 1
}

// halve merges each pair of kept samples into one and doubles the steps a
// sample covers. It is called when the store is full (an even count) and
// its last sample complete, so every merged sample is complete too.
func (q *queueSamples) halve() {
	half := len(q.kept) / 2
	for i := range half {
		a, b := q.kept[2*i], q.kept[2*i+1]
		for j, v := range b.bytes {
			a.bytes[j] = max(a.bytes[j], v)
		}
		q.kept[i] = a
	}
	clear(q.kept[half:])
	q.kept = q.kept[:half]
	q.stride *= 2
	q.open = q.stride
}
