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
		{"exp1_permutation_dlb", "b7eaf484f6698c3b83c40d6365bb8090e033d3ddecd4db6c9011ab30251eeb89"},
		{"exp1_permutation_ecmp", "ce996e4ef3a06c6bc4822240e77db7b3be77700b1f7c54833123cb4f3fe97700"},
		{"exp1_permutation_spray", "644069677e106136a5baad2c1c6801efe84804726ac55443a97a75293e7de1a1"},
		{"exp2_incast_dcqcn", "2968368d0c9004cb09189dfd1bb707969cccbab01508c24d6d1a85e81213491c"},
		{"exp2_incast_eqds", "1df8003b4134b9d28df1e841e7f7ac28279f5db68d695554680fa1ccffdfbcff"},
		{"exp3_lossless_pfc_dcqcn", "196b86372db64701ea761d9c289a9c8d1774d282d1916eee6aab09b022275517"},
		{"exp3_lossy_trimming", "61b2d26e8e59fdf2a5c8b1e7efc33d429b3db7eac5e5a9fe2e9f93a879e76372"},
		{"exp4_degraded_pathaware", "a4303880c2dcd9ab30a4528b40255416b5fa6ae7747b13e0a26b8d9975f0f956"},
		{"exp4_degraded_pathaware_roce", "7af329490b253657039aafbf097ef23b5484b195fcdebd7d9fb3b7ae3824f95f"},
		{"exp4_degraded_spray", "7d6e004da6e17cee277f64308da8d943c2e0725160a182d1ab41fdf946275f45"},
		{"exp4_degraded_spray_roce", "3252d14161bc36e2a0f2b0e57c284ae7d9cc3dde9a399a60db0656ea30f72347"},
	}
	for _, p := range pinned {
		t.Run(p.name, func(t *testing.T) {
			res := runFile(t, "../docs/scenarios/"+p.name+".yaml")
			require.Equal(t, p.digest, resultsDigest(t, res), "the results of %s changed", p.name)
		})
	}
}
