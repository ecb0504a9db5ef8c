package fabric

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// resultsDigest is the SHA-256 of the results as `fabricmodel run --json`
// writes them, so that a test can pin a run's every figure to the output
// of that command (`sha256sum` of its file).
func resultsDigest(t *testing.T, res *Results) string {
	b, err := json.MarshalIndent(res, "", " ")
	require.NoError(t, err)
	sum := sha256.Sum256(append(b, '\n'))
	return hex.EncodeToString(sum[:])
}

// completeRun builds s and runs it to completion in 10 us steps, as
// `fabricmodel run` does.
func completeRun(t *testing.T, s *Scenario) *Run {
	t.Helper()
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	return r
}

// runFile runs a scenario file to completion as `fabricmodel run` does.
func runFile(t *testing.T, file string) *Results {
	t.Helper()
	s, err := LoadScenario(file)
	require.NoError(t, err)
	return completeRun(t, s).Results()
}

// completeScenario parses a scenario from its YAML and runs it to
// completion.
func completeScenario(t *testing.T, name, yaml string) *Run {
	t.Helper()
	s, err := ParseScenario(name, []byte(yaml))
	require.NoError(t, err)
	return completeRun(t, s)
}

// The experiments of docs/experiments.md give, figure for figure, the
// results written there: their JSON is pinned. Speed work must leave it
// as it is. A change of the model that moves a result on purpose updates
// docs/experiments.md and these digests, from
// `fabricmodel run --json F docs/scenarios/NAME.yaml; sha256sum F`.
func TestExperimentResultsArePinned(t *testing.T) {
	pinned := []struct{ name, digest string }{
		{"exp1_permutation_dlb", "9fe23d672719eaade74d9fa9b958467e3e65dfa5fa0516b01a3809591f43a912"},
		{"exp1_permutation_ecmp", "106d29a4a34d3c5b8a6c772352200f20e98cfaf9a9faf7b4a61014eed3ca51aa"},
		{"exp1_permutation_spray", "ce40268ceca117c39ff95856f4ebf3b8d0b01a594dfdc01844eeef721c5b8ac6"},
		{"exp2_incast_dcqcn", "28d41636a9c71f230a9bfd8c3c144ae63dc2aeaa1a0fbef8d9e6de431d6d092c"},
		{"exp2_incast_eqds", "c8b8ca3391e3b8f249106728820cf4ab86d001e1be21f94db04af1e2c1ded749"},
		{"exp3_lossless_pfc_dcqcn", "daa5296076aec70d3d5740150bd318d760c30be9bb0f90a8ca72e5728ea2f9b8"},
		{"exp3_lossy_trimming", "dfd49cd7203e4aa282d3583c4098c14959f535a9c8d00acbf3167a0bc9582235"},
		{"exp4_degraded_pathaware", "bda28f8483aea4173bc9249512aa321fe9a6e203e33d8b8ffad3c26b4561bdd5"},
		{"exp4_degraded_pathaware_roce", "3e0ec9d01f36fc89eedaff9fcce3fba0b998b199f234b0d03da14acc67cfe7f2"},
		{"exp4_degraded_spray", "2cbf95b57166e392efa3559b34092a64585787c53396be90c9a52dd2e2aa5b9c"},
		{"exp4_degraded_spray_roce", "fb6f476bd4dac979dfc8e2926781d2e9b6e725a6b734ba2d0970df485ed74e4e"},
	}
	for _, p := range pinned {
		t.Run(p.name, func(t *testing.T) {
			res := runFile(t, "../docs/scenarios/"+p.name+".yaml")
			require.Equal(t, p.digest, resultsDigest(t, res), "the results of %s changed", p.name)
		})
	}
}
