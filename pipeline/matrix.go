package pipeline

// Matrix is the classic matrix arbiter: a priority bit for every pair of
// requesters says which of the two goes first. The winner is the requester
// that has priority over every other requester; granting it clears its row
// and sets its column, so it drops to last place. The result is
// least-recently-granted order: among the requesters, the one granted
// longest ago wins (at reset, lower index first).
type Matrix struct {
	n     int
	words int
	// beats[i*words:(i+1)*words] is row i: the requesters i goes before.
	beats []uint64
}

// NewMatrix returns a matrix arbiter over n >= 1 requesters.
func NewMatrix(n int) *Matrix {
	checkSize("matrix", n)
	words := (n + 63) / 64
	a := &Matrix{n: n, words: words, beats: make([]uint64, n*words)}
	a.Reset()
	return a
}

// Size returns the number of requesters.
func (a *Matrix) Size() int { return a.n }

func (a *Matrix) row(i int) Bits { return Bits(a.beats[i*a.words : (i+1)*a.words]) }

// Before reports whether requester i currently goes before requester j.
func (a *Matrix) Before(i, j int) bool { return i != j && a.row(i).Has(j) }

// Pick returns the requester that goes before every other requester, or -1.
func (a *Matrix) Pick(req Bits) int {
	for wi := 0; wi < a.words; wi++ {
		w := req[wi]
		for w != 0 {
			i := wi<<6 + trailingZeros(w)
			w &= w - 1
			if i >= a.n {
				return -1
			}
			if req.subsetOf(a.row(i), i) {
				return i
			}
		}
	}
	return -1
}

// Accept sends requester i to last place: it goes after everyone else.
func (a *Matrix) Accept(i int) {
	r := a.row(i)
	r.Reset()
	for j := 0; j < a.n; j++ {
		if j != i {
			a.row(j).Set(i)
		}
	}
}

// Grant picks and accepts the winner.
func (a *Matrix) Grant(req Bits) int {
	i := a.Pick(req)
	if i >= 0 {
		a.Accept(i)
	}
	return i
}

// Reset restores index order: i goes before j whenever i < j.
func (a *Matrix) Reset() {
	for i := 0; i < a.n; i++ {
		r := a.row(i)
		r.Reset()
		for j := i + 1; j < a.n; j++ {
			r.Set(j)
		}
	}
}
