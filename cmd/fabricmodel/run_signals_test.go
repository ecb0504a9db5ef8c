package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The first interrupt cancels the run's context; a second ends the
// process at once with status 130, as a shell reports a process SIGINT
// killed, even when the process began with SIGINT ignored, as a job a
// shell starts in the background does. The test runs itself as such a
// job, which sends its own process the two signals.
func TestRunSecondInterruptEndsTheProcess(t *testing.T) {
	if os.Getenv("FABRICMODEL_SIGNAL_TEST") != "" {
		ctx, stop := interruptContext(context.Background(), os.Stdout)
		defer stop()
		require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
		<-ctx.Done()
		os.Stdout.WriteString("first interrupt taken\n")
		require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
		time.Sleep(time.Minute) // the process ends before
		return
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to start the test as a background job")
	}
	// a shell without job control starts a background job with SIGINT
	// ignored
	cmd := exec.Command(sh, "-c", `"$0" -test.run='^TestRunSecondInterruptEndsTheProcess$' & wait $!`, os.Args[0])
	cmd.Env = append(os.Environ(), "FABRICMODEL_SIGNAL_TEST=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v: %s", err, out)
	require.Equal(t, 130, exit.ExitCode(), "%s", out)
	require.Equal(t, "first interrupt taken\nfabricmodel: a second signal (interrupt): ending at once, without the results\n", string(out))
}
