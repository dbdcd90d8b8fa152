/**
 * A stable identity for each variant of a union that has no discriminator
 * (no property whose literal value tells the variants apart, see
 * `discriminatorOf` in field-rows.ts). Such variants are anchored by position
 * (`output:3`), which changes when a variant is inserted before them; their
 * identity does not, so release histories and links that must outlive a
 * release use it (anchors.ts, "Stable anchors").
 *
 * The rule, first that applies:
 * 1. An object variant is known by a property that no other object variant of
 *    the union declares (required or not): the first such required property in
 *    declaration order, else the first such optional one (`+asset_upload` for
 *    `{ written?, owned?, asset_upload }` among variants that lack
 *    `asset_upload`). Why this label: a variant added to a union of results
 *    usually brings its own member (Artifact's `asset_upload`, `asset_list`, …)
 *    and keeps it, while positions move; a property the other variants share
 *    (`url`, `owned`) cannot tell the variant apart.
 * 2. Any other variant (not an object, or an object with no property of its
 *    own) is known by its type text when no other variant of the union has the
 *    same text (`=string` in `string | { … }`).
 * 3. Otherwise it has no identity and stays known by its position only.
 * Identities are distinct within a union by construction (a property of one
 * variant only; a type text of one variant only).
 *
 * A variant with an identity is also labelled by it on pages and in histories
 * (`with asset_upload`, `string`), never by its position, which names a
 * different variant once one is inserted before it.
 */
import { propertyIdentity, typeIdentity } from './anchors.ts';
import { stripNullable, typeText, type Shape } from './shape.ts';

export interface VariantIdentity {
  /** The stable key written after the `:` of an anchor (`+asset_upload`, `=string`). */
  key: string;
  /** What a page calls the variant (`with asset_upload`, `string`). */
  label: string;
}

/** The identity of each variant (undefined: known by position only), in variant order. */
export function variantIdentities(variants: readonly Shape[]): (VariantIdentity | undefined)[] {
  const inners = variants.map((v) => stripNullable(v));
  const declaredBy = new Map<string, number>();
  for (const { shape } of inners) {
    if (shape.kind !== 'object') continue;
    for (const name of new Set(shape.properties.map((p) => p.name)))
      declaredBy.set(name, (declaredBy.get(name) ?? 0) + 1);
  }
  const texts = inners.map(({ shape, nullable }) => typeText(shape) + (nullable ? ' | null' : ''));
  return inners.map(({ shape }, i) => {
    if (shape.kind === 'object') {
      const own = shape.properties.filter((p) => declaredBy.get(p.name) === 1);
      const pick = own.find((p) => p.required) ?? own[0];
      if (pick) return { key: propertyIdentity(pick.name), label: `with ${pick.name}` };
    }
    const text = texts[i]!;
    return texts.filter((t) => t === text).length === 1 ? { key: typeIdentity(text), label: text } : undefined;
  });
}
