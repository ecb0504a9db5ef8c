package packet

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each maker counts its own descriptors from 1, whatever the others take
// from the shared pool in between, and its IDs render as owner.count;
// the pool's own IDs render as before.
func TestDescIDsCountPerOwner(t *testing.T) {
	var pl DescPool
	a, b := NewDescIDs(7), NewDescIDs(1<<24-1)
	var zero DescIDs
	got := []string{}
	for i := 0; i < 3; i++ {
		for _, ids := range []*DescIDs{&a, &b, &zero} {
			d := ids.Number(pl.Get())
			got = append(got, strings.Fields(d.String())[0])
			pl.Put(d)
		}
	}
	require.Equal(t, []string{
		"#7.1", "#16777215.1", "#3",
		"#7.2", "#16777215.2", "#6",
		"#7.3", "#16777215.3", "#9",
	}, got)
	// only the low 24 bits name the owner
	c := NewDescIDs(1<<24 + 5)
	require.Equal(t, "#5.1", strings.Fields(c.Number(pl.Get()).String())[0])
}
