-- Coordination across the fleet: concurrency slots held as lease rows, and
-- shared rate budgets.

alter table pipe.jobs add column concurrency_key text;

-- One row per held slot. The primary key is what serialises two workers
-- reaching for the same slot; a slot whose holder stopped renewing frees
-- itself when expires_at passes.
create table pipe.job_leases (
    lease_key  text        not null,
    slot       integer     not null,
    job_id     uuid        not null,
    claims     integer     not null,
    expires_at timestamptz not null,
    primary key (lease_key, slot)
);
create index job_leases_job on pipe.job_leases (job_id);

-- Take a free (or lapsed) slot of lease_key for a run, or keep the one its
-- own earlier claim holds. Answers whether the run holds a slot.
create function pipe.acquire_slot(p_key text, p_limit integer, p_job uuid, p_claims integer, p_ttl interval)
    returns boolean
    language plpgsql
as $$
declare
    s    integer;
    now_ timestamptz := pipe.now();
begin
    update pipe.job_leases set claims = p_claims, expires_at = now_ + p_ttl
    where lease_key = p_key and job_id = p_job;
    if found then
        return true;
    end if;
    for s in 0 .. p_limit - 1 loop
        insert into pipe.job_leases (lease_key, slot, job_id, claims, expires_at)
        values (p_key, s, p_job, p_claims, now_ + p_ttl)
        on conflict (lease_key, slot) do update
            set job_id = excluded.job_id, claims = excluded.claims, expires_at = excluded.expires_at
            where pipe.job_leases.expires_at < now_;
        if found then
            return true;
        end if;
    end loop;
    return false;
end
$$;

-- A fleet-wide budget: at most spent_limit spends per window, shared by every
-- worker.
create table pipe.rate_buckets (
    bucket       text        primary key,
    window_start timestamptz not null,
    spent        integer     not null
);
