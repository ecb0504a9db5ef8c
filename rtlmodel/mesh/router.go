package mesh

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Router ports.
const (
	North = iota
	East
	South
	West
	Local
	numPorts
)

var portNames = [numPorts]string{"n", "e", "s", "w", "l"}

// Router is a 5-port input-queued mesh router: each input link's credited
// receive buffer is the input queue; every cycle each output takes at most
// one flit from the inputs routed to it, round robin, if it holds a credit.
// Routing is dimension order (X then Y), which cannot deadlock on a mesh.
type Router struct {
	h      *rtlmodel.Handle
	x, y   int
	width  int
	in     [numPorts]*rtlmodel.Link[Flit]
	out    [numPorts]*rtlmodel.Link[Flit]
	rr     [numPorts]int // round-robin pointer per output
	moved  *rtlmodel.Counter
	idle   *rtlmodel.Counter
	cycles *rtlmodel.Counter
}

func (r *Router) route(f Flit) int {
	dx, dy := f.Dst%r.width, f.Dst/r.width
	switch {
	case dx > r.x:
		return East
	case dx < r.x:
		return West
	case dy > r.y:
		return South
	case dy < r.y:
		return North
	}
	return Local
}

// Eval moves at most one flit per output.
func (r *Router) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	r.cycles.Add(edge.Slept + 1)
	r.idle.Add(edge.Slept)
	var want [numPorts]bool
	for i, l := range r.in {
		if l == nil {
			continue
		}
		_, want[i] = l.Peek()
	}
	movedAny := false
	for o := 0; o < numPorts; o++ {
		out := r.out[o]
		if out == nil {
			continue
		}
		for k := 0; k < numPorts; k++ {
			i := (r.rr[o] + k) % numPorts
			if !want[i] {
				continue
			}
			f, _ := r.in[i].Peek()
			if r.route(f) != o {
				continue
			}
			if !out.CanSend() {
				break
			}
			r.in[i].Recv()
			out.Send(f)
			want[i] = false
			r.rr[o] = (i + 1) % numPorts
			r.moved.Inc()
			movedAny = true
			break
		}
	}
	if !movedAny {
		r.idle.Inc()
	}
	// Stay awake while a waiting flit has a credit to use next cycle;
	// otherwise sleep until a delivery or a credit return wakes us.
	for i, l := range r.in {
		if l == nil {
			continue
		}
		if f, ok := l.Peek(); ok && (!want[i] || r.out[r.route(f)].Credits() > 0) {
			return edge.Next()
		}
	}
	return rtlmodel.Never
}

// Finish counts the cycles slept at the end of the run.
func (r *Router) Finish(edge rtlmodel.Edge) {
	r.cycles.Add(edge.Slept)
	r.idle.Add(edge.Slept)
}

// BlockedOn names the first input whose flit waits for credits.
func (r *Router) BlockedOn() string {
	for i, l := range r.in {
		if l == nil {
			continue
		}
		if f, ok := l.Peek(); ok {
			o := r.route(f)
			if r.out[o].Credits() == 0 {
				return fmt.Sprintf("credits on %s (flit %v from input %s)", r.out[o].Name(), f, portNames[i])
			}
		}
	}
	return ""
}
