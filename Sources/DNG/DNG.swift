// Placeholder: filled in by the DNG work.
