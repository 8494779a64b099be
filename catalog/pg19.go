package catalog

// Measured by `pgbufsim catalog-profile` on PostgreSQL 19beta1: 321 catalog pages;
// 0 pages not shared between databases were still at usage 5 before the statements ran (pins on them are not seen).
// A digit is a page's pins; a letter a–f is 0–5 pins on a page the session dirties.
//
// Pages (relation/fork/block), most pinned first:
//
//	pg_attribute_relid_attnum_index/0/3 pg_class_oid_index/0/3 pg_attribute_relid_attnum_index/0/4 shared:pg_db_role_setting_databaseid_rol_index/0/0 pg_type/0/0 pg_attribute/0/27
//	pg_type_oid_index/0/1 pg_type_oid_index/0/3 pg_class_oid_index/0/1 pg_class/0/0 pg_class_oid_index/0/2 pg_proc_oid_index/0/3
//	shared:pg_database/0/0 pg_index_indexrelid_index/0/1 pg_class/0/4 pg_class/0/8 pg_class/0/9 pg_proc_proname_args_nsp_index/0/3
//	pg_namespace_nspname_index/0/1 pg_proc/0/44 pg_class_relname_nsp_index/0/3 pg_index/0/2 shared:pg_database_oid_index/0/1 pg_amproc/0/0
//	pg_amproc_fam_proc_index/0/1 pg_amproc_fam_proc_index/0/3 pg_attribute/0/25 shared:pg_authid/0/0 pg_am/0/0 pg_opclass/0/0
//	pg_opclass_oid_index/0/1 pg_attribute_relid_attnum_index/0/2 pg_index/0/1 pg_type_typname_nsp_index/0/3 pg_attribute/0/10 pg_class/0/3
//	pg_namespace/0/0 pg_attribute/0/26 pg_proc_proname_args_nsp_index/0/22 pg_class_relname_nsp_index/0/2 pg_proc_oid_index/0/5 pg_type_typname_nsp_index/0/2
//	pg_type/0/1 pg_attribute/0/16 pg_amproc_fam_proc_index/0/0 pg_attribute_relid_attnum_index/0/0 pg_class_oid_index/0/0 pg_index/0/0
//	pg_index_indexrelid_index/0/0 pg_opclass_oid_index/0/0 pg_statistic_relid_att_inh_index/0/3 pg_type/0/2 shared:pg_authid_oid_index/0/0 shared:pg_authid_oid_index/0/1
//	pg_attribute_relid_attnum_index/0/11 pg_namespace_nspname_index/0/0 pg_proc_oid_index/0/0 pg_type_oid_index/0/0 shared:pg_database_oid_index/0/0 pg_attribute_relid_attnum_index/0/5
//	pg_cast_source_target_index/0/1 pg_proc_oid_index/0/6 pg_proc_proname_args_nsp_index/0/0 pg_statistic_ext_relid_index/0/0 shared:pg_authid_rolname_index/0/0 shared:pg_authid_rolname_index/0/1
//	shared:pg_database_datname_index/0/0 shared:pg_database_datname_index/0/1 pg_attribute_relid_attnum_index/0/1 pg_class/0/6 pg_class_relname_nsp_index/0/0 pg_index_indrelid_index/0/1
//	pg_proc_oid_index/0/7 pg_class/0/1 pg_class/0/2 pg_class/0/5 pg_class/0/7 pg_index/0/3
//	pg_proc_oid_index/0/1 pg_proc_oid_index/0/2 pg_attribute/0/4 pg_attribute/0/5 pg_attribute/0/9 pg_cast/0/0
//	pg_class/0/10 pg_proc/0/43 pg_statistic_relid_att_inh_index/0/2 shared:pg_tablespace/0/0 shared:pg_tablespace_oid_index/0/1 pg_attribute/0/11
//	pg_attribute/0/3 pg_attribute/0/6 pg_attribute/0/8 pg_operator/0/3 pg_operator_oprname_l_r_n_index/0/3 pg_proc/0/48
//	pg_proc/0/55 pg_type_typname_nsp_index/0/0 shared:pg_tablespace_oid_index/0/0 pg_attribute/0/0 pg_attribute/0/1 pg_attribute/0/12
//	pg_attribute/0/13 pg_attribute/0/14 pg_attribute/0/15 pg_attribute/0/17 pg_attribute/0/18 pg_attribute/0/19
//	pg_attribute/0/2 pg_attribute/0/20 pg_attribute/0/21 pg_attribute/0/22 pg_attribute/0/23 pg_attribute/0/24
//	pg_attribute/0/28 pg_attribute/0/29 pg_attribute/0/60 pg_attribute/0/65 pg_attribute/0/66 pg_attribute/0/7
//	pg_attribute_relid_attnam_index/0/17 pg_attribute_relid_attnam_index/0/3 pg_attribute_relid_attnum_index/0/12 pg_attribute_relid_attnum_index/0/6 pg_class/0/12 pg_depend/0/15
//	pg_depend_depender_index/0/3 pg_depend_reference_index/0/3 pg_depend_reference_index/0/8 pg_operator/0/0 pg_operator/0/5 pg_operator_oid_index/0/1
//	pg_operator_oid_index/0/3 pg_proc/0/0 pg_proc/0/51 pg_statistic_relid_att_inh_index/0/1 pg_type_oid_index/0/2 pg_type_typname_nsp_index/0/4
//	pg_amop/0/0 pg_cast_source_target_index/0/0 pg_class_relname_nsp_index/0/1 pg_class_tblspc_relfilenode_index/0/1 pg_default_acl_role_nsp_obj_index/0/0 pg_depend_depender_index/0/10
//	pg_namespace_oid_index/0/1 pg_operator/0/1 pg_operator/0/8 pg_operator/0/9 pg_operator_oprname_l_r_n_index/0/2 pg_proc/0/98
//	pg_proc_oid_index/0/10 pg_proc_oid_index/0/11 pg_rewrite_rel_rulename_index/0/0 pg_rewrite_rel_rulename_index/0/1 pg_statistic_relid_att_inh_index/0/0 pg_ts_config/0/0
//	pg_type/0/16 pg_aggregate/0/0 pg_aggregate_fnoid_index/0/0 pg_aggregate_fnoid_index/0/1 pg_amop_opr_fam_index/0/1 pg_amop_opr_fam_index/0/3
//	pg_attribute/2/0 pg_attribute_relid_attnum_index/0/8 pg_class/0/14 pg_class/1/2 pg_class_relname_nsp_index/0/4 pg_index/0/4
//	pg_index_indrelid_index/0/0 pg_namespace_oid_index/0/0 pg_operator/0/2 pg_operator/0/6 pg_operator/0/7 pg_operator_oid_index/0/0
//	pg_operator_oprname_l_r_n_index/0/0 pg_proc/0/18 pg_proc/0/61 pg_proc/0/62 pg_proc/0/68 pg_proc_proname_args_nsp_index/0/20
//	pg_proc_proname_args_nsp_index/0/6 pg_rewrite/0/7 pg_statistic/0/5 pg_amop/0/2 pg_amop/0/3 pg_amop/0/4
//	pg_amproc/0/1 pg_amproc/0/2 pg_amproc/0/3 pg_amproc/0/4 pg_attribute/0/42 pg_attribute/0/59
//	pg_attribute/1/0 pg_class/0/11 pg_class/0/13 pg_class_tblspc_relfilenode_index/0/0 pg_depend_depender_index/0/11 pg_opclass/0/1
//	pg_operator/0/10 pg_operator/0/12 pg_operator/0/13 pg_operator/0/4 pg_operator_oprname_l_r_n_index/0/1 pg_proc/0/13
//	pg_proc/0/19 pg_proc/0/26 pg_proc/0/34 pg_proc/2/0 pg_statistic/0/14 pg_ts_config_cfgname_index/0/1
//	pg_ts_config_oid_index/0/1 pg_amop/0/1 pg_amop_fam_strat_index/0/0 pg_amop_fam_strat_index/0/1 pg_amop_fam_strat_index/0/3 pg_amop_opr_fam_index/0/0
//	pg_attribute/0/30 pg_attribute/0/31 pg_attribute/0/32 pg_attribute/0/33 pg_attribute/0/34 pg_attribute/0/41
//	pg_attribute/1/2 pg_attribute_relid_attnam_index/0/0 pg_class/1/0 pg_class/1/1 pg_depend/1/0 pg_depend_depender_index/0/0
//	pg_depend_reference_index/0/0 pg_depend_reference_index/0/5 pg_event_trigger_evtname_index/0/0 pg_index/1/0 pg_opclass/0/2 pg_operator/0/11
//	pg_operator_oprname_l_r_n_index/0/4 pg_proc/0/10 pg_proc/0/20 pg_proc/0/3 pg_proc/0/8 pg_proc_oid_index/0/4
//	pg_proc_proname_args_nsp_index/0/26 pg_proc_proname_args_nsp_index/0/9 pg_rewrite/0/12 pg_rewrite/2/0 pg_statistic/0/2 pg_toast_16452_index/0/0
//	pg_ts_config_cfgname_index/0/0 pg_ts_config_oid_index/0/0 pg_type/1/0
//	pg_namespace/2/0 pg_proc/0/40 pg_proc/0/42 pg_toast_2618_index/0/1 pg_attribute_relid_attnum_index/0/7 pg_opclass_am_name_nsp_index/0/1
//	pg_constraint_conrelid_contypid_conname_index/0/3 pg_proc_oid_index/0/8 pg_rewrite/0/0 pg_attribute/0/36 pg_constraint/0/0 pg_constraint_conrelid_contypid_conname_index/0/1
//	pg_index/2/0 pg_opfamily/0/0 pg_opfamily_oid_index/0/1 pg_rewrite/0/6 pg_statistic/0/13 pg_statistic/0/7
//	pg_toast_2618_index/0/0 pg_amop_opr_fam_index/0/2 pg_attribute/0/35 pg_attribute/0/40 pg_collation/0/0 pg_collation_oid_index/0/0
//	pg_collation_oid_index/0/1 pg_constraint/0/1 pg_constraint_conrelid_contypid_conname_index/0/0 pg_constraint_conrelid_contypid_conname_index/0/4 pg_opclass_am_name_nsp_index/0/0 pg_opfamily_oid_index/0/0
//	pg_proc/0/1 pg_proc/0/36 pg_proc/0/37 pg_proc/0/49 pg_proc/0/50 pg_rewrite/0/3
//	pg_toast_2618/0/11 pg_toast_2618/0/13 pg_toast_2618/0/14 pg_toast_2618/0/15 pg_toast_2618/0/21 pg_type/0/3
//	pg_statistic/0/18 pg_publication_rel_prrelid_prpubid_index/0/0 pg_constraint/0/4 pg_constraint_conrelid_contypid_conname_index/0/2 pg_cast/0/1 pg_publication_namespace_pnnspid_pnpubid_index/0/0
//	pg_proc/0/12 pg_proc/0/22 pg_proc/0/45 pg_statistic/0/16 pg_statistic/2/0 pg_constraint/0/3
//	pg_inherits_parent_index/0/0 pg_inherits_relid_seqno_index/0/0 pg_partitioned_table_partrelid_index/0/0 pg_proc_proname_args_nsp_index/0/1 pg_statistic/0/17
//	pg_attribute_relid_attnam_index/0/16 pg_statistic/1/0 pg_statistic/1/1 pg_statistic/1/2
//	pg_proc/0/41 pg_attribute/0/37 pg_rewrite/0/1 pg_class/2/0 pg_proc/0/2 pg_proc/0/47
//	pg_proc_proname_args_nsp_index/0/27 pg_toast_2618/0/17 pg_toast_2618/0/18
var PG19 = Profile{
	Pages:            321,
	VacuumWindowHits: 28,
	TableGrowthPages: 2,
	IndexInsertHits:  30,
	Kinds: map[Kind]string{
		Buffercache:         "5555534454543433432242211152111244131220145111111153111111105014111101121111114100051002200002402110000000000000000000000000100005533205004140000444400c111000003300100010333111000010322200000001110022220200012001111100000000000000000110b11000b11",
		Checkpoint:          "544543442024311013231121110211100110102021101110110111011110131011110010400000100000050000000002010000000000000000000000000030000000010000010000000000421100000000010010000000000011010000000000000000000000000000000000000001",
		Copy:                "554553442344311314333121110221100410203233411110110111111110221011110010200000120001010000000212210000000000000000000000000000000001110001010000000002001100000000010010000001100011010000000010000000000010101",
		First:               "55551522550135555122052555521555505515101005111511011101111500101111550005555500555050000555500000055555555555555555000500050000000000000000000000000000000000000000000100000000000000000022220000000200000000000000000011111000000000001",
		Insert:              "54455344232431101422212111022110021010221211111011011111111002101111001000000002000000000000021021000000000000000000000000000000000110000000000000000200000000000000000000000110330000000000000000000000001012000000000000000000000000000000000111",
		Scan:                "5555434433233220122221211102211010101212100111101121111111100112111100100000000100000021100000000010000000000000000000000000000000000020000000000000000000100111000000000000000100001",
		Scan1w:              "55505544554425545232253333435335203535121002333133213322222502121111321001111111221000222111100000200000000000000000000000000000000000300000000010000000001402220000000001000001000010000000000000000000000000000220000000000000000000000001000000000011",
		Session:             "54455344202431131333112111021110021020203130111011011101111020101111001020000011000101000000000201000000000000000000000000000000000001000101000000000000110000000001001000000000001101000000001000000000000000b1",
		Table:               "555555445ff13f4f31225425555234455522221f1e00111311311101111000121111101f000001000010003110000000011000000000000000000ff0f5f00f55f0000000fd000e4e100000000010e00000201d0c1100000000000000000000002001c0000000000000000000000000b111111b1100000000000000001",
		Vacuum:              "554513223f5133212122213222222222101230121002111211011151111000101111011201111000000010011000000000100000000000000000500000001000000000000000000020000000000000000010100011000000000000000000000c011000000000000000000000000000000000000000000000000001",
		StatBgwriter:        "5545534420543113133331211102111002102020313011101101110111102510111100105000001100010500000000020100000000000000000000000000500000000100010100000000004213000000000300300000000000110200000000100000000000000010000000000000020000000000000000000000000000000000000000001",
		StatDatabase:        "55555344502434202323122222221222201112204000111211211101111015121111001251100031000100011000001000100000000004000000000000003000020111020021000000001051111000001101001010000110000010011100000000000000000200002000111100000100000000000001010000000000000510002000000010010010000000000000000001",
		StatIO:              "554553442044311513332121110211100210202031301110110111011110501011110010200000320005020000000222010000000000000000000000000000000202220001110000000010101200000011020020000001100011020211000020000000000010102000010001000001000000000000010001",
		StatTables:          "55555344510435444243252455521555511532204120111511541101111055151111521552322552001520311050331001105000000054000000000000002000040551050051000050001035141001115500202f11400110000000433320000005210500000000b200011551000110000000000000040110000010000550444313222222022111011111111111b11111101",
		PgbenchSelectOnly:   "5555233350323520112221233352233530121212100011101121113111100012111100110400001000000021100000100010000000000000000030000000000002011100002000000000100000100000110000021000011000000000010000000000000000000000000111110000000000000000000000000000000000000001000000000000000000010000000000000002011",
		PgbenchSetup:        "55555344503435253432542555522555511532132010111111531131111052151111201515000231000520111010002001100000000000000000300000000000040551350151200040002000001002125500002011400112000020233510000000010500000000000004155100000000000000000001010100001000020000550002204402000000001121100000000000100b120220b111111",
		PgbenchSimpleUpdate: "555533445054352011224123335223353012121420301110112111411110101211110011050000200000002110000020001000000000000000004000000000000202210000210000000010000010000011000002102001100000000001000000000000000010000000011111000000000000000000000100000000000000000100000000000000000001000000000000000221112001",
		PgbenchTPCB:         "55553344505435201122532333522335301212152030111211511151111010151111001305000020000000511000002000100000000000000000500000000000020221000021000000001000001000001100000c102001100000000001000000000000000010000000011111000000000000000000000100000000000000000300000000000000000001000000000000000e5d3120011100000b",
		Analyze:             "555533444e4433201222212333222532311122121124111011411141111050141111001220000010000500e110000002011000000000000000000000000000000202210000510000100000000010000012000000110001000011000012000000000005000000000000001551000000000000000000000000000000000000002000000000000010000000010000000000000c00020000000000000111",
		Index:               "555555445ff43f4023225424445235355312122f1325111211011141111052121111001f2f00011100150001100002122110000000000000000000f0b2f00b11b001110000010b0b00000200000000000000010d100001100011000000000000100105000010100000000000000000011111101100000000000000000000001000000000000000000000010000000000000000020000000000001",
		PgbenchReading:      "5555534455543555545355245552155554155230432111151154111111105515111153155443355500153232205033400110500000005400000000000000500005055325015120005200405f151002125503305f11400112000122454420002005310500000200c32002155100011200000000000004b11100b110000555554333222522122111111111111111c31111111000000000000000000000422111111",
	},
}
