package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// mesh refuses counts and sizes that make no mesh, and meshes too large
// to build in memory, naming the flag, before it builds anything; its
// outputs are checked before the run as run's are.
func TestMeshRefusesNonsenseFlags(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("x", 300))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bursts", "-5"}, "--bursts -5: a number of bursts from 1 to 2147483647"},
		{[]string{"--bursts", "0"}, "--bursts 0: a number of bursts from 1 to 2147483647"},
		{[]string{"--burst-mean", "0"}, "--burst-mean 0: a number of flits from 1 to 1073741824"},
		{[]string{"--burst-mean", "4611686018427387904"}, "--burst-mean 4611686018427387904: a number of flits from 1 to 1073741824"},
		{[]string{"--gap-mean", "-1"}, "--gap-mean -1: a number of cycles from 1 to 1073741824"},
		{[]string{"--buffer", "0"}, "--buffer 0: a number of flits from 1 to 2147483647"},
		{[]string{"--width", "0"}, "--width 0: a number of routers from 1 to 65536"},
		{[]string{"--width", "100000", "--height", "100000"}, "--width 100000: a number of routers from 1 to 65536"},
		{[]string{"--width", "1000", "--height", "1000"}, "--width 1000 --height 1000: 1000000 routers; a mesh has at most 65536 (about 26 KB each)"},
		{[]string{"--width", "1", "--height", "1"}, "--width 1 --height 1: one router; a mesh has at least 2"},
		{[]string{"--stats-json", long}, "--stats-json " + long + ": file name too long"},
		{[]string{"--trace", long}, "--trace " + long + ": file name too long"},
	} {
		_, err := runCLI(t, append([]string{"mesh"}, c.args...)...)
		require.EqualError(t, err, c.want, "%v", c.args)
	}
}
