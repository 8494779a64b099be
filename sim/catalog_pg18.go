package sim

// Measured by `pgbufsim catalog-profile` on PostgreSQL 18beta1: 241 catalog pages;
// 0 pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).
// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.
//
// Pages (relation/fork/block), most pinned first:
//
//	pg_attribute_relid_attnum_index/0/3 pg_class_oid_index/0/3 pg_attribute_relid_attnum_index/0/4 shared:pg_db_role_setting_databaseid_rol_index/0/0 pg_type/0/0 pg_attribute/0/25
//	pg_type_oid_index/0/1 pg_type_oid_index/0/3 pg_class_oid_index/0/1 pg_class_oid_index/0/2 pg_proc_oid_index/0/3 shared:pg_database/0/0
//	pg_class/0/0 pg_index_indexrelid_index/0/1 pg_class/0/8 pg_proc_proname_args_nsp_index/0/3 pg_class_relname_nsp_index/0/3 pg_namespace_nspname_index/0/1
//	pg_proc/0/43 pg_class/0/4 pg_index/0/2 shared:pg_database_oid_index/0/1 pg_amproc/0/0 pg_amproc_fam_proc_index/0/1
//	pg_amproc_fam_proc_index/0/3 pg_attribute/0/24 shared:pg_authid/0/0 pg_am/0/0 pg_class/0/3 pg_opclass/0/0
//	pg_opclass_oid_index/0/1 pg_attribute_relid_attnum_index/0/2 pg_type_typname_nsp_index/0/3 pg_attribute/0/10 pg_namespace/0/0 pg_proc_proname_args_nsp_index/0/22
//	pg_attribute/0/23 pg_proc_oid_index/0/5 pg_type_typname_nsp_index/0/2 pg_class_relname_nsp_index/0/2 pg_index/0/0 pg_index/0/1
//	pg_type/0/1 pg_attribute/0/16 pg_cast_source_target_index/0/1 pg_class/0/11 pg_class/0/6 pg_amproc_fam_proc_index/0/0
//	pg_attribute_relid_attnum_index/0/0 pg_class/0/7 pg_class_oid_index/0/0 pg_index_indexrelid_index/0/0 pg_opclass_oid_index/0/0 pg_statistic_relid_att_inh_index/0/3
//	shared:pg_authid_oid_index/0/0 shared:pg_authid_oid_index/0/1 pg_attribute_relid_attnum_index/0/10 pg_cast/0/0 pg_namespace_nspname_index/0/0 pg_proc_oid_index/0/0
//	pg_type/0/2 pg_type_oid_index/0/0 shared:pg_database_oid_index/0/0 pg_attribute/0/55 pg_attribute_relid_attnum_index/0/5 pg_proc_oid_index/0/1
//	pg_proc_oid_index/0/6 pg_proc_proname_args_nsp_index/0/0 pg_statistic_ext_relid_index/0/0 shared:pg_authid_rolname_index/0/0 shared:pg_authid_rolname_index/0/1 shared:pg_database_datname_index/0/0
//	shared:pg_database_datname_index/0/1 pg_attribute_relid_attnum_index/0/1 pg_class/0/2 pg_class/0/5 pg_class_relname_nsp_index/0/0 pg_index/0/3
//	pg_index_indrelid_index/0/1 pg_proc_oid_index/0/2 pg_proc_oid_index/0/7 pg_class/0/1 pg_operator/0/3 pg_operator_oprname_l_r_n_index/0/3
//	pg_attribute/0/4 pg_attribute/0/5 pg_attribute/0/9 pg_class/0/9 pg_class_relname_nsp_index/0/5 pg_operator/0/0
//	pg_operator_oid_index/0/1 pg_operator_oid_index/0/3 pg_statistic_relid_att_inh_index/0/2 shared:pg_tablespace/0/0 shared:pg_tablespace_oid_index/0/1 pg_attribute/0/11
//	pg_attribute/0/3 pg_attribute/0/6 pg_attribute/0/8 pg_proc/0/0 pg_proc/0/47 pg_proc/0/54
//	pg_proc_oid_index/0/11 pg_type_typname_nsp_index/0/0 shared:pg_tablespace_oid_index/0/0 pg_amop/0/0 pg_attribute/0/0 pg_attribute/0/1
//	pg_attribute/0/12 pg_attribute/0/13 pg_attribute/0/14 pg_attribute/0/15 pg_attribute/0/17 pg_attribute/0/18
//	pg_attribute/0/19 pg_attribute/0/2 pg_attribute/0/20 pg_attribute/0/21 pg_attribute/0/22 pg_attribute/0/26
//	pg_attribute/0/27 pg_attribute/0/60 pg_attribute/0/61 pg_attribute/0/7 pg_attribute_relid_attnam_index/0/16 pg_attribute_relid_attnam_index/0/3
//	pg_attribute_relid_attnum_index/0/11 pg_attribute_relid_attnum_index/0/6 pg_depend/0/13 pg_depend_depender_index/0/3 pg_depend_reference_index/0/3 pg_depend_reference_index/0/7
//	pg_operator/0/5 pg_operator_oprname_l_r_n_index/0/2 pg_proc/0/42 pg_proc/0/50 pg_rewrite_rel_rulename_index/0/1 pg_statistic_relid_att_inh_index/0/1
//	pg_type_typname_nsp_index/0/4 pg_amop/0/2 pg_amop_opr_fam_index/0/1 pg_amop_opr_fam_index/0/3 pg_attribute_relid_attnum_index/0/8 pg_cast_source_target_index/0/0
//	pg_class_relname_nsp_index/0/1 pg_default_acl_role_nsp_obj_index/0/0 pg_depend_depender_index/0/9 pg_namespace_oid_index/0/1 pg_operator/0/1 pg_operator/0/8
//	pg_operator/0/9 pg_operator_oid_index/0/0 pg_operator_oprname_l_r_n_index/0/0 pg_proc/0/95 pg_rewrite/0/8 pg_rewrite_rel_rulename_index/0/0
//	pg_statistic_relid_att_inh_index/0/0 pg_ts_config/0/0 pg_type_oid_index/0/2 pg_aggregate/0/0 pg_aggregate_fnoid_index/0/0 pg_aggregate_fnoid_index/0/1
//	pg_amop/0/3 pg_attribute/0/39 pg_class_tblspc_relfilenode_index/0/1 pg_index/0/4 pg_index_indrelid_index/0/0 pg_namespace_oid_index/0/0
//	pg_operator/0/2 pg_operator/0/6 pg_operator/0/7 pg_operator_oprname_l_r_n_index/0/1 pg_proc/0/18 pg_proc/0/19
//	pg_proc/0/66 pg_proc_proname_args_nsp_index/0/33 pg_proc_proname_args_nsp_index/0/6 pg_statistic/0/5 pg_amop/0/1 pg_amop/0/4
//	pg_amop_opr_fam_index/0/0 pg_amproc/0/1 pg_amproc/0/2 pg_amproc/0/3 pg_amproc/0/4 pg_attribute/0/38
//	pg_attribute/0/54 pg_attribute/1/0 pg_class/0/10 pg_class/0/12 pg_class/0/13 pg_class_tblspc_relfilenode_index/0/0
//	pg_depend_depender_index/0/10 pg_opclass/0/1 pg_operator/0/10 pg_operator/0/12 pg_operator/0/4 pg_proc/0/13
//	pg_proc/0/26 pg_proc/0/34 pg_proc/0/60 pg_proc_oid_index/0/10 pg_proc_oid_index/0/4 pg_statistic/0/15
//	pg_ts_config_cfgname_index/0/1 pg_ts_config_oid_index/0/1 pg_type/0/15 pg_amop_fam_strat_index/0/0 pg_amop_fam_strat_index/0/1 pg_amop_fam_strat_index/0/3
//	pg_attribute/0/28 pg_attribute/0/29 pg_attribute/1/2 pg_attribute_relid_attnam_index/0/0 pg_class/1/0 pg_class/1/1
//	pg_class/1/2 pg_class_relname_nsp_index/0/4 pg_depend/1/0 pg_depend_depender_index/0/0 pg_depend_reference_index/0/0 pg_depend_reference_index/0/5
//	pg_event_trigger_evtname_index/0/0 pg_index/1/0 pg_opclass/0/2 pg_operator/0/11 pg_operator/0/13 pg_operator_oprname_l_r_n_index/0/4
//	pg_proc/0/10 pg_proc/0/3 pg_proc/0/33 pg_proc/0/8 pg_proc/0/9 pg_proc_proname_args_nsp_index/0/26
//	pg_proc_proname_args_nsp_index/0/9 pg_rewrite/0/14 pg_statistic/0/3 pg_toast_16428_index/0/0 pg_ts_config_cfgname_index/0/0 pg_ts_config_oid_index/0/0
//	pg_type/1/0
var catalogPG18 = catalogProfile{
	pages:            241,
	vacuumWindowHits: 28,
	tableGrowthPages: 1,
	indexInsertHits:  30,
	kinds: map[catalogKind]string{
		catalogBuffercache: "5555534455434443422222111421411241123140225151111311151115112110040141111011112111240001053302200002021114000000000000000000000000005400150233014000444110011000002000103330100013111000000011110022220000020001110000000000000001110101000b1",
		catalogCheckpoint:  "54454344224301131231121110210110111202100010130110111011001111100131011110001000400000000000000000012051000000000000000000000000000000501000001100000000001100000000000000000011000000000100000000000000010000000000000001",
		catalogCopy:        "55455344244331143331121110220110412303320041230110111011111111110121011110001002202100001011000000012201000000000000000000000000000000001010001100000001121100000001000000010111000000000000000000000001",
		catalogFirst:       "555515225013555102255255552155550511510055050051151110110011111050010111155505000500555500000005555000000055555555555555500500050000000000000000000000000000000000000100000000000000022220000000020000000000000000110000000000001",
		catalogInsert:      "5445534422433114222112111022011021120122001100011011101110111111002101111000100200210000001100000000020100000000000000000000000000000000000000000000000112000000000000000001010000000000000000000000002020100000000000000000000000000000011",
		catalogScan:        "555543443233321222211211122211100111010201010001101112111011111100112111100010010000000000002110000000001000000000000000000000000000000200000000000000000000100111000000000010001",
		catalogScan1w:      "555055445442555223255333343553350331410212020013333332332022122251212111132212010100221000002221111000002000000000000000000000000000000300000000000100000000140222000001000010001000000000000000000000000000220000000000000000000000000010000011",
		catalogSession:     "554553442443011323311211102101102122031000305501101110110511111003010111100010022022000022220000000220010100000000000000000000000000010020121121000000011021000000120000000101b1001110000100000000000001011000000000000000000000000010b",
		catalogTable:       "555555445f130f315223425554233445522131ee430000f1101113110011111000012111110011f000000010e00031100000000110000000000000000ff0f5f0f55f000000d0000004e10000000010e00000dc11000000000000000000020001c0000000000000c00000b11110111b1100000000000000001",
		catalogVacuum:      "554513223513f32122221322222222220131010221020111111110115011111500010111101110200100000100000110000000001000000000000000000000000000000000000000000200000000000000000011000000000000000000c011100000000000000000000000000000000000000000000001",
	},
}
