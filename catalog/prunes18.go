package catalog

// Measured by `pgbufsim catalog-profile --prunes` on PostgreSQL 18beta1: per kind of session,
// the catalog pages verify's setup left prunable that it is the first to prune (beyond a first
// session's), with the records' lengths: with the image, the hint image and the plain record.
var prunes18 = map[Kind][]Prune{
	Analyze:      {{"pg_proc/66", 7681, 8205, 54}},
	Buffercache:  {{"pg_proc/18", 7557, 8025, 58}},
	Checkpoint:   {{"pg_proc/66", 7681, 8205, 54}},
	Copy:         {{"pg_proc/66", 7681, 8205, 54}},
	Index:        {{"pg_proc/66", 7681, 8205, 54}},
	Insert:       {{"pg_proc/26", 7805, 8161, 52}, {"pg_proc/60", 7185, 7901, 54}},
	Scan:         {{"pg_proc/18", 7557, 8025, 58}},
	Scan1w:       {{"pg_proc/18", 7557, 8025, 58}},
	Session:      {{"pg_proc/66", 7681, 8205, 54}},
	Set:          {{"pg_proc/61", 7185, 8237, 56}},
	StatBgwriter: {{"pg_proc/66", 7681, 8205, 54}},
	StatIO:       {{"pg_proc/33", 7769, 8205, 54}, {"pg_proc/66", 7681, 8205, 54}},
}
