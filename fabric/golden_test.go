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

// runFile runs a scenario file to completion as `fabricmodel run` does.
func runFile(t *testing.T, file string) *Results {
	s, err := LoadScenario(file)
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	return r.Results()
}

// The experiments of docs/experiments.md give, figure for figure, the
// results written there: their JSON is pinned. Speed work must leave it
// as it is. A change of the model that moves a result on purpose updates
// docs/experiments.md and these digests, from
// `fabricmodel run --json F docs/scenarios/NAME.yaml; sha256sum F`.
func TestExperimentResultsArePinned(t *testing.T) {
	pinned := []struct{ name, digest string }{
		{"exp1_permutation_dlb", "f2ffbc92b2b0776088befc45e36283b7f90f1ecb9011adc757da110f234786d8"},
		{"exp1_permutation_ecmp", "72fe30aef6d34918f70127043f660eb8903550a4fd1be458da7bb47471fec8fe"},
		{"exp1_permutation_spray", "8e87da825408427040c24c163a428a8a13476797b0a3dd199b524d2ba2b2bdc9"},
		{"exp2_incast_dcqcn", "2968368d0c9004cb09189dfd1bb707969cccbab01508c24d6d1a85e81213491c"},
		{"exp2_incast_eqds", "1df8003b4134b9d28df1e841e7f7ac28279f5db68d695554680fa1ccffdfbcff"},
		{"exp3_lossless_pfc_dcqcn", "d0c7ba1914774d183c0f1015ee751c49329a02e14b46f72e90db03e7f0d446e2"},
		{"exp3_lossy_trimming", "d15e99949e478c7e0cffca8ed75dbf95a62ad27310e64921abaebb0f35f5bb4c"},
		{"exp4_degraded_pathaware", "1a15bff09d706e13017b0c5cffae09257ac8b6fce572a51fdb0a4b9774aa7b33"},
		{"exp4_degraded_pathaware_roce", "a5a91f3e473ab993502b0f4e6b99d2c8e267399f78a2409d0ce0215ed84a95eb"},
		{"exp4_degraded_spray", "2fb41f062392c957ab94e4895b53c64f2a8f43bedf2e08c60e99320232919ece"},
		{"exp4_degraded_spray_roce", "61316ae7f9aab9c7903001a987ea3692c3aa11c22a69be5cc6f159eae3e9f150"},
	}
	for _, p := range pinned {
		t.Run(p.name, func(t *testing.T) {
			res := runFile(t, "../docs/scenarios/"+p.name+".yaml")
			require.Equal(t, p.digest, resultsDigest(t, res), "the results of %s changed", p.name)
		})
	}
}
