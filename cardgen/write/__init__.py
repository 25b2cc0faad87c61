"""The write stage: PDF, manifest, and writing files whole or not at all."""
