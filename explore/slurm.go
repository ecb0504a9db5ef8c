package explore

import (
	"fmt"
	"io"
	"strings"
)

// SlurmJob describes an sbatch array job that runs a sweep in shards.
type SlurmJob struct {
	// Binary is the fabricmodel executable the tasks run (an absolute
	// path every node can reach).
	Binary string
	// SweepFile is the sweep file (absolute path).
	SweepFile string
	// Dir is the output directory the tasks write result files to.
	Dir string
	// Shards is the number of array tasks; task i runs shard i/Shards.
	Shards int
	// Workers is each task's worker count and CPUs per task.
	Workers int
	// JobName names the job (default: fabricmodel-explore).
	JobName string
	// Partition, Time and Extra are passed on as #SBATCH lines when set
	// (Extra: whole option strings such as "--mem=4G").
	Partition, Time string
	Extra           []string
}

// WriteSlurmScript writes the sbatch script: an array 0..Shards-1 whose
// task i runs `explore run --shard i/Shards` into the shared output
// directory. Result files are written atomically, so tasks never see each
// other's half-written files, and a resubmitted job skips finished points.
func WriteSlurmScript(w io.Writer, j SlurmJob) error {
	if j.Shards < 1 {
		return fmt.Errorf("slurm: want at least one shard")
	}
	if j.Binary == "" || j.SweepFile == "" || j.Dir == "" {
		return fmt.Errorf("slurm: binary, sweep file and output directory are needed")
	}
	workers := max(j.Workers, 1)
	name := j.JobName
	if name == "" {
		name = "fabricmodel-explore"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", name)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Shards-1)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n")
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", workers)
	fmt.Fprintf(&b, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", j.Dir)
	if j.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", j.Partition)
	}
	if j.Time != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", j.Time)
	}
	for _, x := range j.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", x)
	}
	fmt.Fprintf(&b, "set -euo pipefail\n")
	fmt.Fprintf(&b, "exec %s explore run --out %s --workers %d --shard \"${SLURM_ARRAY_TASK_ID}/%d\" %s\n",
		shellQuote(j.Binary), shellQuote(j.Dir), workers, j.Shards, shellQuote(j.SweepFile))
	_, err := io.WriteString(w, b.String())
	return err
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-=+:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}
