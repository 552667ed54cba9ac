package subject

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// objectKey answers the declared prefix with the key's values in place of
// its placeholders. A value that would not make a key segment (a "/", a
// "..", nothing) is refused: it could reach another person's objects. A
// prefix ending in "/" names every object under it; any other prefix
// names one object.
func objectKey(o Objects, keyCols, key []string) (string, error) {
	out := o.Prefix
	for i, c := range keyCols {
		v := key[i]
		if strings.Contains(o.Prefix, "{"+c+"}") && (v == "" || strings.ContainsAny(v, "/\\") || v == "." || v == "..") {
			return "", errcode.New(errcode.BlobKeyInvalid, "subject: objects %s: the person's key value of %s cannot stand in a key", o.Name, c).
				WithFix("use a key without '/' or '\\\\', or a prefix without that placeholder")
		}
		out = strings.ReplaceAll(out, "{"+c+"}", v)
	}
	if err := blob.ValidateKey(strings.TrimSuffix(out, "/")); err != nil {
		return "", err
	}
	return out, nil
}

// personObjects lists the person's objects of o in b: every object under
// a prefix ending in "/", else the one object the prefix names.
func personObjects(ctx context.Context, b *blob.Bucket, key string) ([]blob.Object, error) {
	if strings.HasSuffix(key, "/") {
		return b.List(ctx, key)
	}
	objs, err := b.List(ctx, key)
	return slices.DeleteFunc(objs, func(o blob.Object) bool { return o.Key != key }), err
}

// eraseObjects deletes the person's objects of every declared entry not
// retained, a step per page of objects.
func (ex *eraser) eraseObjects(ctx context.Context, p *Plan) ([]ObjectsDone, error) {
	var out []ObjectsDone
	for _, o := range p.Objects {
		if o.Retain != "" {
			out = append(out, ObjectsDone{Name: o.Name, Retained: true})
			continue
		}
		done := ObjectsDone{Name: o.Name}
		for page := 0; ; page++ {
			res, err := ex.steps.plain(ctx, fmt.Sprintf("objects/%s/page-%05d", o.Name, page), func(ctx context.Context) (pageOut, error) {
				return ex.deleteObjects(ctx, o, p.Key)
			})
			done.Deleted += res.Changed
			if err != nil {
				return out, err
			}
			if res.Found <= int64(ex.limit) {
				break
			}
		}
		out = append(out, done)
	}
	return out, nil
}

// deleteObjects deletes up to a page of the person's objects of o and
// answers how many it found and deleted. An object already gone counts as
// deleted: a replay deletes nothing twice.
func (ex *eraser) deleteObjects(ctx context.Context, o Objects, keyCols []string) (pageOut, error) {
	key, err := objectKey(o, keyCols, ex.key)
	if err != nil {
		return pageOut{}, err
	}
	b, err := blob.Open(ctx, o.Bucket)
	if err != nil {
		return pageOut{}, err
	}
	defer b.Close()
	objs, err := personObjects(ctx, b, key)
	if err != nil {
		return pageOut{}, err
	}
	out := pageOut{Found: int64(len(objs))}
	for _, obj := range objs[:min(len(objs), ex.limit)] {
		if err := b.Delete(ctx, obj.Key); err != nil && !errorsIsNotFound(err) {
			return out, err
		}
		out.Changed++
	}
	return out, nil
}

func errorsIsNotFound(err error) bool { return errcode.CodeOf(err) == errcode.BlobNotFound }
