package pgbench

import "fmt"

// StepKind says what one statement of `pgbench -i` does.
type StepKind int

const (
	// NoLoad is TableSpec.Loader of a table pgbench loads nothing into (history).
	NoLoad StepKind = -1
)

const (
	DropTables    StepKind = iota // drop table if exists (the four tables)
	CreateTable                   // create table, with (fillfactor=F) but for history
	Begin                         // begin: the load runs in one transaction
	Truncate                      // truncate the four tables (in the load's transaction: COPY FREEZE may then freeze)
	Insert                        // one row by INSERT (branches and tellers before 17)
	CatalogLookup                 // 17+: the relkind of the table about to be loaded (a pg_class lookup)
	Copy                          // COPY FROM STDIN, with (freeze on) from 14
	Commit                        // commit
	VacuumAnalyze                 // vacuum analyze of one table
	PrimaryKey                    // alter table add primary key: a btree build
)

// Step is one statement `pgbench -i` sends, in order.
type Step struct {
	Kind  StepKind
	SQL   string // as the server logs it with log_statement = all (after "statement: " or "execute <unnamed>: ")
	Table string // the table acted on ("" for begin, commit and the drop of all four)
	Rows  int64  // rows the COPY sends (Copy), 1 for Insert
}

// SCALE_32BIT_THRESHOLD in pgbench.c: from this scale on, aid is a bigint.
const scale32BitThreshold = 20000

func checkInit(version, scale, fillfactor int) error {
	if err := checkVersion(version); err != nil {
		return err
	}
	if scale < 1 {
		return fmt.Errorf("scale=%d: pgbench's -s/--scale is from 1 to 2147483647", scale)
	}
	if fillfactor < 10 || fillfactor > 100 {
		return fmt.Errorf("fillfactor=%d: pgbench's -F/--fillfactor is from 10 to 100", fillfactor)
	}
	return nil
}

// Init is what `pgbench -i -s scale -F fillfactor` sends on that version,
// its default init steps "dtgvp" (-q changes only the progress messages):
// initDropTables; initCreateTables (history, tellers, accounts, branches,
// in that order; fillfactor on all but history); initGenerateDataClientSide
// (in one transaction: truncate, then branches and tellers by one INSERT a
// row before 17 — from 17 by COPY like accounts, each COPY preceded by a
// relkind lookup — and accounts by COPY ... with (freeze on)); initVacuum
// (vacuum analyze branches, tellers, accounts, history); initCreatePKeys
// (branches, tellers, accounts). Captured from the servers with
// log_statement = all (testdata/init).
func Init(version, scale, fillfactor int) ([]Step, error) {
	if err := checkInit(version, scale, fillfactor); err != nil {
		return nil, err
	}
	aid := "aid    int"
	if scale >= scale32BitThreshold {
		aid = "aid bigint"
	}
	ff := fmt.Sprintf(" with (fillfactor=%d)", fillfactor)
	s := []Step{
		{Kind: DropTables, SQL: "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"},
		{Kind: CreateTable, Table: "pgbench_history", SQL: "create table pgbench_history(tid int,bid int," + aid + ",delta int,mtime timestamp,filler char(22))"},
		{Kind: CreateTable, Table: "pgbench_tellers", SQL: "create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84))" + ff},
		{Kind: CreateTable, Table: "pgbench_accounts", SQL: "create table pgbench_accounts(" + aid + " not null,bid int,abalance int,filler char(84))" + ff},
		{Kind: CreateTable, Table: "pgbench_branches", SQL: "create table pgbench_branches(bid int not null,bbalance int,filler char(88))" + ff},
		{Kind: Begin, SQL: "begin"},
		{Kind: Truncate, SQL: "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"},
	}
	sc := int64(scale)
	copyStep := func(table string, rows int64) {
		if version >= 17 { // get_table_relkind in initPopulateTable (17+)
			s = append(s, Step{Kind: CatalogLookup, Table: table, SQL: "SELECT relkind FROM pg_catalog.pg_class WHERE oid=$1::pg_catalog.regclass"})
		}
		s = append(s, Step{Kind: Copy, Table: table, Rows: rows, SQL: "copy " + table + " from stdin with (freeze on)"})
	}
	if version >= 17 {
		copyStep("pgbench_branches", BranchesPerScale*sc)
		copyStep("pgbench_tellers", TellersPerScale*sc)
	} else {
		for i := int64(0); i < BranchesPerScale*sc; i++ {
			s = append(s, Step{Kind: Insert, Table: "pgbench_branches", Rows: 1,
				SQL: fmt.Sprintf("insert into pgbench_branches(bid,bbalance) values(%d,0)", i+1)})
		}
		for i := int64(0); i < TellersPerScale*sc; i++ {
			s = append(s, Step{Kind: Insert, Table: "pgbench_tellers", Rows: 1,
				SQL: fmt.Sprintf("insert into pgbench_tellers(tid,bid,tbalance) values (%d,%d,0)", i+1, i/TellersPerScale+1)})
		}
	}
	copyStep("pgbench_accounts", AccountsPerScale*sc)
	s = append(s, Step{Kind: Commit, SQL: "commit"})
	for _, t := range []string{"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history"} {
		s = append(s, Step{Kind: VacuumAnalyze, Table: t, SQL: "vacuum analyze " + t})
	}
	for _, k := range [][2]string{{"pgbench_branches", "bid"}, {"pgbench_tellers", "tid"}, {"pgbench_accounts", "aid"}} {
		s = append(s, Step{Kind: PrimaryKey, Table: k[0], SQL: "alter table " + k[0] + " add primary key (" + k[1] + ")"})
	}
	return s, nil
}

// InitSQL is Init's statements' text, in order.
func InitSQL(version, scale, fillfactor int) ([]string, error) {
	steps, err := Init(version, scale, fillfactor)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(steps))
	for i, st := range steps {
		out[i] = st.SQL
	}
	return out, nil
}
