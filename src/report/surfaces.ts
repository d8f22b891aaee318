// Names for packed material words on the report page: the material slot's sound id from the surface catalog
// (src/import/materials.ts, ../shared/data/collision_surface_catalog.json), with the word in hex.
import { materialSlot, SURFACE_CATALOG } from '../import/materials.ts';

/** word → "concrete (0x60)", or "slot 140 (0x2320)" for a slot the catalog does not name. */
export function surfaceNames(): (word: number) => string {
  const sounds = SURFACE_CATALOG.materialSoundIds;
  return (word) => {
    const slot = materialSlot(word);
    const name = sounds[slot];
    return `${name ? name : `slot ${slot}`} (0x${(word >>> 0).toString(16)})`;
  };
}
