package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// wireFrame is a frame on a test wire.
type wireFrame = serdes.RxFrame[*packet.Desc]

// wireScript decides what a scripted wire sends when a frame reaches it:
// the frame, nothing (it is lost or held), or several frames, among them
// frames it held before, in the order they are to go.
type wireScript func(f wireFrame, now rtlmodel.Time) []wireFrame

// scriptWire is one direction of a cable whose script decides each
// frame's fate, for tests that need frames lost, held back or reordered.
type scriptWire struct {
	in, out *rtlmodel.Link[wireFrame]
	script  wireScript
	queue   []wireFrame
}

func (w *scriptWire) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		f, ok := w.in.Recv()
		if !ok {
			break
		}
		if w.script == nil {
			w.queue = append(w.queue, f)
			continue
		}
		w.queue = append(w.queue, w.script(f, edge.Time)...)
	}
	for len(w.queue) > 0 && w.out.CanSend() {
		w.out.Send(w.queue[0])
		w.queue = w.queue[1:]
	}
	if w.in.Pending() > 0 || len(w.queue) > 0 {
		return edge.Next()
	}
	return rtlmodel.Never
}

// scriptedCable connects NICs a and b over a cable whose two directions
// run the scripts ab and ba (nil: pass everything).
func scriptedCable(t testing.TB, ca, cb Config, ab, ba wireScript) (*rtlmodel.Engine, *NIC, *NIC) {
	e, a, b := twoNICs(t, ca, cb)
	dom, err := e.AddDomain("wire", 1000, 0)
	require.NoError(t, err)
	cfg := rtlmodel.LinkConfig{Latency: 1, Width: 1}
	wires := [2]*scriptWire{{script: ab}, {script: ba}}
	for i, name := range []string{"a>b", "b>a"} {
		h, err := e.Add(dom, "wire/"+name, wires[i])
		require.NoError(t, err)
		from, to := a, b
		if i == 1 {
			from, to = b, a
		}
		wires[i].in, err = rtlmodel.NewLink[wireFrame]("wire/"+name+"/in", from.Phy().Handle(), h, cfg)
		require.NoError(t, err)
		wires[i].out, err = rtlmodel.NewLink[wireFrame]("wire/"+name+"/out", h, to.Handle(), cfg)
		require.NoError(t, err)
	}
	require.NoError(t, a.ConnectWire(wires[0].in, wires[1].out))
	require.NoError(t, b.ConnectWire(wires[1].in, wires[0].out))
	return e, a, b
}

// isAck reports whether f is an ACK of data (not of read responses).
func isAck(f wireFrame) bool {
	fl := f.Frame.Meta.Flags
	return fl&flagAck != 0 && fl&flagReadResp == 0
}

// requesterCompletions collects n's completions as requester: those of
// the work requests it posted, not those it took as responder.
func requesterCompletions(n *NIC) *[]Completion {
	var done []Completion
	n.OnComplete = func(c Completion) {
		if !c.Responder {
			done = append(done, c)
		}
	}
	return &done
}
