-- The cursor a consumer keeps in pipe for one key.
select cursor from pipe.consumer_cursors where consumer = $1 and key = $2
