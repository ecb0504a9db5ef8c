package rtlmodel

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A prefetch reads nothing and cannot fault: nil, an address past the end
// of an object and one that is no object at all are all fine, and the
// memory prefetched is unchanged.
func TestPrefetchIsAHintOnly(t *testing.T) {
	b := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	Prefetch(nil)
	Prefetch(unsafe.Pointer(&b[0]))
	PrefetchLines(unsafe.Pointer(&b[0]), unsafe.Sizeof(b[0])*uintptr(len(b)))
	prefetch(unsafe.Add(unsafe.Pointer(&b[0]), 1<<40)) // no mapping there
	require.Equal(t, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}, b)
}
