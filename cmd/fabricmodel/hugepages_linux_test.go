package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The heap is marked for huge pages, at least the gigabyte mapped ahead,
// and where the system's setting lets a process ask for them (madvise or
// always), memory the model then allocates and touches comes in huge
// pages: the process's AnonHugePages grow by most of a 64 MB block. It
// runs in a process of its own, as the CLI does: one run per process,
// marking before it builds anything.
func TestHeapMarkedForHugePages(t *testing.T) {
	setting, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Skip("no transparent huge pages in this kernel")
	}
	if os.Getenv("FABRICMODEL_HUGEPAGES_TEST") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHeapMarkedForHugePages$", "-test.v")
		cmd.Env = append(os.Environ(), "FABRICMODEL_HUGEPAGES_TEST=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: TestHeapMarkedForHugePages")
		return
	}
	marked, err := preferHugePages()
	require.NoError(t, err)
	require.GreaterOrEqual(t, marked, uint64(heapAhead))
	if strings.Contains(string(setting), "[never]") {
		t.Skip("transparent huge pages are off on this system")
	}
	before := anonHugePages(t)
	block := make([]byte, 64<<20)
	for i := range block {
		if i%4096 == 0 {
			block[i] = 1
		}
	}
	require.Greater(t, anonHugePages(t)-before, int64(32<<20), "a touched 64 MB block in huge pages")
	block[0] = 0
}

// anonHugePages is the process's anonymous memory in huge pages, in bytes.
func anonHugePages(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	require.NoError(t, err)
	m := regexp.MustCompile(`AnonHugePages:\s+(\d+) kB`).FindSubmatch(b)
	require.NotNil(t, m)
	kb, err := strconv.ParseInt(string(m[1]), 10, 64)
	require.NoError(t, err)
	return kb << 10
}
