package explore

import (
	"bytes"
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
