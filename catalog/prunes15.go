package catalog

// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL 15.18 (Debian 15.18-0+deb12u1): per kind of session,
// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first
// session's), with the records' lengths: with the image, the hint image and the plain record.
var prunes15 = map[Kind][]Prune{
	Analyze:      {{"pg_proc/44", 7443, 8105, 58}},
	Buffercache:  {{"pg_proc/12", 7879, 8085, 56}, {"pg_proc/17", 7671, 7909, 58}},
	Checkpoint:   {{"pg_proc/44", 7443, 8105, 58}},
	Copy:         {{"pg_proc/18", 7819, 8161, 56}, {"pg_proc/44", 7443, 8105, 58}},
	Index:        {{"pg_proc/18", 7819, 8161, 56}, {"pg_proc/44", 7443, 8105, 58}},
	Insert:       {{"pg_proc/18", 7819, 8161, 56}},
	Scan:         {{"pg_proc/17", 7671, 7909, 58}},
	Scan1w:       {{"pg_proc/17", 7671, 7909, 58}},
	Session:      {{"pg_proc/44", 7443, 8105, 58}},
	StatBgwriter: {{"pg_proc/44", 7443, 8105, 58}},
	StatDatabase: {{"pg_proc/12", 7879, 8085, 56}},
	StatTables:   {{"pg_proc/38", 7859, 8233, 56}},
}
