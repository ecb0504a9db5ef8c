package rtlmodel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Partitions and clock domains are found by name: a second Partition of
// a name goes back to that partition, the empty first partition takes
// the first name given, and a domain's name may be registered once.
func TestPartitionAndDomainNames(t *testing.T) {
	e := NewEngine(Options{})
	require.NoError(t, e.Partition("a")) // the empty first partition, renamed
	da, err := e.AddDomain("a/core", 1000, 0)
	require.NoError(t, err)
	require.Equal(t, 1, e.Partitions())
	require.NoError(t, e.Partition("b"))
	db, err := e.AddDomain("b/core", 1000, 0)
	require.NoError(t, err)
	require.NoError(t, e.Partition("a"))
	da2, err := e.AddDomain("a/io", 1000, 0)
	require.NoError(t, err)
	require.Equal(t, 2, e.Partitions())
	require.Same(t, da.clk.part, da2.clk.part, "a's second domain joined a")
	require.NotSame(t, da.clk.part, db.clk.part)
	require.NoError(t, e.Partition("main")) // the first partition's old name names nothing now
	require.Equal(t, 3, e.Partitions())

	_, err = e.AddDomain("b/core", 500, 0)
	require.EqualError(t, err, `clock domain "b/core" registered twice`)
}
