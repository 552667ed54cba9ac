package pipeline

import (
	"fmt"
	"testing"
)

// released holds every released migration: its version, name and the
// checksum of its file. A released migration is never edited — a fix is a
// new migration — so an edit fails here before it reaches a database, where
// Migrate would refuse it (X_MIGRATION_CHANGED).
//
// A new migration is added here with its checksum when it is written, with
// a version above every released one. 0009 was never released: no commit on
// any branch added one (git log --all -- 'pipeline/migrations/0009*' is
// empty); 0010 was numbered while the rollup (0007), consumer (0008) and
// subject branches were open, and nothing took 0009. It stays a gap: a 0009
// written now would run after 0010-0015 on every database that has them,
// and Migrate refuses a migration older than one already applied.
var released = []struct {
	version  int
	name     string
	checksum string
}{
	{1, "jobs", "64daeddadb14178e6ce5308b8cdf95688c34dbe7da0ee343e581d3bfb9f7207c"}, // edited in place at 8da98df: see 0014
	{2, "suspend", "f1a793149d7e94f3e59d14181fd11919fb402c0977daabf82d88053a8e79f7f6"},
	{3, "tasks", "99f70b7fee0745e66205dfc0469f4ba9cdd7178a95d4ef6c74a69f0b29fee6d6"},
	{4, "coordination", "7065de0762ceb8adcaf71d5b52b68afe350ff13c5ced256577cf657ec4dba524"},
	{5, "operator", "58742aadfd6329540388a9eb61846f7b3510a807ad452193e228882ce1d55961"},
	{6, "trace", "5fa96d99267dc7081b032cb64d19ce3ab122b8600821edd7f63185ce750a5d0a"},
	{7, "bucket", "78d35ec36c47845d3e2fcf41ced5d4d7c67ae07965f54e74a895f3d49f9a9773"}, // edited in place at ce197e1: see 0015
	{8, "status", "42cdf1f27e755b4c24aacd963dcce796a94773d6b881e2b7f1097ba843a032a3"},
	{10, "lease_index", "f1f01b8209a2e96808de145d85440341745dd7267642837c006e241befba8ab0"},
	{11, "transitions", "7e2d94f4131f32e63daaac5012cd5c3ca460d440075c3ff1b2768cc17d283564"},
	{12, "claim_by_name", "8ee57e5a5289535cc6442a8095b765e138baca51b3ad6540ac152d732092ceb6"},
	{13, "migration_checksums", "3c2f98ee662e10a8126f90aa5fcaded21fae21ffdefd804f234d2d9215e0a0b3"},
	{14, "run_id_index", "1aec2d017db4ea4648d4598778a22541ad999f2b7d716001382bda0e9566777d"},
	{15, "bucket_local_start", "db46af3fd77496f26d749d15ffb8a52f299a51f5d4502185b415f47766bf24c7"},
	{16, "import_input", "1bfc9aca76c9f77875bcffc0833622b9682dd40d22e17be3bf2195dd7c4220d4"},
	{17, "webhook", "ef2f515110c760a670540aa9a90c55a5585c4679f1f81038274b8d9da80ce980"},
	{18, "backfill", "37b2800b3fcfe46971a5c43e1088b0ca5192238753d7340f3017d6ea485fcfd8"},
	{19, "outbox", "bb96a2d418fe07bd0988de6d5f676eabd9d038a141044a2a2cbbc46b61ff29c2"},
	{20, "open_runs_index", "c4e4d97374587bba24efb3f4e51c5a89e65c336094bce1e5b9cc72cf99bde8c6"},
	{21, "outbox_batches", "36ad8e25e73d6e2914775ab43bfe52d05d0a241010e8bd7d86a2d8a2181d06fc"},
	{22, "partitioned_runs", "c86b909b3d44e7b5f6929c10be9ac365dac8798c9adf1dfca29f51b28fc8fff0"},
	{23, "open_runs_operator_indexes", "abee834cd892795262dcf8e90fe98393c6a6b678df3c54df3aeba0c2da1cf025"},
	{24, "running_runs_out_of_state_index", "197a55eb32304bf5bab0fb7f639253e902e061434fbb270c8df8e22428a93664"},
	{25, "drop_run_partition", "3ef31da5079aab1d0c23a0e88ab268804c1007c70793ccc45caae10e3c2748a0"},
	{26, "clock_in_plpgsql", "c337c253fc6cc1bcabc87f1e2bcdb1cf99cbc522e741f677c87e188186260950"},
}

func TestReleasedMigrationsAreUnchanged(t *testing.T) {
	all, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	shipped := map[int]migration{}
	for _, m := range all {
		shipped[m.version] = m
	}
	newest := 0
	for _, r := range released {
		newest = max(newest, r.version)
		m, ok := shipped[r.version]
		switch {
		case !ok:
			t.Errorf("released migration %04d_%s is gone: a released migration is never removed", r.version, r.name)
		case m.name != r.name || m.checksum != r.checksum:
			t.Errorf("released migration %04d_%s was edited (now %04d_%s, checksum %s): restore it and ship the change as a new migration",
				r.version, r.name, m.version, m.name, m.checksum)
		}
		delete(shipped, r.version)
	}
	for _, m := range shipped {
		if m.version < newest {
			t.Errorf("migration %04d_%s is below released %04d: a new migration takes a version above every released one", m.version, m.name, newest)
			continue
		}
		t.Errorf("migration %04d_%s is not in released: add %s", m.version, m.name,
			fmt.Sprintf("{%d, %q, %q}", m.version, m.name, m.checksum))
	}
}

func TestAChecksumIgnoresCarriageReturns(t *testing.T) {
	if checksumOf([]byte("select 1;\r\nselect 2;\r\n")) != checksumOf([]byte("select 1;\nselect 2;\n")) {
		t.Fatal("a CRLF checkout would change every checksum")
	}
}
