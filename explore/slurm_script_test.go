package explore

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlurmScriptMapsArrayTasksToShards(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteSlurmScript(&b, SlurmJob{Binary: "/opt/fm bin/fabricmodel", SweepFile: "/s/sweep.yaml",
		Dir: "/s/out", Shards: 8, Workers: 2, Partition: "batch", Time: "01:00:00", Extra: []string{"--mem=2G"}}))
	s := b.String()
	for _, want := range []string{
		"#!/bin/bash\n",
		"#SBATCH --array=0-7\n",
		"#SBATCH --cpus-per-task=2\n",
		"#SBATCH --partition=batch\n",
		"#SBATCH --time=01:00:00\n",
		"#SBATCH --mem=2G\n",
		"#SBATCH --output=/s/out/slurm-%A_%a.out\n",
		`exec '/opt/fm bin/fabricmodel' explore run --out /s/out --workers 2 --shard "${SLURM_ARRAY_TASK_ID}/8" /s/sweep.yaml`,
	} {
		assert.Contains(t, s, want)
	}
	assert.Error(t, WriteSlurmScript(&b, SlurmJob{Binary: "x", SweepFile: "y", Dir: "z"}))
	assert.Error(t, WriteSlurmScript(&b, SlurmJob{Shards: 2}))
}

// A value with a newline (or another control character) would end its
// #SBATCH line and run the rest as a shell command: it is refused, and
// nothing is written.
func TestSlurmScriptRefusesValuesThatWouldInjectLines(t *testing.T) {
	ok := SlurmJob{Binary: "/b/fabricmodel", SweepFile: "/s/sweep.yaml", Dir: "/s/out", Shards: 2}
	inject := "a\nrm -rf /tmp/should_not"
	for name, edit := range map[string]func(j *SlurmJob){
		"partition":   func(j *SlurmJob) { j.Partition = inject },
		"time":        func(j *SlurmJob) { j.Time = "1:00\r\nrm -rf /" },
		"job name":    func(j *SlurmJob) { j.JobName = inject },
		"extra":       func(j *SlurmJob) { j.Extra = []string{"--mem=1G\nrm -rf /"} },
		"extra nul":   func(j *SlurmJob) { j.Extra = []string{"--mem=1G\x00"} },
		"extra shell": func(j *SlurmJob) { j.Extra = []string{"rm -rf /"} },
		"dir":         func(j *SlurmJob) { j.Dir = "/s/out\nrm -rf /" },
		"binary":      func(j *SlurmJob) { j.Binary = "/b/x\x1b[2J" },
		"sweep":       func(j *SlurmJob) { j.SweepFile = "/s/\tx\n.yaml" },
	} {
		j := ok
		edit(&j)
		var b bytes.Buffer
		err := WriteSlurmScript(&b, j)
		require.Error(t, err, name)
		assert.Empty(t, b.String(), name)
	}
	var b bytes.Buffer
	err := WriteSlurmScript(&b, SlurmJob{Binary: "/b", SweepFile: "/s", Dir: "/o", Shards: 1, Partition: inject})
	require.ErrorContains(t, err, `partition "a\nrm -rf /tmp/should_not": holds the control character '\n'`)
}

// Paths and values with spaces, quotes, $, # and % reach the shell and
// sbatch as they are: the script's command runs the binary with exactly
// the intended arguments, and each #SBATCH line reads back, by sbatch's
// rules, as the intended option.
func TestSlurmScriptQuotesPathsForShellAndSbatch(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("SKIPPED: no bash to run the script with")
	}
	dir := filepath.Join(t.TempDir(), `shared dir $HOME 'q' "d" #1 %x $(touch pwned) `+"`id`")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	args := filepath.Join(dir, "args")
	bin := filepath.Join(dir, "fabric model")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$ARGS_FILE\"\n"), 0o755))
	j := SlurmJob{Binary: bin, SweepFile: filepath.Join(dir, "my sweep.yaml"), Dir: dir, Shards: 4, Workers: 2,
		JobName: "it's #1", Partition: `p "x" y`, Time: "1:00:00", Extra: []string{"--mem=2G"}}
	var b bytes.Buffer
	require.NoError(t, WriteSlurmScript(&b, j))
	script := b.String()

	var options []string
	header := true
	for _, l := range strings.Split(strings.TrimSuffix(script, "\n"), "\n")[1:] {
		if !strings.HasPrefix(l, "#") {
			header = false
			continue
		}
		require.True(t, header, "an #SBATCH line after the shell began: %q", l)
		rest, ok := strings.CutPrefix(l, "#SBATCH ")
		require.True(t, ok, "%q is not an #SBATCH line", l)
		options = append(options, sbatchWords(t, rest)...)
	}
	assert.Equal(t, []string{
		"--job-name=it's #1",
		"--array=0-3",
		"--ntasks=1",
		"--cpus-per-task=2",
		"--output=" + strings.ReplaceAll(dir, "%", "%%") + "/slurm-%A_%a.out",
		`--partition=p "x" y`,
		"--time=1:00:00",
		"--mem=2G",
	}, options)

	path := filepath.Join(t.TempDir(), "job.sh")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	cmd := exec.Command(bash, path)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=3", "ARGS_FILE="+args)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := os.ReadFile(args)
	require.NoError(t, err)
	assert.Equal(t, []string{"explore", "run", "--out", dir, "--workers", "2", "--shard", "3/4", j.SweepFile},
		strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"))
	_, err = os.Stat(filepath.Join(cmd.Dir, "pwned"))
	assert.True(t, os.IsNotExist(err), "a command substitution in a path ran")
}

// sbatchWords splits the rest of an #SBATCH line into words as sbatch
// does (src/sbatch/opt.c, _get_argument): a backslash escapes the next
// character, ' or " quote up to the same quote, an unescaped # outside
// quotes ends the line, whitespace separates words.
func sbatchWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord, escaped := false, false
	var quote rune
	for _, r := range line {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped, inWord = true, true
			continue
		case quote != 0:
			if r == quote {
				quote = 0
				continue
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
			continue
		case r == '#':
			require.Failf(t, "comment", "an unescaped # cuts %q", line)
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		}
		w.WriteRune(r)
		inWord = true
	}
	require.Zero(t, quote, "unmatched quote in %q", line)
	if inWord {
		words = append(words, w.String())
	}
	return words
}
