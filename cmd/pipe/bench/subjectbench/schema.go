package subjectbench

import (
	"fmt"
	"strings"

	"github.com/pipekit/pipe/subject"
)

// Schema is the bench's schema: it holds the 20 tables and nothing else,
// and is dropped after.
const Schema = "pipe_bench_subject"

// PerMember is how many rows one member owns across the reached tables
// (the member's row included); each also has 60 rows under its orders the
// walk does not reach (an anonymized order keeps its items and payments).
const (
	PerMember = 1000
	Unreached = 60
)

// tableDDL creates the 20 tables, every foreign key indexed.
const tableDDL = `
create table members (id bigint primary key, email text not null, name text not null, bio text);
create table profiles (id bigint primary key, member_id bigint not null references members, about text);
create table addresses (id bigint primary key, member_id bigint not null references members, line text);
create table devices (id bigint primary key, member_id bigint not null references members, label text);
create table sessions (id bigint primary key, device_id bigint not null references devices, token text);
create table posts (id bigint primary key, author_id bigint not null references members, title text, body text);
create table post_revisions (id bigint primary key, post_id bigint not null references posts, body text);
create table comments (id bigint primary key, post_id bigint not null references posts, author_id bigint not null references members, body text);
create table comment_votes (id bigint primary key, comment_id bigint not null references comments, voter_id bigint not null references members, up bool not null);
create table likes (id bigint primary key, post_id bigint not null references posts, member_id bigint not null references members);
create table follows (id bigint primary key, follower_id bigint not null references members, followee_id bigint not null references members);
create table messages (id bigint primary key, sender_id bigint not null references members, body text);
create table message_reads (id bigint primary key, message_id bigint not null references messages, reader_id bigint not null references members);
create table attachments (id bigint primary key, message_id bigint not null references messages, name text);
create table orders (id bigint primary key, member_id bigint references members, shipping_name text not null, total numeric(10,2) not null);
create table order_items (id bigint primary key, order_id bigint not null references orders, sku text not null);
create table payments (id bigint primary key, order_id bigint not null references orders, amount numeric(10,2) not null);
create table notifications (id bigint primary key, member_id bigint not null references members, text text);
create table audit_log (id bigint primary key, actor_ref bigint not null, action text);
create table api_keys (id bigint primary key, member_id bigint not null references members, name text);
create index on profiles (member_id); create index on addresses (member_id); create index on devices (member_id);
create index on sessions (device_id); create index on posts (author_id); create index on post_revisions (post_id);
create index on comments (post_id); create index on comments (author_id); create index on comment_votes (comment_id);
create index on comment_votes (voter_id); create index on likes (post_id); create index on likes (member_id);
create index on follows (follower_id); create index on follows (followee_id); create index on messages (sender_id);
create index on message_reads (message_id); create index on message_reads (reader_id); create index on attachments (message_id);
create index on orders (member_id); create index on order_items (order_id); create index on payments (order_id);
create index on notifications (member_id); create index on audit_log (actor_ref); create index on api_keys (member_id);
`

// rowsDML fills the tables for members 1..$1: each member's rows reference
// its own (ids are computed from the member's, so a run is the same every
// time).
const rowsDML = `
insert into members select m, 'm' || m || '@example.com', 'Member ' || m, repeat('b', 80) from generate_series(1, $1) m;
insert into profiles select m, m, 'about' from generate_series(1, $1) m;
insert into addresses select (m - 1) * 2 + i, m, 'line' from generate_series(1, $1) m, generate_series(1, 2) i;
insert into devices select (m - 1) * 3 + i, m, 'phone' from generate_series(1, $1) m, generate_series(1, 3) i;
insert into sessions select (d.id - 1) * 2 + j, d.id, md5(d.id::text || j) from devices d, generate_series(1, 2) j;
insert into posts select (m - 1) * 20 + i, m, 'title', repeat('p', 200) from generate_series(1, $1) m, generate_series(1, 20) i;
insert into post_revisions select (p.id - 1) * 3 + j, p.id, 'rev' from posts p, generate_series(1, 3) j;
insert into comments select (p.id - 1) * 5 + j, p.id, p.author_id, repeat('c', 100) from posts p, generate_series(1, 5) j;
insert into comment_votes select (c.id - 1) * 2 + j, c.id, c.author_id, j = 1 from comments c, generate_series(1, 2) j;
insert into likes select (p.id - 1) * 5 + j, p.id, p.author_id from posts p, generate_series(1, 5) j;
insert into follows select (m - 1) * 20 + i, m, m from generate_series(1, $1) m, generate_series(1, 20) i;
insert into messages select (m - 1) * 100 + i, m, repeat('x', 60) from generate_series(1, $1) m, generate_series(1, 100) i;
insert into message_reads select g.id, g.id, g.sender_id from messages g;
insert into attachments select (m - 1) * 50 + i, (m - 1) * 100 + i, 'file' from generate_series(1, $1) m, generate_series(1, 50) i;
insert into orders select (m - 1) * 20 + i, m, 'Member ' || m, 10 from generate_series(1, $1) m, generate_series(1, 20) i;
insert into order_items select (o.id - 1) * 2 + j, o.id, 'sku' from orders o, generate_series(1, 2) j;
insert into payments select o.id, o.id, 10 from orders o;
insert into notifications select (m - 1) * 165 + i, m, 'hello' from generate_series(1, $1) m, generate_series(1, 165) i;
insert into audit_log select (m - 1) * 50 + i, m, 'login' from generate_series(1, $1) m, generate_series(1, 50) i;
insert into api_keys select (m - 1) * 2 + i, m, 'key' from generate_series(1, $1) m, generate_series(1, 2) i;
`

// tables are the bench's tables, in creation order.
var tables = []string{"members", "profiles", "addresses", "devices", "sessions", "posts", "post_revisions",
	"comments", "comment_votes", "likes", "follows", "messages", "message_reads", "attachments", "orders",
	"order_items", "payments", "notifications", "audit_log", "api_keys"}

// Declaration is the bench's person: every reached table deleted but the
// orders, anonymized (their items and payments stay with them), and the
// audit log found by its actor_ref column.
func Declaration() subject.Declaration {
	d := subject.Declaration{Root: Schema + ".members", Tables: map[string]subject.Treatment{},
		Columns: map[string][]string{Schema + ".audit_log": {"actor_ref"}}}
	for _, t := range tables {
		switch t {
		case "orders":
			d.Tables[Schema+"."+t] = subject.Anonymize(map[string]any{"member_id": nil, "shipping_name": ""})
		case "order_items", "payments":
		default:
			d.Tables[Schema+"."+t] = subject.Delete()
		}
	}
	return d
}

// ddl answers the statements that create the schema afresh.
func ddl() string {
	return fmt.Sprintf("drop schema if exists %s cascade; create schema %s; set local search_path = %s;\n%s",
		Schema, Schema, Schema, strings.TrimSpace(tableDDL))
}
