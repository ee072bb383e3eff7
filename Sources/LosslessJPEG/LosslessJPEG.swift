// Placeholder: filled in by the lossless JPEG work.
