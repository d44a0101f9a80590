"""The scoring kit no track owns: executors (local, Ray) that send score jobs to a track's scorer."""
