package engine

import "github.com/pgbufsim/pgbufsim/internal/engine/report"

// StmtResult is what EXPLAIN (ANALYZE, BUFFERS, WAL) reports for one statement (package report).
type StmtResult = report.StmtResult
