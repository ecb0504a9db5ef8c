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

// Pick returns the requester that goes before every other requester, or
// -1. Starting from the first requester, it jumps to a requester that goes
// before the current one until none does; the order is total, so that
// ends at the winner, after a few jumps on average.
func (a *Matrix) Pick(req Bits) int {
	c := req.first(0, a.n)
	if c < 0 {
		return -1
	}
	for {
		row := a.beats[c*a.words : (c+1)*a.words]
		next := -1
		for wi, w := range req[:a.words] {
			// requesters c does not go before, other than c itself
			w &^= row[wi]
			if wi == c>>6 {
				w &^= 1 << uint(c&63)
			}
			if w != 0 {
				next = wi<<6 + trailingZeros(w)
				break
			}
		}
		if next < 0 || next >= a.n {
			return c
		}
		c = next
	}
}

// Accept sends requester i to last place: it goes after everyone else.
func (a *Matrix) Accept(i int) {
	clear(a.beats[i*a.words : (i+1)*a.words])
	col, bit := i>>6, uint64(1)<<uint(i&63)
	for j := 0; j < a.n; j++ {
		a.beats[j*a.words+col] |= bit
	}
	a.beats[i*a.words+col] &^= bit
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
