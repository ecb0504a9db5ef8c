package explore

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// slurmSweep is a 12-point incast sweep on the cycle model.
const slurmSweep = `name: slurm-incast
evaluator: incast
seed: 42
base: {senders: 4, bytes: 65536}
design: {kind: grid}
parameters:
  - {name: switch.buffer_bytes, values: ['4000000', '16000000', '64000000']}
  - {name: ecn.kmin_bytes, min: 20000, max: 1600000, steps: 4, scale: log, integer: true}
metrics: [throughput_gbps, peak_buffer_bytes, fct_p50_us, fct_p99_us]
`

// The same sweep run as a SLURM array job (four tasks, one shard each)
// and run locally merges to byte-identical CSV and JSON. Under CI=true a
// SLURM that cannot be brought up fails the test; elsewhere the test
// skips when sbatch is not installed.
func TestSweepAsSlurmArrayJobEqualsLocalRun(t *testing.T) {
	ci := os.Getenv("CI") == "true"
	if _, err := exec.LookPath("sbatch"); err != nil && !ci {
		t.Skip("SKIPPED: sbatch not installed; run scripts/slurm-local.sh start as root (or scripts/install-test-deps.sh) to run the SLURM array-job test")
	}
	start := time.Now()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	script := filepath.Join(root, "scripts", "slurm-local.sh")
	up := exec.Command("bash", script, "start")
	var upErr bytes.Buffer
	up.Stdout, up.Stderr = &upErr, &upErr
	if err := up.Run(); err != nil {
		t.Fatalf("single-node SLURM did not come up (%v):\n%s", err, upErr.String())
	}
	if !strings.Contains(upErr.String(), "already running") {
		t.Cleanup(func() {
			out, err := exec.Command("bash", script, "stop").CombinedOutput()
			t.Logf("slurm-local stop: %v %s", err, out)
		})
	}
	t.Logf("SLURM up in %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(upErr.String()))

	// The shared directory the tasks write to: a temporary directory on
	// this node, reachable by its tasks. Its name has a space, quotes, $, #
	// and %, which the script must quote for sbatch and for the shell.
	work := filepath.Join(t.TempDir(), `shared dir $HOME 'q' #1 %x`)
	require.NoError(t, os.MkdirAll(work, 0o755))
	bin := filepath.Join(work, "fabricmodel")
	build := exec.Command("go", "build", "-o", bin, "./cmd/fabricmodel")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sweep := filepath.Join(work, "sweep.yaml")
	require.NoError(t, os.WriteFile(sweep, []byte(slurmSweep), 0o644))
	s, err := LoadSweep(sweep)
	require.NoError(t, err)
	pts, err := s.Points()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(pts), 8)

	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).CombinedOutput()
		require.NoError(t, err, "fabricmodel %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	slurmDir := filepath.Join(work, "slurm")
	out := run("explore", "slurm", "--out", slurmDir, "--shards", "4", "--workers", "1",
		"--binary", bin, "--time", "00:05:00", "--submit", sweep)
	job := ""
	for _, l := range strings.Split(out, "\n") {
		if id, ok := strings.CutPrefix(l, "submitted job "); ok {
			job = strings.TrimSpace(strings.Split(id, ";")[0])
		}
	}
	require.NotEmpty(t, job, out)
	t.Logf("submitted array job %s (4 tasks, %d points)", job, len(pts))

	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	for {
		q, err := exec.CommandContext(ctx, "squeue", "-h", "-j", job, "-o", "%i %T").CombinedOutput()
		if err == nil && strings.TrimSpace(string(q)) == "" || err != nil && strings.Contains(string(q), "Invalid job id") {
			break
		}
		if ctx.Err() != nil {
			logs, _ := filepath.Glob(filepath.Join(slurmDir, "slurm-*.out"))
			t.Fatalf("array job %s still queued after 150 s: %s (logs %v)", job, q, logs)
		}
		time.Sleep(500 * time.Millisecond)
	}
	logs, _ := filepath.Glob(filepath.Join(slurmDir, "slurm-*.out"))
	require.Len(t, logs, 4, "one log per array task")
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		require.Contains(t, string(data), "0 failed", "%s:\n%s", l, data)
	}

	run("explore", "merge", "--out", slurmDir, sweep)
	localDir := filepath.Join(work, "local")
	run("explore", "run", "--out", localDir, sweep)
	run("explore", "merge", "--out", localDir, sweep)
	for _, f := range []string{"results.csv", "results.json"} {
		a, err := os.ReadFile(filepath.Join(slurmDir, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(localDir, f))
		require.NoError(t, err)
		require.Equal(t, string(b), string(a), "%s from the array job differs from the local run", f)
	}
	t.Logf("array job and local run merged to identical results.csv and results.json (%d points) in %v",
		len(pts), time.Since(start).Round(time.Millisecond))
}
