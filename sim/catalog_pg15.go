package sim

// Measured by `pgbufsim catalog-profile` on PostgreSQL 15.18 (Debian 15.18-0+deb12u1): 233 catalog pages;
// 0 pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).
// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.
//
// Pages (relation/fork/block), most pinned first:
//
//	pg_attribute_relid_attnum_index/0/3 pg_class_oid_index/0/3 pg_attribute_relid_attnum_index/0/4 shared:pg_db_role_setting_databaseid_rol_index/0/0 pg_attribute/0/26 pg_type/0/0
//	pg_class_oid_index/0/1 pg_type_oid_index/0/1 pg_type_oid_index/0/3 pg_class_oid_index/0/2 pg_index_indexrelid_index/0/1 pg_proc_oid_index/0/3
//	shared:pg_database/0/0 pg_class/0/0 pg_class/0/8 pg_class/0/3 pg_namespace_nspname_index/0/1 pg_proc/0/40
//	pg_proc_proname_args_nsp_index/0/3 shared:pg_database_oid_index/0/1 pg_amproc/0/0 pg_amproc_fam_proc_index/0/1 pg_amproc_fam_proc_index/0/3 pg_class/0/4
//	pg_class_relname_nsp_index/0/3 shared:pg_authid/0/0 pg_am/0/0 pg_index/0/2 pg_opclass/0/0 pg_opclass_oid_index/0/1
//	pg_attribute/0/25 pg_attribute_relid_attnum_index/0/2 pg_namespace/0/0 pg_attribute/0/10 pg_index/0/0 pg_index/0/1
//	pg_type_typname_nsp_index/0/3 pg_class/0/7 pg_proc_proname_args_nsp_index/0/21 pg_attribute/0/17 pg_class_relname_nsp_index/0/2 pg_proc_oid_index/0/5
//	pg_statistic_relid_att_inh_index/0/1 pg_type_typname_nsp_index/0/2 pg_attribute_relid_attnum_index/0/0 pg_class_oid_index/0/0 pg_index_indexrelid_index/0/0 shared:pg_authid_oid_index/0/0
//	shared:pg_authid_oid_index/0/1 pg_amproc_fam_proc_index/0/0 pg_attribute_relid_attnum_index/0/10 pg_index/0/3 pg_namespace_nspname_index/0/0 pg_opclass_oid_index/0/0
//	pg_proc_oid_index/0/0 pg_proc_oid_index/0/6 pg_statistic_ext_relid_index/0/0 pg_type/0/1 pg_type/0/2 pg_type_oid_index/0/0
//	shared:pg_database_oid_index/0/0 pg_attribute/0/24 pg_attribute/0/56 pg_index_indrelid_index/0/1 pg_proc_proname_args_nsp_index/0/0 shared:pg_authid_rolname_index/0/0
//	shared:pg_authid_rolname_index/0/1 shared:pg_database_datname_index/0/0 shared:pg_database_datname_index/0/1 pg_attribute_relid_attnum_index/0/1 pg_cast_source_target_index/0/1 pg_class/0/1
//	pg_class/0/10 pg_class/0/2 pg_class/0/5 pg_class_relname_nsp_index/0/0 pg_proc_oid_index/0/7 pg_class/0/13
//	pg_class/0/6 pg_class/0/9 pg_proc_oid_index/0/1 pg_attribute/0/11 pg_attribute/0/3 pg_attribute/0/4
//	pg_attribute/0/6 pg_attribute/0/9 pg_cast/0/0 pg_class_relname_nsp_index/0/4 pg_proc_oid_index/0/2 pg_attribute/0/0
//	pg_attribute/0/1 pg_attribute/0/12 pg_attribute/0/13 pg_attribute/0/14 pg_attribute/0/15 pg_attribute/0/16
//	pg_attribute/0/18 pg_attribute/0/19 pg_attribute/0/2 pg_attribute/0/20 pg_attribute/0/21 pg_attribute/0/22
//	pg_attribute/0/23 pg_attribute/0/27 pg_attribute/0/28 pg_attribute/0/5 pg_attribute/0/61 pg_attribute/0/7
//	pg_attribute/0/8 pg_attribute_relid_attnam_index/0/15 pg_attribute_relid_attnam_index/0/3 pg_attribute_relid_attnum_index/0/11 pg_attribute_relid_attnum_index/0/5 pg_attribute_relid_attnum_index/0/6
//	pg_depend/0/14 pg_depend_depender_index/0/3 pg_depend_reference_index/0/3 pg_depend_reference_index/0/7 pg_operator/0/0 pg_operator/0/5
//	pg_operator_oprname_l_r_n_index/0/3 pg_proc/0/47 pg_type/1/0 pg_type_typname_nsp_index/0/0 pg_amop/0/0 pg_class_relname_nsp_index/0/1
//	pg_default_acl_role_nsp_obj_index/0/0 pg_depend_depender_index/0/9 pg_namespace_oid_index/0/1 pg_operator/0/1 pg_operator/0/3 pg_operator/0/8
//	pg_operator/0/9 pg_operator_oid_index/0/1 pg_operator_oid_index/0/3 pg_operator_oprname_l_r_n_index/0/2 pg_proc/0/0 pg_proc/0/44
//	pg_proc/0/51 pg_statistic_relid_att_inh_index/0/0 pg_ts_config/0/0 pg_type/1/1 pg_type_oid_index/0/2 pg_type_typname_nsp_index/0/4
//	shared:pg_tablespace/0/0 shared:pg_tablespace_oid_index/0/1 pg_aggregate/0/0 pg_aggregate_fnoid_index/0/0 pg_aggregate_fnoid_index/0/1 pg_amop_opr_fam_index/0/1
//	pg_amop_opr_fam_index/0/3 pg_cast_source_target_index/0/0 pg_class/0/12 pg_class_tblspc_relfilenode_index/0/1 pg_index_indrelid_index/0/0 pg_namespace_oid_index/0/0
//	pg_operator/0/2 pg_operator/0/6 pg_operator/0/7 pg_proc/0/12 pg_proc/0/17 pg_proc_proname_args_nsp_index/0/6
//	pg_rewrite_rel_rulename_index/0/0 pg_rewrite_rel_rulename_index/0/1 pg_statistic/0/5 pg_type/1/2 shared:pg_tablespace_oid_index/0/0 pg_amop/0/2
//	pg_amop/0/3 pg_amproc/0/1 pg_amproc/0/2 pg_amproc/0/3 pg_amproc/0/4 pg_attribute/0/39
//	pg_attribute/0/55 pg_attribute_relid_attnum_index/0/7 pg_class/0/11 pg_class/1/2 pg_class_tblspc_relfilenode_index/0/0 pg_depend_depender_index/0/10
//	pg_operator/0/10 pg_operator/0/12 pg_operator/0/4 pg_operator_oid_index/0/0 pg_operator_oprname_l_r_n_index/0/0 pg_proc/0/24
//	pg_proc/0/57 pg_proc/0/62 pg_proc/0/90 pg_proc_oid_index/0/10 pg_proc_proname_args_nsp_index/0/19 pg_rewrite/0/8
//	pg_statistic/0/14 pg_ts_config_cfgname_index/0/1 pg_ts_config_oid_index/0/1 pg_type/0/15 pg_amop/0/1 pg_amop/0/4
//	pg_amop_fam_strat_index/0/0 pg_amop_fam_strat_index/0/1 pg_amop_fam_strat_index/0/3 pg_amop_opr_fam_index/0/0 pg_attribute/0/40 pg_attribute/1/0
//	pg_attribute_relid_attnam_index/0/0 pg_class/1/0 pg_class/1/1 pg_depend/1/0 pg_depend_depender_index/0/0 pg_depend_reference_index/0/0
//	pg_depend_reference_index/0/5 pg_event_trigger_evtname_index/0/0 pg_index/1/0 pg_index/1/1 pg_index/1/2 pg_operator/0/11
//	pg_operator/0/13 pg_operator_oprname_l_r_n_index/0/1 pg_operator_oprname_l_r_n_index/0/4 pg_proc/0/18 pg_proc/0/3 pg_proc/0/32
//	pg_proc/0/8 pg_proc/0/9 pg_proc_oid_index/0/4 pg_proc_proname_args_nsp_index/0/25 pg_proc_proname_args_nsp_index/0/8 pg_rewrite/0/13
//	pg_statistic/0/1 pg_toast_16406_index/0/0 pg_ts_config_cfgname_index/0/0 pg_ts_config_oid_index/0/0 pg_type/0/14
var catalogPG15 = catalogProfile{
	pages:            233,
	vacuumWindowHits: 25,
	tableGrowthPages: 2,
	kinds: map[catalogKind]string{
		catalogBuffercache: "555555544544344422321112421211521122432101541111111111104521100211111051111111114000005010000000000000000000000000000055400144000424433420210000220003311010333d11113012200000001010222110000c0020001111110000000000000110101010000b1",
		catalogCheckpoint:  "544534244214301023321111121111001100102002011111110011150111100011111010300150001000000100000000000000000000000000000000000100000000000012000000000000010000000000110000000001010000000000010011",
		catalogFirst:       "55555152205135552212555502155555155505150100111111051110001115001111150505500055055555000555555555555555550550005500000000000000000000000000000000000000000000000000000002222",
		catalogInsert:      "544535244214331022421111222111001100202121021111111011120111101011111000000100000000000020000000000000000000000000000000100100000020011000200000000000000000000000000000000000000000000112202000000000000000000000000000010b0000111",
		catalogScan:        "55555434422333112222111122211100110100112120111111101111201110101111100000010000000000001000000000000000000000000000000002000000000000000001000011111000000000001100001",
		catalogScan1w:      "5550555444542545322322232352220332120412212033333221222220122420111112010111000010111000100000000000000000000000000000000300000010000000000140001122200000010000110000100000000000000000000000000220000000000000000000000000000100000011",
		catalogSession:     "54453524421430103332111112111100210020200301111111001110031110001111102030012000100000111000000000000000000000000000000000010000000000001c000001000000010000000000110000000001010000000000010011000000000010000000000000000001",
		catalogTable:       "555555544ff13033221255535234445521435010e13e1111110d11102011100f1111110000010f000100010e000000000000000000f00f5f00f55f0000f1004e1000000000010eed000000001d11000000000d00000000000c1c000000000000000c00000001111111b1111000000000000000001",
		catalogVacuum:      "5545313225313f2222132222222122223121011221001111115011100011105211111001111101110000000000000000000000000000000000000000000000002000000000000000000000001011000000000000000000c0100000000000000000000000000000000000000000000000000001",
	},
}
