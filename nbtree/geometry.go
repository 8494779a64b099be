package nbtree

// btree page geometry for 16-byte index tuples (an int4 or int8 key after the
// 8-byte IndexTupleData, MAXALIGNed) with 4-byte line pointers: 8,152 bytes
// between the 24-byte header and the 16-byte special space, less the high
// key's reserved line pointer. _bt_buildadd starts a new page before adding
// an item once PageGetFreeSpace is below the fillfactor's reserve (819 bytes
// for leaves at 90, 2,457 for internal pages at 70), and the page's last item
// becomes its high key: 367 items with 366 keys on a leaf, 285 with 284
// downlinks on an internal page — what pageinspect shows on PostgreSQL 15.
// Ascending inserts end the same way: the rightmost leaf fills to 407 items,
// then _bt_split keeps 366 and the high key on the left (firstrightoff 367)
// and moves 41 and the new item to the new right page.
const (
	// ItemSize is a plain index tuple and its line pointer.
	ItemSize = 16 + 4
	// LeafItems is the items on a leaf CREATE INDEX filled, the high key included (367).
	LeafItems = (8144-819)/ItemSize + 1
	// InnerItems is the items on a filled internal page, the high key included (285).
	InnerItems = (8144-2457)/ItemSize + 1
	// LeafKeys is the keys on a filled leaf that is not the rightmost (366).
	LeafKeys = LeafItems - 1
	// InnerDownlinks is the downlinks on a filled internal page that is not the rightmost (284).
	InnerDownlinks = InnerItems - 1
	// MaxItems is the items that fill a rightmost page, which has no high key (407).
	MaxItems = 8152 / ItemSize
)

// MetaBlock is the metapage's block number (BTREE_METAPAGE).
const MetaBlock = 0

// fastpathMinLevel is BTREE_FASTPATH_MIN_LEVEL (nbtinsert.c): the rightmost
// leaf fastpath is taken only in a tree with at least two levels above the leaves.
const fastpathMinLevel = 2
