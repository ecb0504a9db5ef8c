package vcd

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type rtSignal struct {
	h     Handle
	typ   VarType
	width int
	names []string // full names, the first is the declaration
	cur   string
}

// canon renders a value the way Value.String does.
func (s *rtSignal) canonUint(v uint64) string {
	b := make([]byte, s.width)
	for i := range b {
		bit := s.width - 1 - i
		if bit < 64 && v>>uint(bit)&1 == 1 {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
	}
	return string(b)
}

func randBits(rng *rand.Rand, n int) string {
	const alpha = "0101010101xzXZ"
	b := make([]byte, n)
	for i := range b {
		b[i] = alpha[rng.IntN(len(alpha))]
	}
	return string(b)
}

func extend(v string, width int) string {
	v = strings.ToLower(v)
	fill := extendWith(v[0])
	return strings.Repeat(string(fill), width-len(v)) + v
}

func randReal(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return 0
	case 1:
		return math.Inf(1 - 2*rng.IntN(2))
	case 2:
		return float64(rng.IntN(100))
	default:
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
	}
}

func formatReal(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// TestRoundTripRandom writes random signal sets and change streams and
// checks the reader gives back exactly the declarations and the changes the
// writer was asked for, minus repeats of an unchanged value.
func TestRoundTripRandom(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { roundTrip(t, seed) })
	}
}

func roundTrip(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var out bytes.Buffer
	units := []TimeUnit{Second, Millisecond, Microsecond, Nanosecond, Picosecond, Femtosecond}
	ts := Timescale{[]int{1, 10, 100}[rng.IntN(3)], units[rng.IntN(len(units))]}
	w, err := NewWriter(&out, WriterOptions{Timescale: ts, BufferSize: 1 + rng.IntN(4096)})
	require.NoError(t, err)

	var sigs []*rtSignal
	var path []string
	nScopes := 0
	for i := 0; i < 5+rng.IntN(60); i++ {
		switch op := rng.IntN(10); {
		case op < 2 && len(path) < 6:
			name := fmt.Sprintf("s%d", nScopes)
			if rng.IntN(3) == 0 {
				name = fmt.Sprintf("gen[%d]", nScopes)
			}
			nScopes++
			types := []ScopeType{ScopeModule, ScopeBegin, ScopeTask, ScopeFunction, ScopeFork}
			require.NoError(t, w.PushScope(types[rng.IntN(len(types))], name))
			path = append(path, name)
		case op < 3 && len(path) > 0:
			require.NoError(t, w.PopScope())
			path = path[:len(path)-1]
		case op < 4 && len(sigs) > 0:
			s := sigs[rng.IntN(len(sigs))]
			name := fmt.Sprintf("alias%d", i)
			require.NoError(t, w.Alias(s.h, s.typ, name))
			s.names = append(s.names, strings.Join(append(append([]string{}, path...), name), "."))
		default:
			s := &rtSignal{}
			switch k := rng.IntN(10); {
			case k < 3:
				s.typ, s.width = VarWire, 1+rng.IntN(8)
			case k < 5:
				s.typ, s.width = VarReg, 1+rng.IntN(130)
			case k < 6:
				s.typ, s.width = VarInteger, 32
			case k < 8:
				s.typ, s.width = VarReal, 64
			case k < 9:
				s.typ, s.width = VarEvent, 1
			default:
				s.typ, s.width = VarWire, 64
			}
			name := fmt.Sprintf("v%d", i)
			s.h, err = w.Declare(s.typ, s.width, name)
			require.NoError(t, err)
			s.names = []string{strings.Join(append(append([]string{}, path...), name), ".")}
			switch s.typ {
			case VarReal:
				s.cur = "0"
			case VarEvent:
			default:
				s.cur = strings.Repeat("x", s.width)
			}
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}

	// Initial values, then a stream of changes.
	var want []string
	set := func(s *rtSignal, at uint64, initial bool) {
		var next string
		switch s.typ {
		case VarEvent:
			if initial {
				return
			}
			require.NoError(t, w.Trigger(s.h))
			want = append(want, fmt.Sprintf("@%d %s=1", at, s.names[0]))
			return
		case VarReal:
			f := randReal(rng)
			if rng.IntN(4) == 0 {
				f, _ = strconv.ParseFloat(s.cur, 64)
			}
			require.NoError(t, w.SetReal(s.h, f))
			next = formatReal(f)
		default:
			switch rng.IntN(4) {
			case 0, 1:
				v := rng.Uint64()
				if s.width < 64 {
					v &= 1<<uint(s.width) - 1
				}
				if rng.IntN(3) == 0 {
					v &= 3
				}
				require.NoError(t, w.SetUint64(s.h, v))
				next = s.canonUint(v)
			case 2:
				v := randBits(rng, 1+rng.IntN(s.width))
				require.NoError(t, w.SetBits(s.h, v))
				next = extend(v, s.width)
			default:
				next = s.cur // set again to the same value
				require.NoError(t, w.SetBitsBytes(s.h, []byte(next)))
			}
		}
		if next != s.cur && !initial {
			want = append(want, fmt.Sprintf("@%d %s=%s", at, s.names[0], next))
		}
		s.cur = next
	}
	for _, s := range sigs {
		if rng.IntN(2) == 0 {
			set(s, 0, true)
		}
	}
	var initial []string
	for _, s := range sigs {
		if s.typ != VarEvent {
			initial = append(initial, fmt.Sprintf("@%d %s=%s", 0, s.names[0], s.cur))
		}
	}
	now := rng.Uint64N(1000)
	require.NoError(t, w.Time(now))
	for i := 0; i < rng.IntN(400); i++ {
		if rng.IntN(3) == 0 {
			now += rng.Uint64N(1 << uint(rng.IntN(40)))
			require.NoError(t, w.Time(now))
		}
		set(sigs[rng.IntN(len(sigs))], now, false)
	}
	require.NoError(t, w.Close())

	// Read back.
	rd, err := NewReader(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	h := rd.Header()
	assert.Equal(t, ts, h.Timescale)
	assert.Equal(t, DefaultVersion, h.Version)
	require.Len(t, h.Signals, len(sigs))
	for i, s := range sigs {
		sig := h.Signals[i]
		assert.Equal(t, s.width, sig.Width)
		require.Len(t, sig.Vars, len(s.names))
		for j, n := range s.names {
			assert.Equal(t, n, sig.Vars[j].FullName())
			assert.Same(t, sig, h.Var(n).Signal)
			assert.Equal(t, s.typ, sig.Vars[j].Type)
		}
	}
	var gotInit, got []string
	inDump := false
	var last uint64
	for ev, err := range rd.All() {
		require.NoError(t, err)
		switch ev.Kind {
		case EventDumpVars:
			inDump = true
		case EventEndSection:
			inDump = false
		case EventTime:
			last = ev.Time
		case EventChange:
			line := fmt.Sprintf("@%d %s=%s", ev.Time, ev.Signal.Vars[0].FullName(), ev.Value)
			if inDump {
				line = fmt.Sprintf("@0 %s=%s", ev.Signal.Vars[0].FullName(), ev.Value)
				gotInit = append(gotInit, line)
			} else {
				got = append(got, line)
			}
		}
	}
	assert.Equal(t, initial, gotInit, "initial values")
	assert.Equal(t, want, got, "changes")
	assert.Equal(t, now, last, "Close writes the final time")
	for _, s := range sigs {
		if s.typ != VarEvent {
			assert.Equal(t, s.cur, h.Var(s.names[0]).Signal.Value().String(), "final value of %s", s.names[0])
		}
	}
}
