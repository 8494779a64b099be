package catalog

// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL 19beta1: per kind of session,
// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first
// session's), with the records' lengths: with the image, the hint image and the plain record.
var prunes19 = map[Kind][]Prune{
	Buffercache:  {{"pg_proc/18", 7693, 8161, 56}, {"pg_proc/20", 6785, 7981, 58}},
	Copy:         {{"pg_proc/34", 7761, 8197, 54}},
	Insert:       {{"pg_proc/62", 7565, 7961, 54}},
	Scan:         {{"pg_proc/18", 7693, 8161, 56}},
	Scan1w:       {{"pg_proc/18", 7693, 8161, 56}},
	Session:      {{"pg_proc/34", 7761, 8197, 54}},
	Set:          {{"pg_proc/49", 7781, 8145, 52}},
	StatBgwriter: {{"pg_proc/34", 7761, 8197, 54}},
	StatIO:       {{"pg_proc/34", 7761, 8197, 54}},
	StatTables:   {{"pg_proc/34", 7761, 8197, 54}, {"pg_proc/49", 7781, 8145, 52}},
}
