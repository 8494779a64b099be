package catalog

// Measured by `pgbufsim catalog-profile` on PostgreSQL 18beta1: 316 catalog pages;
// 0 pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).
// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.
//
// Pages (relation/fork/block), most pinned first:
//
//	pg_attribute_relid_attnum_index/0/3 pg_class_oid_index/0/3 pg_attribute_relid_attnum_index/0/4 shared:pg_db_role_setting_databaseid_rol_index/0/0 pg_type/0/0 pg_attribute/0/25
//	pg_type_oid_index/0/1 pg_type_oid_index/0/3 pg_class_oid_index/0/1 pg_class_oid_index/0/2 pg_proc_oid_index/0/3 shared:pg_database/0/0
//	pg_class/0/0 pg_index_indexrelid_index/0/1 pg_class/0/8 pg_proc_proname_args_nsp_index/0/3 pg_namespace_nspname_index/0/1 pg_proc/0/43
//	pg_class/0/4 pg_class_relname_nsp_index/0/3 pg_index/0/2 shared:pg_database_oid_index/0/1 pg_amproc/0/0 pg_amproc_fam_proc_index/0/1
//	pg_amproc_fam_proc_index/0/3 pg_attribute/0/24 shared:pg_authid/0/0 pg_am/0/0 pg_class/0/3 pg_opclass/0/0
//	pg_opclass_oid_index/0/1 pg_attribute_relid_attnum_index/0/2 pg_type_typname_nsp_index/0/3 pg_attribute/0/10 pg_namespace/0/0 pg_proc_proname_args_nsp_index/0/22
//	pg_attribute/0/23 pg_proc_oid_index/0/5 pg_type_typname_nsp_index/0/2 pg_class_relname_nsp_index/0/2 pg_index/0/0 pg_index/0/1
//	pg_type/0/1 pg_attribute/0/16 pg_class/0/6 pg_amproc_fam_proc_index/0/0 pg_attribute_relid_attnum_index/0/0 pg_class/0/7
//	pg_class_oid_index/0/0 pg_index_indexrelid_index/0/0 pg_opclass_oid_index/0/0 pg_statistic_relid_att_inh_index/0/3 shared:pg_authid_oid_index/0/0 shared:pg_authid_oid_index/0/1
//	pg_attribute_relid_attnum_index/0/10 pg_class/0/11 pg_namespace_nspname_index/0/0 pg_proc_oid_index/0/0 pg_type/0/2 pg_type_oid_index/0/0
//	shared:pg_database_oid_index/0/0 pg_attribute/0/55 pg_attribute_relid_attnum_index/0/5 pg_cast_source_target_index/0/1 pg_proc_oid_index/0/6 pg_proc_proname_args_nsp_index/0/0
//	pg_statistic_ext_relid_index/0/0 shared:pg_authid_rolname_index/0/0 shared:pg_authid_rolname_index/0/1 shared:pg_database_datname_index/0/0 shared:pg_database_datname_index/0/1 pg_attribute_relid_attnum_index/0/1
//	pg_class/0/2 pg_class/0/5 pg_class_relname_nsp_index/0/0 pg_index/0/3 pg_index_indrelid_index/0/1 pg_proc_oid_index/0/7
//	pg_class/0/1 pg_proc_oid_index/0/1 pg_proc_oid_index/0/2 pg_attribute/0/4 pg_attribute/0/5 pg_attribute/0/9
//	pg_cast/0/0 pg_class/0/9 pg_statistic_relid_att_inh_index/0/2 shared:pg_tablespace/0/0 shared:pg_tablespace_oid_index/0/1 pg_attribute/0/11
//	pg_attribute/0/3 pg_attribute/0/6 pg_attribute/0/8 pg_class_relname_nsp_index/0/5 pg_operator/0/3 pg_operator_oprname_l_r_n_index/0/3
//	pg_proc/0/47 pg_proc/0/54 pg_proc_oid_index/0/11 pg_type_typname_nsp_index/0/0 shared:pg_tablespace_oid_index/0/0 pg_attribute/0/0
//	pg_attribute/0/1 pg_attribute/0/12 pg_attribute/0/13 pg_attribute/0/14 pg_attribute/0/15 pg_attribute/0/17
//	pg_attribute/0/18 pg_attribute/0/19 pg_attribute/0/2 pg_attribute/0/20 pg_attribute/0/21 pg_attribute/0/22
//	pg_attribute/0/26 pg_attribute/0/27 pg_attribute/0/60 pg_attribute/0/61 pg_attribute/0/7 pg_attribute_relid_attnam_index/0/16
//	pg_attribute_relid_attnam_index/0/3 pg_attribute_relid_attnum_index/0/11 pg_attribute_relid_attnum_index/0/6 pg_depend/0/13 pg_depend_depender_index/0/3 pg_depend_reference_index/0/3
//	pg_depend_reference_index/0/7 pg_operator/0/0 pg_operator/0/5 pg_operator_oid_index/0/1 pg_operator_oid_index/0/3 pg_proc/0/0
//	pg_proc/0/42 pg_proc/0/50 pg_statistic_relid_att_inh_index/0/1 pg_type_typname_nsp_index/0/4 pg_amop/0/0 pg_cast_source_target_index/0/0
//	pg_class_relname_nsp_index/0/1 pg_default_acl_role_nsp_obj_index/0/0 pg_depend_depender_index/0/9 pg_namespace_oid_index/0/1 pg_operator/0/1 pg_operator/0/8
//	pg_operator/0/9 pg_operator_oprname_l_r_n_index/0/2 pg_proc/0/95 pg_rewrite_rel_rulename_index/0/0 pg_rewrite_rel_rulename_index/0/1 pg_statistic_relid_att_inh_index/0/0
//	pg_ts_config/0/0 pg_type_oid_index/0/2 pg_aggregate/0/0 pg_aggregate_fnoid_index/0/0 pg_aggregate_fnoid_index/0/1 pg_amop_opr_fam_index/0/1
//	pg_amop_opr_fam_index/0/3 pg_attribute_relid_attnum_index/0/8 pg_class_tblspc_relfilenode_index/0/1 pg_index/0/4 pg_index_indrelid_index/0/0 pg_namespace_oid_index/0/0
//	pg_operator/0/2 pg_operator/0/6 pg_operator/0/7 pg_operator_oid_index/0/0 pg_operator_oprname_l_r_n_index/0/0 pg_proc/0/18
//	pg_proc/0/66 pg_proc_proname_args_nsp_index/0/33 pg_proc_proname_args_nsp_index/0/6 pg_rewrite/0/8 pg_statistic/0/5 pg_amop/0/2
//	pg_amop/0/3 pg_amproc/0/1 pg_amproc/0/2 pg_amproc/0/3 pg_amproc/0/4 pg_attribute/0/39
//	pg_attribute/0/54 pg_attribute/1/0 pg_class/0/10 pg_class/0/12 pg_class/0/13 pg_class_tblspc_relfilenode_index/0/0
//	pg_depend_depender_index/0/10 pg_opclass/0/1 pg_operator/0/10 pg_operator/0/12 pg_operator/0/4 pg_operator_oprname_l_r_n_index/0/1
//	pg_proc/0/13 pg_proc/0/19 pg_proc/0/26 pg_proc/0/34 pg_proc/0/60 pg_statistic/0/15
//	pg_ts_config_cfgname_index/0/1 pg_ts_config_oid_index/0/1 pg_type/0/15 pg_amop/0/1 pg_amop/0/4 pg_amop_fam_strat_index/0/0
//	pg_amop_fam_strat_index/0/1 pg_amop_fam_strat_index/0/3 pg_amop_opr_fam_index/0/0 pg_attribute/0/28 pg_attribute/0/29 pg_attribute/0/38
//	pg_attribute/1/2 pg_attribute_relid_attnam_index/0/0 pg_class/1/0 pg_class/1/1 pg_class/1/2 pg_class_relname_nsp_index/0/4
//	pg_depend/1/0 pg_depend_depender_index/0/0 pg_depend_reference_index/0/0 pg_depend_reference_index/0/5 pg_event_trigger_evtname_index/0/0 pg_index/1/0
//	pg_opclass/0/2 pg_operator/0/11 pg_operator/0/13 pg_operator_oprname_l_r_n_index/0/4 pg_proc/0/3 pg_proc/0/8
//	pg_proc/0/9 pg_proc_oid_index/0/10 pg_proc_oid_index/0/4 pg_proc_proname_args_nsp_index/0/26 pg_proc_proname_args_nsp_index/0/9 pg_rewrite/0/14
//	pg_statistic/0/3 pg_toast_16428_index/0/0 pg_ts_config_cfgname_index/0/0 pg_ts_config_oid_index/0/0 pg_type/1/0
//	pg_namespace/2/0 pg_proc/0/40 pg_proc/0/41 pg_attribute_relid_attnum_index/0/7 pg_opclass_am_name_nsp_index/0/1 pg_toast_2618_index/0/1
//	pg_constraint_conrelid_contypid_conname_index/0/3 pg_proc/0/10 pg_proc_oid_index/0/8 pg_attribute/0/33 pg_constraint/0/0 pg_constraint_conrelid_contypid_conname_index/0/1
//	pg_index/2/0 pg_opfamily/0/0 pg_opfamily_oid_index/0/1 pg_proc/0/36 pg_proc/0/49 pg_rewrite/0/4
//	pg_statistic/0/14 pg_statistic/0/8 pg_toast_2618/0/17 pg_toast_2618_index/0/0 pg_amop_opr_fam_index/0/2 pg_attribute/0/31
//	pg_attribute/0/32 pg_attribute/0/34 pg_attribute/0/37 pg_collation/0/0 pg_collation_oid_index/0/0 pg_collation_oid_index/0/1
//	pg_constraint/0/1 pg_constraint_conrelid_contypid_conname_index/0/0 pg_constraint_conrelid_contypid_conname_index/0/4 pg_opclass_am_name_nsp_index/0/0 pg_opfamily_oid_index/0/0 pg_proc/0/1
//	pg_proc/0/33 pg_proc/0/39 pg_rewrite/0/0 pg_rewrite/0/3 pg_rewrite/0/7 pg_toast_2618/0/15
//	pg_toast_2618/0/18 pg_toast_2618/0/2 pg_toast_2618/0/23 pg_type/0/3
//	pg_publication_rel_prrelid_prpubid_index/0/0 pg_constraint/0/4 pg_constraint_conrelid_contypid_conname_index/0/2 pg_statistic/0/18 pg_publication_namespace_pnnspid_pnpubid_index/0/0 pg_cast/0/1
//	pg_proc/0/12 pg_proc/0/22 pg_proc/0/45 pg_statistic/0/0 pg_constraint/0/3 pg_inherits_parent_index/0/0
//	pg_inherits_relid_seqno_index/0/0 pg_partitioned_table_partrelid_index/0/0 pg_proc_proname_args_nsp_index/0/1 pg_statistic/0/1 pg_statistic/0/16 pg_statistic/0/17
//	pg_attribute_relid_attnam_index/0/15 pg_depend/0/14 pg_depend_depender_index/0/11 pg_statistic/1/0 pg_statistic/1/1 pg_statistic/1/2
//	pg_rewrite/0/5 pg_attribute/0/35 pg_class/2/0 pg_proc/0/2 pg_proc_proname_args_nsp_index/0/20 pg_proc_proname_args_nsp_index/0/27
//	pg_toast_2618/0/20
var PG18 = Profile{
	Pages:            316,
	VacuumWindowHits: 28,
	TableGrowthPages: 1,
	IndexInsertHits:  30,
	Kinds: map[Kind]string{
		Buffercache:         "55555344554344432224221114214112411231402251111311151111112110050141111011112114100051022000002402111000000000000000000000000005533200504140004444011100000330001033311100103220000000111100222020000200011111100000000000000001111100000b1",
		Checkpoint:          "54454344224301132311121110210110111202100010011011101103111110013101111000100401000000000000000020510000000000000000000000000000000150000100000000011000000001000000000011010000000000000000000000000000000000000100000100000000000001",
		Copy:                "5545534424433114331312111022011041230332004101101110111311111102210111100010020120001000000001212201000000000000000000000000000001110001010000000021100000000100000001101101000000010000000000010101",
		First:               "5555152250135551225052555521555505115100550551151110110011111050010111155505005005550500055550000000055555555555555500500050000000000000000000000000000000000001000000000000000222200000000200000000000000000001100000000000001",
		Insert:              "54455344224331142212121110220110211201220011011011101110111111002101111000100000200000000000002102010000000000000000000000000000011000000000000000200000000000000000011000000000000000000000000101202000000000000000000000000000000000111",
		Scan:                "555543443233321222121211122211100111010201010110111211101111110011211110001000001000002110000000000010000000000000000000000000000000020000000000000001001110000000000001001",
		Scan1w:              "5550554454425552325253333435533503314102120213333332332022122250212111132212001112210022211110000000200000000000000000000000000000000300000001000000014022200000010000010010000000000000000000000000002200000000000000000000000000001000000011",
		Session:             "544553442243011333111211102101102122031000300110111011031111100201011110001002011000100000000100200100000000000000000000000000000001000101000000000110000000010000000000b101000000010000000000000001",
		Table:               "555555445f130f312235425554233445522131ee4300f1101113110011111000012111110011f0000001003110000e0000011000000000000000ff0f5f0f55f00000000d0004e1000000010e000000dc11000000000000000000020001c0000000000000c000000000b11110111b1100000000000000001",
		Vacuum:              "554513223513f32122221322222222220131010221021111111011511111150001011110111020100000010110000000000010000000000000000000000000000000000000000200000000000000000011000000000000000000c0111000000000000000000000000000000000000000000000000001",
		StatBgwriter:        "554553442543011333131211102101102122031000300110111011051111100251011110001005011000100000000100205100000000000000000000000000000001500101000000000130000000030000000000b1030000000100000000000000010000000000000200000200000000000001",
		StatDatabase:        "55555344524304232311222224212222011204002200011011121100111110015121111000102523100010011000000100201000000013000000000000000002011150202100000001011100000111001000011000100110000000300000000020000200000111100100000100000000001015000000000005001002000000000000100001000000000000010001",
		StatIO:              "55455344244301133312121110210110212203100030011011101105111110050101111000100203200050000000022220010000000000000000000000000002022200011100000001012000000112000000011011020210000200000000000101010000011000100100000000000000000001100000000000000010000000000000000000000000000b",
		StatTables:          "555553445243155243325255552155551132541055202113111511021141100551511115221555352001523110503231004110500000135000000000000000040551005051000500010141001115500f11400110000043310000005221050000000100000121551000000000000000000011230000100005504433212222222222221111101111111110111011101",
		PgbenchSelectOnly:   "5555233353230511221212333522333501112102030001101112113011111300012111100012104100000021100000010000100000000000000000000000000201110000200000000100010000011000100001100000000000000000000000000000000001111110000000000000000000000000000000000000010000000000000000000000001000000000000000112",
		PgbenchSetup:        "5555534453430554321522555522555511315203251001121115113011311305215111120013515310005211101000020001100000000000000000000000000405510351512004000200010021255000114001120020233000000000010500000000000004415510000000020000000000100010001000020005051002204400020000000000011211000000000010b1001220b11111",
		PgbenchSimpleUpdate: "555533445543051122141233352233350111220403300110111211401111140101211110001210520000002110000002000010000000000000000000000000020221000021000000010001000001100010200110000000000000000000000001000000000111111000000000000000000010000000000000000001000000000000000000000000100000000000000211221001",
		PgbenchTPCB:         "5555334455430511221532333522333501112205053001101115115011111501015111100012305200000051100000020000100000000000000000000000000202210000210000000100010000011000102001100000000000000000000000010000000001111110000000000000000000100000000000000000030000000000000000000000001000000000000005d3c2100b100000bbb",
		Analyze:             "555533444443e3122212123334222532112101120323011011141140111113050141111000102201000050e110000000200110000000000000000000000000020221000051000100000001000001200011000100b10000100000000000050000000000000021551000000000000000000000000000000000000200000000000000000100000000001000000000000000c01000000000000000111",
		Index:               "555555445f43ff2322354244442335353112313f332501101110114011111405212111100011f2f11001500110000021220110000000000000000f0b2f0011b0011100000100000000200000000000bd100001101100000000000100010500010100000000000000000111101110110000000000000000000001000000000000000000000000000010000000000000000010000000000001bb",
		PgbenchReading:      "555553445543555453455255552155554153543055213114111511151141100551511115331555555001533220503534005110500000135000000000000000050553525151200520040151002125530f1140011200224541000200533105000020010200023155100200000100000000001125100b10000555545323222522232222111121111111111b1111111110000000000000000000000002111111",
	},
}
