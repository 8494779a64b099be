package catalog

// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL 15.18 (Debian 15.18-0+deb12u1): per kind of session,
// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first
// session's), with the records' lengths: with the image, the hint image and the plain record.
var prunes15 = map[Kind][]Prune{
	Analyze:             {{"pg_proc/44", 7443, 8105, 58}},
	Buffercache:         {{"pg_proc/12", 7879, 8085, 56}, {"pg_proc/17", 7671, 7909, 58}},
	Checkpoint:          {{"pg_proc/44", 7443, 8105, 58}},
	Copy:                {{"pg_proc/18", 7819, 8161, 56}, {"pg_proc/44", 7443, 8105, 58}},
	First:               {},
	Index:               {{"pg_proc/18", 7819, 8161, 56}, {"pg_proc/44", 7443, 8105, 58}},
	Insert:              {{"pg_proc/18", 7819, 8161, 56}},
	PgbenchReading:      {{"pg_proc/12", 7879, 8085, 56}, {"pg_proc/17", 7671, 7909, 58}, {"pg_proc/31", 7483, 7857, 56}, {"pg_proc/38", 7859, 8233, 56}},
	PgbenchSelectOnly:   {},
	PgbenchSetup:        {{"pg_proc/20", 7843, 8137, 56}},
	PgbenchSimpleUpdate: {{"pg_proc/42", 7579, 7977, 56}},
	PgbenchTPCB:         {{"pg_proc/42", 7579, 7977, 56}},
	Scan:                {{"pg_proc/17", 7671, 7909, 58}},
	Scan1w:              {{"pg_proc/17", 7671, 7909, 58}},
	Session:             {{"pg_proc/44", 7443, 8105, 58}},
	Set:                 {},
	StatBgwriter:        {{"pg_proc/44", 7443, 8105, 58}},
	StatDatabase:        {{"pg_proc/12", 7879, 8085, 56}},
	StatTables:          {{"pg_proc/38", 7859, 8233, 56}},
	Table:               {},
	Vacuum:              {},
}

// The catalog pages each of pgbench's sessions is the first to hint (dirty, not prune) in a
// verified run's order (pgbench -i, the reading session, the setup connection, a client), each
// with its index in PG15's pages (-1: a page the profile lacks); a page the kind prunes, with
// its prune (prunes15), is dirtied by the prune.
var hints15 = map[Kind][]Hint{
	PgbenchReading:      {{"pg_attribute/0/55", 182, ""}, {"pg_attribute/0/56", 60, ""}, {"pg_proc/0/12", 166, "pg_proc/12"}, {"pg_proc/0/17", 167, "pg_proc/17"}, {"pg_proc/0/31", 296, "pg_proc/31"}, {"pg_proc/0/38", 237, "pg_proc/38"}, {"pg_proc_oid_index/0/10", 195, ""}, {"pg_rewrite/0/13", 227, ""}},
	PgbenchSelectOnly:   {{"pg_statistic/0/18", 271, ""}},
	PgbenchSetup:        {{"pg_proc/0/20", 275, "pg_proc/20"}, {"pg_statistic/0/0", 277, ""}},
	PgbenchSimpleUpdate: {{"pg_proc/0/42", 276, "pg_proc/42"}, {"pg_statistic/0/18", 271, ""}},
	PgbenchTPCB:         {{"pg_proc/0/42", 276, "pg_proc/42"}, {"pg_statistic/0/1", 228, ""}, {"pg_statistic/0/11", 282, ""}, {"pg_statistic/0/15", 283, ""}, {"pg_statistic/0/18", 271, ""}},
}
