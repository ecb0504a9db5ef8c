package packet

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// descBytes views a descriptor as its bytes.
func descBytes(d *Desc) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(d)), unsafe.Sizeof(*d))
}

// A descriptor that comes back out of the pool is all zero but for its ID,
// however it was filled, as long as it kept what Get relies on: the header
// bytes after HdrLen zero, and a written tail marked by EditTail.
func TestGetClearsEveryFieldItMayFind(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var pl DescPool
	for i := 0; i < 200; i++ {
		d := pl.Get()
		b := descBytes(d)
		for j := range b[:unsafe.Offsetof(d.tail)] {
			b[j] = byte(rng.Uint32())
		}
		d.HdrLen = uint8(rng.IntN(HeaderCap + 1))
		clear(d.Hdr[d.HdrLen:])
		d.tailUsed = false
		if i%2 == 0 {
			tl := d.EditTail()
			tb := unsafe.Slice((*byte)(unsafe.Pointer(tl)), unsafe.Sizeof(*tl))
			for j := range tb {
				tb[j] = byte(rng.Uint32())
			}
		}
		tails, err := pl.Audit()
		require.NoError(t, err)
		require.Equal(t, 0, tails, "the descriptor is out of the pool")
		pl.Put(d)
		tails, err = pl.Audit()
		require.NoError(t, err)
		require.Equal(t, 1-i%2, tails)
		got := pl.Get()
		require.Same(t, d, got, "the pool hands out the descriptor it got last")
		id := got.ID
		got.ID = 0
		require.Equal(t, Desc{}, *got, "round %d", i)
		got.ID = id
		pl.Put(got)
	}
}

// Audit finds a tail written without EditTail and header bytes left past
// HdrLen, the two things Get does not clear.
func TestAuditFindsWhatGetWouldLeave(t *testing.T) {
	var pl DescPool
	d := pl.Get()
	d.Tail().SACK = 1
	pl.Put(d)
	_, err := pl.Audit()
	require.ErrorContains(t, err, "without EditTail")
	d = pl.Get()
	d.EditTail().SACK = 1
	d.HdrLen = 10
	d.Hdr[12] = 1
	pl.Put(d)
	_, err = pl.Audit()
	require.ErrorContains(t, err, "header byte 12")
}
