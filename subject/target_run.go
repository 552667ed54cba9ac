package subject

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
)

// TargetDone is one declared target of an erase.
type TargetDone struct {
	Name string `json:"name"`
	// Erased is what the target's Erase answered.
	Erased   int64 `json:"erased"`
	Retained bool  `json:"retained,omitempty"`
}

// TargetExported is one declared target of an export.
type TargetExported struct {
	Name   string `json:"name"`
	Retain string `json:"retain,omitempty"`
	// Keys are the files its Export wrote; Bytes their total size.
	Keys  []string `json:"keys"`
	Bytes int64    `json:"bytes"`
}

// target answers the declared target the plan names: a replayed run plans
// from its journal, and a declaration that no longer has it has changed.
func (ex *eraser) target(p *Plan, name string) (Target, error) {
	for _, t := range ex.decl.Targets {
		if t.Name == name && t.Target != nil {
			return t.Target, nil
		}
	}
	return nil, changed(p.Root, "target "+name+" is no longer declared")
}

// person answers the Person a target is called for, in tx.
func (ex *eraser) person(p *Plan, tx pgx.Tx) Person {
	return Person{Root: p.Root, Columns: p.Key, Values: ex.key, Tx: tx}
}

// eraseTargets calls Erase of every declared target not retained, one
// step each.
func (ex *eraser) eraseTargets(ctx context.Context, p *Plan) ([]TargetDone, error) {
	var out []TargetDone
	for _, pt := range p.Targets {
		if pt.Retain != "" {
			out = append(out, TargetDone{Name: pt.Name, Retained: true})
			continue
		}
		t, err := ex.target(p, pt.Name)
		if err != nil {
			return out, err
		}
		res, err := ex.steps.tx(ctx, "targets/"+pt.Name, func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
			n, err := t.Erase(ctx, ex.person(p, tx))
			return pageOut{Changed: n}, err
		})
		if err != nil {
			return out, err
		}
		out = append(out, TargetDone{Name: pt.Name, Erased: res.Changed})
	}
	return out, nil
}

// exportTargets calls Export of every declared target, the retained ones
// too, into targets/<name>/, one step each.
func (ex *exporter) exportTargets(ctx context.Context, p *Plan) ([]TargetExported, error) {
	out := []TargetExported{}
	for _, pt := range p.Targets {
		t, err := ex.target(p, pt.Name)
		if err != nil {
			return out, err
		}
		dir, err := blob.JoinKey(ex.dir, "targets", pt.Name)
		if err != nil {
			return out, err
		}
		res, err := ex.steps.tx(ctx, "targets/"+pt.Name, func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
			o := &TargetOut{bucket: ex.bucket, dir: dir}
			err := t.Export(ctx, ex.person(p, tx), o)
			return pageOut{Found: int64(len(o.keys)), Changed: o.bytes, After: o.keys}, err
		})
		if err != nil {
			return out, err
		}
		out = append(out, TargetExported{Name: pt.Name, Retain: pt.Retain, Keys: append([]string{}, res.After...), Bytes: res.Changed})
	}
	return out, nil
}
