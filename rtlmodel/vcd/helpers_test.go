package vcd

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// trace reads a whole VCD and renders every event as one line, a change as
// "@time name=value" using the first name of the signal.
func trace(t testing.TB, r io.Reader) (*Header, []string) {
	t.Helper()
	rd, err := NewReader(r)
	require.NoError(t, err)
	var out []string
	for ev, err := range rd.All() {
		require.NoError(t, err)
		switch ev.Kind {
		case EventChange:
			out = append(out, fmt.Sprintf("@%d %s=%s", ev.Time, ev.Signal.Vars[0].FullName(), ev.Value))
		case EventTime:
			out = append(out, fmt.Sprintf("#%d", ev.Time))
		case EventComment:
			out = append(out, "comment "+ev.Text)
		default:
			out = append(out, ev.Kind.String())
		}
	}
	return rd.Header(), out
}

func traceFile(t testing.TB, path string) (*Header, []string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	return trace(t, f)
}

func traceString(t testing.TB, s string) (*Header, []string) {
	t.Helper()
	return trace(t, strings.NewReader(s))
}

// ciRequires fails the test under CI=true when a tool is missing and skips
// it loudly otherwise.
func ciRequires(t *testing.T, err error, tool, pkg string) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is required under CI=true but was not found (apt-get install -y %s): %v", tool, pkg, err)
	}
	t.Skipf("SKIPPED: %s not found (apt-get install -y %s); this test FAILS under CI=true", tool, pkg)
}
