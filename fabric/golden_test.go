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
		{"exp1_permutation_dlb", "b3faca953c6d2568d76a759bac963066d506d4c73b5b742a41f0c07eb5323350"},
		{"exp1_permutation_ecmp", "489b1ef29736a175fc831e4a2762cc599fbde70254ba9555c1ee0afa82754f45"},
		{"exp1_permutation_spray", "5d6f8ced0c5ba19d2c15a722b066b32c3dd5fab64f51751bea2c3599cfa78f0f"},
		{"exp2_incast_dcqcn", "210ab860df9bbd8df0e93d445bb8375b0f294bbd5d062aa18c366896f450be0a"},
		{"exp2_incast_eqds", "5ff39d0d6a469b6adf85b8dee1e22d10cd47ce7f04095bac05b4420c9e37e98d"},
		{"exp3_lossless_pfc_dcqcn", "6521add64866d5c1fab75db567a5539ea1e7d5deba75cbb6018ab07200de7463"},
		{"exp3_lossy_trimming", "21052e218142cf003b3eea829a687146506ecc0a229399b66f2b36a8da87d8bf"},
		{"exp4_degraded_pathaware", "9533b98744cba475fa5cda7fa1a821dbfb807ab251093c9c7834ed976dda5dea"},
		{"exp4_degraded_pathaware_roce", "1fbbe25ccf0887b2fea2d383af4797120578e285100c71ed60957e232122638a"},
		{"exp4_degraded_spray", "0a0506aae41a21b511bd8d6151d0de37eee34e42d783bba840b0f1ea74763440"},
		{"exp4_degraded_spray_roce", "a5c95fcc156ff408f91b54688079f7274f249fd3a92f1d1b9d6cbf6218a4fc0c"},
	}
	for _, p := range pinned {
		t.Run(p.name, func(t *testing.T) {
			res := runFile(t, "../docs/scenarios/"+p.name+".yaml")
			require.Equal(t, p.digest, resultsDigest(t, res), "the results of %s changed", p.name)
		})
	}
}
