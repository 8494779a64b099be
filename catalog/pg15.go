package catalog

// Measured by `pgbufsim catalog-profile` on PostgreSQL 15.18 (Debian 15.18-0+deb12u1): 306 catalog pages;
// 0 pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).
// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.
//
// Pages (relation/fork/block), most pinned first:
//
//	pg_attribute_relid_attnum_index/0/3 pg_class_oid_index/0/3 pg_attribute_relid_attnum_index/0/4 shared:pg_db_role_setting_databaseid_rol_index/0/0 pg_attribute/0/26 pg_type/0/0
//	pg_type_oid_index/0/1 pg_type_oid_index/0/3 pg_class_oid_index/0/1 pg_class_oid_index/0/2 pg_proc_oid_index/0/3 shared:pg_database/0/0
//	pg_class/0/0 pg_index_indexrelid_index/0/1 pg_proc_proname_args_nsp_index/0/3 pg_class/0/8 pg_namespace_nspname_index/0/1 pg_proc/0/40
//	pg_class_relname_nsp_index/0/3 shared:pg_database_oid_index/0/1 shared:pg_authid/0/0 pg_am/0/0 pg_amproc/0/0 pg_amproc_fam_proc_index/0/1
//	pg_amproc_fam_proc_index/0/3 pg_class/0/3 pg_class/0/4 pg_index/0/2 pg_opclass/0/0 pg_opclass_oid_index/0/1
//	pg_type_typname_nsp_index/0/3 pg_attribute/0/25 pg_attribute_relid_attnum_index/0/2 pg_namespace/0/0 pg_proc_proname_args_nsp_index/0/21 pg_attribute/0/10
//	pg_proc_oid_index/0/5 pg_type_typname_nsp_index/0/2 pg_class_relname_nsp_index/0/2 pg_index/0/0 pg_index/0/1 pg_type/0/1
//	pg_attribute/0/17 pg_class/0/7 pg_attribute_relid_attnum_index/0/0 pg_class_oid_index/0/0 pg_index_indexrelid_index/0/0 pg_proc_oid_index/0/6
//	pg_statistic_relid_att_inh_index/0/1 shared:pg_authid_oid_index/0/0 shared:pg_authid_oid_index/0/1 pg_amproc_fam_proc_index/0/0 pg_attribute_relid_attnum_index/0/10 pg_class/0/10
//	pg_namespace_nspname_index/0/0 pg_opclass_oid_index/0/0 pg_proc_oid_index/0/0 pg_type/0/2 pg_type_oid_index/0/0 shared:pg_database_oid_index/0/0
//	pg_attribute/0/56 pg_cast_source_target_index/0/1 pg_index/0/3 pg_proc_oid_index/0/7 pg_proc_proname_args_nsp_index/0/0 pg_statistic_ext_relid_index/0/0
//	shared:pg_authid_rolname_index/0/0 shared:pg_authid_rolname_index/0/1 shared:pg_database_datname_index/0/0 shared:pg_database_datname_index/0/1 pg_attribute/0/24 pg_class_relname_nsp_index/0/0
//	pg_index_indrelid_index/0/1 pg_attribute_relid_attnum_index/0/1 pg_class/0/1 pg_class/0/2 pg_class/0/5 pg_proc_oid_index/0/1
//	pg_proc_oid_index/0/2 pg_cast/0/0 pg_class/0/13 pg_class/0/6 pg_class/0/9 pg_class_relname_nsp_index/0/4
//	pg_attribute/0/11 pg_attribute/0/3 pg_attribute/0/4 pg_attribute/0/6 pg_attribute/0/9 pg_operator/0/3
//	pg_operator_oprname_l_r_n_index/0/3 pg_proc/0/44 pg_proc/0/51 pg_type_typname_nsp_index/0/0 pg_attribute/0/0 pg_attribute/0/1
//	pg_attribute/0/12 pg_attribute/0/13 pg_attribute/0/14 pg_attribute/0/15 pg_attribute/0/16 pg_attribute/0/18
//	pg_attribute/0/19 pg_attribute/0/2 pg_attribute/0/20 pg_attribute/0/21 pg_attribute/0/22 pg_attribute/0/23
//	pg_attribute/0/27 pg_attribute/0/28 pg_attribute/0/5 pg_attribute/0/61 pg_attribute/0/7 pg_attribute/0/8
//	pg_attribute_relid_attnam_index/0/15 pg_attribute_relid_attnam_index/0/3 pg_attribute_relid_attnum_index/0/11 pg_attribute_relid_attnum_index/0/5 pg_attribute_relid_attnum_index/0/6 pg_depend/0/14
//	pg_depend_depender_index/0/3 pg_depend_reference_index/0/3 pg_depend_reference_index/0/7 pg_operator/0/0 pg_operator/0/5 pg_operator_oid_index/0/1
//	pg_operator_oid_index/0/3 pg_proc/0/0 pg_proc/0/47 pg_type/1/0 pg_type_typname_nsp_index/0/4 pg_amop/0/0
//	pg_cast_source_target_index/0/0 pg_class_relname_nsp_index/0/1 pg_default_acl_role_nsp_obj_index/0/0 pg_depend_depender_index/0/9 pg_namespace_oid_index/0/1 pg_operator/0/1
//	pg_operator/0/8 pg_operator/0/9 pg_operator_oprname_l_r_n_index/0/2 pg_proc/0/90 pg_rewrite_rel_rulename_index/0/0 pg_rewrite_rel_rulename_index/0/1
//	pg_statistic_relid_att_inh_index/0/0 pg_ts_config/0/0 pg_type/1/1 pg_type_oid_index/0/2 shared:pg_tablespace/0/0 shared:pg_tablespace_oid_index/0/1
//	pg_aggregate/0/0 pg_aggregate_fnoid_index/0/0 pg_aggregate_fnoid_index/0/1 pg_amop_opr_fam_index/0/1 pg_amop_opr_fam_index/0/3 pg_attribute/0/39
//	pg_attribute_relid_attnum_index/0/7 pg_class/0/12 pg_class_tblspc_relfilenode_index/0/1 pg_index_indrelid_index/0/0 pg_namespace_oid_index/0/0 pg_operator/0/2
//	pg_operator/0/6 pg_operator/0/7 pg_operator_oid_index/0/0 pg_operator_oprname_l_r_n_index/0/0 pg_proc/0/12 pg_proc/0/17
//	pg_proc/0/62 pg_proc_proname_args_nsp_index/0/19 pg_proc_proname_args_nsp_index/0/6 pg_rewrite/0/8 pg_statistic/0/5 pg_type/1/2
//	shared:pg_tablespace_oid_index/0/0 pg_amop/0/2 pg_amop/0/3 pg_amproc/0/1 pg_amproc/0/2 pg_amproc/0/3
//	pg_amproc/0/4 pg_attribute/0/40 pg_attribute/0/55 pg_class/0/11 pg_class/1/2 pg_class_tblspc_relfilenode_index/0/0
//	pg_depend_depender_index/0/10 pg_operator/0/10 pg_operator/0/12 pg_operator/0/4 pg_operator_oprname_l_r_n_index/0/1 pg_proc/0/18
//	pg_proc/0/24 pg_proc/0/32 pg_proc/0/57 pg_proc_oid_index/0/10 pg_statistic/0/14 pg_ts_config_cfgname_index/0/1
//	pg_ts_config_oid_index/0/1 pg_type/0/15 pg_amop/0/1 pg_amop/0/4 pg_amop_fam_strat_index/0/0 pg_amop_fam_strat_index/0/1
//	pg_amop_fam_strat_index/0/3 pg_amop_opr_fam_index/0/0 pg_attribute/1/0 pg_attribute_relid_attnam_index/0/0 pg_class/1/0 pg_class/1/1
//	pg_depend/1/0 pg_depend_depender_index/0/0 pg_depend_reference_index/0/0 pg_depend_reference_index/0/5 pg_event_trigger_evtname_index/0/0 pg_index/1/0
//	pg_index/1/1 pg_index/1/2 pg_operator/0/11 pg_operator/0/13 pg_operator_oprname_l_r_n_index/0/4 pg_proc/0/3
//	pg_proc/0/8 pg_proc/0/9 pg_proc_oid_index/0/4 pg_proc_proname_args_nsp_index/0/25 pg_proc_proname_args_nsp_index/0/8 pg_rewrite/0/13
//	pg_statistic/0/1 pg_toast_16406_index/0/0 pg_ts_config_cfgname_index/0/0 pg_ts_config_oid_index/0/0 pg_type/0/14
//	pg_index/0/4 pg_namespace/2/0 pg_opclass/0/1 pg_proc/0/37 pg_proc/0/38 pg_proc/0/39
//	pg_opclass_am_name_nsp_index/0/1 pg_toast_2618_index/0/1 pg_proc_oid_index/0/8 pg_attribute/0/34 pg_attribute/0/35 pg_index/2/0
//	pg_proc/0/34 pg_rewrite/0/3 pg_rewrite/0/4 pg_statistic/0/13 pg_statistic/0/7 pg_toast_2618/0/17
//	pg_toast_2618_index/0/0 pg_amop_opr_fam_index/0/2 pg_attribute/0/33 pg_attribute/0/38 pg_constraint/0/0 pg_constraint_conrelid_contypid_conname_index/0/0
//	pg_constraint_conrelid_contypid_conname_index/0/1 pg_opclass_am_name_nsp_index/0/0 pg_proc/0/1 pg_proc/0/10 pg_proc/0/45 pg_rewrite/0/7
//	pg_toast_2618/0/15 pg_toast_2618/0/18 pg_toast_2618/0/2 pg_toast_2618/0/23 pg_type/0/3
//	pg_statistic_relid_att_inh_index/0/3 pg_statistic_relid_att_inh_index/0/2 pg_publication_rel_prrelid_prpubid_index/0/0 pg_statistic/0/18 pg_publication_namespace_pnnspid_pnpubid_index/0/0 pg_cast/0/1
//	pg_proc/0/11 pg_proc/0/20 pg_proc/0/42 pg_statistic/0/0 pg_inherits_parent_index/0/0 pg_inherits_relid_seqno_index/0/0
//	pg_partitioned_table_partrelid_index/0/0 pg_proc_proname_args_nsp_index/0/1 pg_statistic/0/11 pg_statistic/0/15
//	pg_attribute/0/62 pg_attribute_relid_attnam_index/0/14 pg_attribute_relid_attnam_index/0/16 pg_depend_depender_index/0/11 pg_statistic/1/0 pg_statistic/1/1
//	pg_statistic/1/2
//	pg_attribute/0/60 pg_attribute/0/57 pg_attribute/0/58 pg_attribute/0/59 pg_attribute/0/36 pg_proc/0/31
//	pg_rewrite/0/5 pg_class/2/0 pg_operator_oid_index/0/2 pg_proc/0/2 pg_proc/0/46 pg_proc_proname_args_nsp_index/0/26
//	pg_toast_2618/0/20
//	pg_attribute/0/63 pg_proc/0/58
var PG15 = Profile{
	Pages:                     306,
	VacuumIndexWindowHits:     15,
	VacuumNextIndexWindowHits: 9,
	VacuumWindowHits:          25,
	TableGrowthPages:          2,
	// From a later run of the same measurement (which gave 30).
	IndexInsertHits: 30,
	Kinds: map[Kind]string{
		Buffercache:         "5555554455434434224221111422114521211402251311105111111112110511141111012011141511100000024021000000000000000000000000000005533200041400044440111000220003300101033311d1001030122000000101022200000c2000111111000000000000111110000b1",
		Checkpoint:          "5445344422430131231221111011111001212100010011150111031111110105101111010000010000010000000201000000000000000000000000000000000100001000000000110000000000011000000000001101",
		Copy:                "55453544244331413332221110111140023133200410111201111311111112021011110100000121000100000212210000000000000000000000000000000111001010000000021100000000000110000000110011010000000001000000001101",
		First:               "5555512250135515220221555555550551151005505511100111001111110050101111500555500005505555500000555555555555555550550005500000000000000000000000000000000000000000000000000000000002222",
		Insert:              "54453544224331412222221110111120012112200110111201111011111110001011110100000020000000000210210000000000000000000000000000000110000000000000020000000000000000000000110000000000000000000000001b20200000000000000000000000000000111",
		Scan:                "5555544432333221222222111111110001111020101011112111101111111000121111010000001000000000000000000000000000000000000000000000000020000000000000001000111110000000000000010010001",
		Scan1w:              "5550554454425524322335222532220033121021202433322332202221222010121111410211111000000111000000000000000000000000000000000000000030000000100000001400112220000000100000010010001000000000000000000000022000000000000000000000000100000011",
		Session:             "5445354422430131331221111011112002213100030011100111031111110202101111010000011100010000000c010000000000000000000000000000000001001010000000001100000000000110000000000011010000000001000000000001",
		Table:               "555555445f130f13225223555334445552111ee43000111031110011111100d012111101f1000000f00e100010000100000000000000000f00f5f00f55f000000fd0004e1000000010ee0000000001d11000000000000d0000000000c1c000000000000c0000001111111b1111000000000000001",
		Vacuum:              "554531223513f3122223222222212202231110221021111001115111111150001011110120111000111000000000000000000000000000000000000000000000000000002000000000000000000001011000000000000000000000c10000000000000000000000000000000000000000000001",
		StatBgwriter:        "5545354424430131332221111011112002213100030011150111051111110205101111010000011100020000000c010000000000000000000000000000000001001010000000001200000000000220000000000011020000000001000000000001",
		StatDatabase:        "5555554452430432231221222212220221214002200011152111031111110105121111012020031100010000001000000000004000000000000000000002011100021000000010111000110001111001000011c0001000111000000000000000000520000011110000000000000001010000000000000050120000000001001000000010001",
		StatTables:          "55555544524315244322215555355515532141055204111551110511141105551511110155422525222205004310010400000045000000000000001000040551000510005000101410001111155032011400110000004013300000020100000001010000121551000000000000000113000010000f555f043122222222211101111111011101",
		PgbenchSelectOnly:   "55555233432304112222222222132202211110202000111001113011111130001211110110400100000000000010000000000000000000000000000000020111000200000000100010001100011000010000110000000010000000000000000000000000111111000000000000000000000000000000000000000000000000000000000000002202",
		PgbenchSetup:        "55555544534305433252225555125515531120325105111251113011131135311511110152500315002201000020010000000000000000000000000000040551301512004000200010001121255000011400110200202013300000000100000000000000441551000000000000000101100010000025000500000000200000000010000000015100012c0b1111",
		PgbenchSimpleUpdate: "5555534445430411224222222213220221112040230011100111401111114100121111011050020000000000002000000000000000000000000000000002022100021000000010001000110001100001020011000000001000000000000000100000000011111100000000000000010000000000000000000000000000000000000000000000222221001",
		PgbenchTPCB:         "555553444543051122522222221322022111205053001110011150111111510015111101305002000000000000200000000000000000000000000000000202210002100000001000100011000110000102001100000000100000000000000010000000001111110000000000000001000000b000000000000000000000000000000000000000555c2100b10000bb",
		Analyze:             "555553444443e321222222333211531222111120323011100111401111113502141111012000010500000000000c010000000000000000000000000000020221000510001000000010001100012000011000100011000010100000000000000000000000021551000000000000000000000000000005000200000000000010000010000000004e0c0100000000000000111",
		Index:               "555555445f43ff322252234443345335512113f332501112011140111111451212111101f0000115000000001212210000000000000000000002f00b11b00111000010000000020000000000000000b10000110011000000000000001100001b00000000000000111111101100000000000000000d05000100000000000000000010000000000000010000000000f1bb",
		PgbenchReading:      "555555445543554553522255555555555541440555251115511155111411555515111101555445555445050045502104000000450000000e0000f0100005555320151300555451151000222125535401154511d2012240154000010401022430010f2000231551000000000000111113200b10000f555f5453235222222111111111141111115300000000000000c000000f4332c2111111",
		Index1w:             "555555445f43ff353253355555455535532213f332533332022350231112551212111101f1110115f0000120121c210000000000000000100002f00b11b00111000010001000020004000000000000b11000110011000000000000001100001b00000220000000111111101100000000000000110e0500010000000000000000001000000000000001000000000001bb0000000000000000f",
		Set:                 "545553444043024243033222202222000232400002002221022200222222000020222200000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000004",
	},
}
