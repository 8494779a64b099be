package engine

import (
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Settings are the GUCs in force (package guc).
type Settings = guc.Settings

// DefaultSettings are version v's defaults (guc.DefaultSettings).
func DefaultSettings(v pg.Version) (*Settings, error) { return guc.DefaultSettings(v) }
