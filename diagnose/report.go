package diagnose

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s — PostgreSQL %d, shared_buffers %s (%s buffers)\n", r.Statement, r.Version, sizeKB(int64(r.NBuffers)), n(int64(r.NBuffers)))
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "\nNo findings: nothing in the plan's buffer and WAL figures calls for attention.")
	}
	for i, fd := range r.Findings {
		fmt.Fprintf(w, "\n%d. %s (%s): %s\n", i+1, fd.Kind, fd.Severity, fd.Summary)
		fmt.Fprintln(w)
		wrap(w, "   ", fd.Explanation, 96)
		fmt.Fprintln(w, "\n   Evidence:")
		for _, e := range fd.Evidence {
			wrap(w, "     - ", e, 96)
		}
		if fd.Baseline == nil && fd.NotSimulated == "" {
			if len(fd.Fixes) > 0 {
				fmt.Fprintln(w, "\n   Fixes (not simulated):")
				for j, fx := range fd.Fixes {
					fmt.Fprintf(w, "     %d. %s: %s\n", j+1, fx.Name, fx.Description)
				}
			}
			continue
		}
		if fd.Baseline == nil {
			fmt.Fprintln(w, "\n   Fixes (rebuilt, not simulated):")
			wrap(w, "   ", fd.NotSimulated, 96)
		} else {
			fmt.Fprintf(w, "\n   Fixes, simulated on the rebuilt scenario (%s; without a fix: %s)\n", fd.Figure, figure(*fd.Baseline))
		}
		if fd.Scenario != "" {
			fmt.Fprintf(w, "   rebuilt scenario: %s\n", fd.Scenario)
		}
		for j, fx := range fd.Fixes {
			tag := ""
			if fx.WhatIf {
				tag = " [what-if: not in PostgreSQL]"
			}
			after := "not simulated"
			if fx.After != nil && fd.Baseline != nil {
				after = fmt.Sprintf("%s → %s", figure(*fd.Baseline), figure(*fx.After))
			}
			fmt.Fprintf(w, "     %d. %s%s: %s\n", j+1, fx.Name, tag, fx.Description)
			fmt.Fprintf(w, "        %s", after)
			if fx.Note != "" {
				fmt.Fprintf(w, "; %s", fx.Note)
			}
			fmt.Fprintln(w)
			if fx.Scenario != "" {
				fmt.Fprintf(w, "        %s\n", fx.Scenario)
			}
		}
	}
	if len(r.Rebuilt) > 0 {
		fmt.Fprintln(w, "\nThe rebuilt scenario's read beside the plan:")
		for _, l := range r.Rebuilt {
			fmt.Fprintf(w, "   %s\n", l)
		}
	}
	if len(r.Assumptions) > 0 {
		fmt.Fprintln(w, "\nAssumptions:")
		for _, a := range r.Assumptions {
			wrap(w, "   - ", a, 96)
		}
	}
}

func figure(v float64) string {
	if v == float64(int64(v)) {
		return n(int64(v))
	}
	return fmt.Sprintf("%.3f", v)
}

// wrap prints text after prefix, folded at width, continuation lines indented.
func wrap(w io.Writer, prefix, text string, width int) {
	indent := strings.Repeat(" ", len([]rune(prefix)))
	line := prefix
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len([]rune(line))+1+len([]rune(word)) > width {
			fmt.Fprintln(w, line)
			line, empty = indent, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	fmt.Fprintln(w, line)
}
