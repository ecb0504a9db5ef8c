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

// check rejects what cannot be written into the script safely: a value
// with a newline or another control character would end its #SBATCH line
// and start a line of shell.
func (j SlurmJob) check() error {
	if j.Shards < 1 {
		return fmt.Errorf("slurm: want at least one shard")
	}
	if j.Binary == "" || j.SweepFile == "" || j.Dir == "" {
		return fmt.Errorf("slurm: binary, sweep file and output directory are needed")
	}
	for _, v := range []struct{ what, value string }{
		{"binary", j.Binary}, {"sweep file", j.SweepFile}, {"output directory", j.Dir},
		{"job name", j.JobName}, {"partition", j.Partition}, {"time", j.Time},
	} {
		if err := CheckSlurmValue(v.value); err != nil {
			return fmt.Errorf("slurm: %s %q: %w", v.what, v.value, err)
		}
	}
	if strings.Contains(j.Dir, `\`) {
		return fmt.Errorf("slurm: output directory %q: a backslash turns off SLURM's %%A and %%a in the task log names", j.Dir)
	}
	for _, x := range j.Extra {
		if err := CheckSlurmOption(x); err != nil {
			return fmt.Errorf("slurm: #SBATCH option %q: %w", x, err)
		}
	}
	return nil
}

// CheckSlurmValue reports whether s can be written into an sbatch script:
// no newline, carriage return or other control character, which would end
// an #SBATCH line and run the rest as shell.
func CheckSlurmValue(s string) error {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("holds the control character %q, which cannot be written into an #SBATCH line", r)
		}
	}
	return nil
}

// CheckSlurmOption checks an option written whole into an #SBATCH line
// ("--mem=4G"): a value CheckSlurmValue accepts that starts with "-".
func CheckSlurmOption(s string) error {
	if err := CheckSlurmValue(s); err != nil {
		return err
	}
	if !strings.HasPrefix(strings.TrimSpace(s), "-") {
		return fmt.Errorf("want an sbatch option such as --mem=4G")
	}
	return nil
}

// WriteSlurmScript writes the sbatch script: an array 0..Shards-1 whose
// task i runs `explore run --shard i/Shards` into the shared output
// directory. Result files are written atomically, so tasks never see each
// other's half-written files, and a resubmitted job skips finished points.
// Values go into #SBATCH lines quoted as sbatch reads them and into the
// shell command quoted for the shell; values with control characters are
// refused.
func WriteSlurmScript(w io.Writer, j SlurmJob) error {
	if err := j.check(); err != nil {
		return err
	}
	workers := max(j.Workers, 1)
	name := j.JobName
	if name == "" {
		name = "fabricmodel-explore"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", sbatchQuote(name))
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Shards-1)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n")
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", workers)
	// %A and %a are SLURM's job and task ids; a % of the directory is %%.
	logs := strings.ReplaceAll(j.Dir, "%", "%%") + "/slurm-%A_%a.out"
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", sbatchQuote(logs))
	if j.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", sbatchQuote(j.Partition))
	}
	if j.Time != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", sbatchQuote(j.Time))
	}
	for _, x := range j.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", strings.TrimSpace(x))
	}
	fmt.Fprintf(&b, "set -euo pipefail\n")
	fmt.Fprintf(&b, "exec %s explore run --out %s --workers %d --shard \"${SLURM_ARRAY_TASK_ID}/%d\" %s\n",
		shellQuote(j.Binary), shellQuote(j.Dir), workers, j.Shards, shellQuote(j.SweepFile))
	_, err := io.WriteString(w, b.String())
	return err
}

// safeWord holds the characters a word needs no quotes for, in the shell
// and in an #SBATCH line alike.
const safeWord = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-=+:,@%"

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, safeWord) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// sbatchQuote quotes s as sbatch reads the words of an #SBATCH line: in
// double quotes, with a backslash before \, ", ' and # (sbatch ends the
// line's options at an unescaped #, in quotes too in older releases).
func sbatchQuote(s string) string {
	if s != "" && strings.Trim(s, safeWord) == "" {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, `'`, `\'`, `#`, `\#`).Replace(s) + `"`
}
