package catalog

// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL 19beta1: per kind of session,
// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first
// session's), with the records' lengths: with the image, the hint image and the plain record.
var prunes19 = map[Kind][]Prune{
	Analyze:             {},
	Buffercache:         {{"pg_proc/18", 7693, 8161, 56}, {"pg_proc/20", 6785, 7981, 58}},
	Checkpoint:          {},
	Copy:                {{"pg_proc/34", 7761, 8197, 54}},
	First:               {},
	Index:               {},
	Insert:              {{"pg_proc/62", 7565, 7961, 54}},
	PgbenchReading:      {{"pg_proc/18", 7693, 8161, 56}, {"pg_proc/20", 6785, 7981, 58}, {"pg_proc/34", 7761, 8197, 54}, {"pg_proc/49", 7781, 8145, 52}},
	PgbenchSelectOnly:   {},
	PgbenchSetup:        {},
	PgbenchSimpleUpdate: {},
	PgbenchTPCB:         {},
	Scan:                {{"pg_proc/18", 7693, 8161, 56}},
	Scan1w:              {{"pg_proc/18", 7693, 8161, 56}},
	Session:             {{"pg_proc/34", 7761, 8197, 54}},
	Set:                 {{"pg_proc/49", 7781, 8145, 52}},
	StatBgwriter:        {{"pg_proc/34", 7761, 8197, 54}},
	StatDatabase:        {},
	StatIO:              {{"pg_proc/34", 7761, 8197, 54}},
	StatTables:          {{"pg_proc/34", 7761, 8197, 54}, {"pg_proc/49", 7781, 8145, 52}},
	Table:               {},
	Vacuum:              {},
}

// The catalog pages each of pgbench's sessions is the first to hint (dirty, not prune) in a
// verified run's order (pgbench -i, the reading session, the setup connection, a client), each
// with its index in PG19's pages (-1: a page the profile lacks); a page the kind prunes, with
// its prune (prunes19), is dirtied by the prune.
var hints19 = map[Kind][]Hint{
	PgbenchReading:      {{"pg_attribute/0/59", 191, ""}, {"pg_proc/0/18", 175, "pg_proc/18"}, {"pg_proc/0/20", 236, "pg_proc/20"}, {"pg_proc/0/34", 206, "pg_proc/34"}, {"pg_proc/0/49", 282, "pg_proc/49"}, {"pg_proc_oid_index/0/11", 151, ""}, {"pg_rewrite/0/12", 242, ""}},
	PgbenchSelectOnly:   {{"pg_statistic/0/18", 291, ""}},
	PgbenchSetup:        {{"pg_statistic/0/16", 300, ""}},
	PgbenchSimpleUpdate: {{"pg_statistic/0/18", 291, ""}},
	PgbenchTPCB:         {{"pg_statistic/0/17", 307, ""}, {"pg_statistic/0/18", 291, ""}},
}
