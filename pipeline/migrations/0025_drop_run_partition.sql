-- Least privilege. A role that runs pipe's workers, CLI and console holds
-- only what `pipe grants` prints: no table of schema pipe is its own. It
-- can make partitions (pipe.ensure_run_partitions runs as the schema's
-- owner) but not detach or drop one, which takes ownership: the retention
-- pass of such a role calls pipe.drop_run_partition instead, which does
-- both as the schema's owner, in the caller's transaction, under a lock
-- timeout of 500 ms (a detach that cannot have its lock in time is left
-- for the next pass). It drops only a partition of one of the four
-- finished trees, and a role may run it only when granted (`pipe grants`
-- does). Answers whether it dropped the partition (false: no such
-- partition, as when another pass dropped it first).
create function pipe.drop_run_partition(p_tree text, p_part text) returns boolean
    language plpgsql
    security definer
    set search_path = pg_catalog, pg_temp
    set lock_timeout = '500ms'
as $$
declare
    pending boolean;
begin
    select p.detaching into pending from pipe.run_partitions() p where p.tree = p_tree and p.name = p_part;
    if not found then
        return false;
    end if;
    execute format('alter table pipe.%I detach partition pipe.%I%s', p_tree, p_part,
                   case when pending then ' finalize' else '' end);
    execute format('drop table pipe.%I', p_part);
    return true;
end
$$;

revoke execute on function pipe.drop_run_partition(text, text) from public;
