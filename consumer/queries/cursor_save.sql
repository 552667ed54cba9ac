-- Store a key's cursor, in the transaction of the batch it is the cursor past.
insert into pipe.consumer_cursors (consumer, key, cursor)
values ($1, $2, $3)
on conflict (consumer, key) do update set cursor = excluded.cursor, saved_at = pipe.now()
