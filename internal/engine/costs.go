package engine

import "github.com/pgbufsim/pgbufsim/internal/cost"

// CostModel is the simulated duration of each kind of work, in nanoseconds
// (package cost has the figures and their provenance).
type CostModel = cost.Model

// costs is the model every cluster runs on.
var costs = cost.Default

// Costs returns the cost model every cluster runs on.
func Costs() CostModel { return costs }
