// Placeholder: filled in by the PTP core work.
