package pg_test

import (
	"encoding/json"
	"fmt"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

// A name is read as psql reads it: bare names folded to lower case, quoted
// names kept. String writes it back that way; Quoted is the form for SQL.
func ExampleParseRelation() {
	for _, s := range []string{"orders", "Sales.Orders", `Sales."Order Items"`, `"user"`} {
		r, err := pg.ParseRelation(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-22s schema=%q name=%q  %s  %s\n", s, r.Schema, r.Name, r, r.Quoted())
	}
	_, err := pg.ParseRelation("Order Items")
	fmt.Println(errcode.CodeOf(err))
	// Output:
	// orders                 schema="" name="orders"  orders  "orders"
	// Sales.Orders           schema="sales" name="orders"  sales.orders  "sales"."orders"
	// Sales."Order Items"    schema="sales" name="Order Items"  sales."Order Items"  "sales"."Order Items"
	// "user"                 schema="" name="user"  "user"  "user"
	// X_NAME_INVALID
}

// In JSON a relation is the string SQL writes; an object names the parts
// exactly.
func ExampleRelation_UnmarshalJSON() {
	var in struct {
		Into pg.Relation `json:"into"`
		From pg.Relation `json:"from"`
	}
	_ = json.Unmarshal([]byte(`{"into": "Sales.\"Order Items\"", "from": {"schema": "Sales", "name": "Orders"}}`), &in)
	fmt.Printf("%q %q\n", in.Into.Schema, in.Into.Name)
	fmt.Printf("%q %q\n", in.From.Schema, in.From.Name)
	out, _ := json.Marshal(in)
	fmt.Println(string(out))
	// Output:
	// "sales" "Order Items"
	// "Sales" "Orders"
	// {"into":"sales.\"Order Items\"","from":"\"Sales\".\"Orders\""}
}

// A column list as SQL writes it, for a flag such as --key.
func ExampleParseNames() {
	cols, _ := pg.ParseNames(`org_id, "Order Id", Day`)
	fmt.Printf("%q\n", cols)
	fmt.Println(pg.QuoteName("Order Id"), pg.QuoteName("day"))
	// Output:
	// ["org_id" "Order Id" "day"]
	// "Order Id" day
}
