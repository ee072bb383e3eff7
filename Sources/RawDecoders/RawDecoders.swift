// Placeholder: filled in by the RawDecoders work.
