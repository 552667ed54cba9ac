-- Each applied migration's checksum: the SHA-256 of its file, carriage
-- returns removed, in hex. Migrate compares it with the file of the same
-- version it ships and refuses a database whose applied migration differs
-- (X_MIGRATION_CHANGED): a released migration is never edited, its fixes
-- are new migrations. The Migrate that applies this one records the
-- checksums of the migrations applied before it, once 0014 and 0015 have
-- brought a database migrated with the earlier texts of 0001 and 0007 to
-- what those files create now.
alter table pipe.migrations add column checksum text;
