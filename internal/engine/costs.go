package engine

import "github.com/pgbufsim/pgbufsim/internal/cost"

// CostModel is the simulated duration of each kind of work, in nanoseconds
// (package cost has the figures and their provenance).
type CostModel = cost.Model

// costsFor is the cost model of a cluster with settings s: the default one
// with its host work scaled by host_time_scale (cost.Model.Scaled).
func costsFor(s *Settings) CostModel { return cost.Default.Scaled(s.Real("host_time_scale")) }

// Costs returns the cost model the cluster runs on.
func (c *Cluster) Costs() *CostModel { return &c.costs }
