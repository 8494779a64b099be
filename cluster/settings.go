package cluster

import (
	"github.com/pgbufsim/pgbufsim/guc"
	"github.com/pgbufsim/pgbufsim/pg"
)

// Settings are the GUCs in force (package guc).
type Settings = guc.Settings

// DefaultSettings are version v's defaults (guc.DefaultSettings).
func DefaultSettings(v pg.Version) (*Settings, error) { return guc.DefaultSettings(v) }

// Machine reports a machine or simulator setting rather than a PostgreSQL one (guc.Machine).
func Machine(name string) bool { return guc.Machine(name) }

// WhatIfVariant reports a what-if variant other than version v's own behaviour (guc.WhatIfVariant).
func WhatIfVariant(v pg.Version, name, value string) bool { return guc.WhatIfVariant(v, name, value) }
