package catalog

// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL 18beta1: per kind of session,
// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first
// session's), with the records' lengths: with the image, the hint image and the plain record.
var prunes18 = map[Kind][]Prune{
	Analyze:             {{"pg_proc/66", 7681, 8205, 54}},
	Buffercache:         {{"pg_proc/18", 7557, 8025, 58}},
	Checkpoint:          {{"pg_proc/66", 7681, 8205, 54}},
	Copy:                {{"pg_proc/66", 7681, 8205, 54}},
	First:               {},
	Index:               {{"pg_proc/66", 7681, 8205, 54}},
	Insert:              {{"pg_proc/26", 7805, 8161, 52}, {"pg_proc/60", 7185, 7901, 54}},
	PgbenchReading:      {{"pg_proc/18", 7557, 8025, 58}, {"pg_proc/33", 7769, 8205, 54}},
	PgbenchSelectOnly:   {},
	PgbenchSetup:        {},
	PgbenchSimpleUpdate: {{"pg_proc/45", 8005, 8217, 52}},
	PgbenchTPCB:         {{"pg_proc/45", 8005, 8217, 52}},
	Scan:                {{"pg_proc/18", 7557, 8025, 58}},
	Scan1w:              {{"pg_proc/18", 7557, 8025, 58}},
	Session:             {{"pg_proc/66", 7681, 8205, 54}},
	Set:                 {{"pg_proc/61", 7185, 8237, 56}},
	StatBgwriter:        {{"pg_proc/66", 7681, 8205, 54}},
	StatDatabase:        {},
	StatIO:              {{"pg_proc/33", 7769, 8205, 54}, {"pg_proc/66", 7681, 8205, 54}},
	StatTables:          {},
	Table:               {},
	Vacuum:              {},
}

// The catalog pages each of pgbench's sessions is the first to hint (dirty, not prune) in a
// verified run's order (pgbench -i, the reading session, the setup connection, a client), each
// with its index in PG18's pages (-1: a page the profile lacks); a page the kind prunes, with
// its prune (prunes18), is dirtied by the prune.
var hints18 = map[Kind][]Hint{
	PgbenchReading:      {{"pg_attribute/0/54", 180, ""}, {"pg_attribute/0/55", 61, ""}, {"pg_proc/0/18", 167, "pg_proc/18"}, {"pg_proc/0/33", 275, "pg_proc/33"}, {"pg_rewrite/0/14", 233, ""}},
	PgbenchSelectOnly:   {{"pg_statistic/0/18", 288, ""}},
	PgbenchSetup:        {{"pg_statistic/0/0", 294, ""}},
	PgbenchSimpleUpdate: {{"pg_proc/0/45", 293, "pg_proc/45"}, {"pg_statistic/0/18", 288, ""}},
	PgbenchTPCB:         {{"pg_proc/0/45", 293, "pg_proc/45"}, {"pg_statistic/0/1", 300, ""}, {"pg_statistic/0/16", 301, ""}, {"pg_statistic/0/17", 302, ""}, {"pg_statistic/0/18", 288, ""}},
}
