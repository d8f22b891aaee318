import { describe, expect, it } from 'vitest';
import { BASE_MATERIAL_SLOTS, decodeMaterial, describeMaterial } from '../../src/format/material.ts';

describe('packed material', () => {
  it('decodes the authoring notes examples', () => {
    expect(decodeMaterial(0x20)).toMatchObject({ flags: 0x20, literal: true, slot: 0, propertySlot: 0 });
    expect(decodeMaterial(96)).toMatchObject({ slot: 1, slotName: 'Concrete' });
    expect(decodeMaterial(160)).toMatchObject({ slot: 2, slotName: 'Asphalt' });
    expect(decodeMaterial(352)).toMatchObject({ slot: 5, slotName: 'Metal' });
    expect(decodeMaterial(2976)).toMatchObject({ slot: 46, literal: true });
    expect(decodeMaterial(47186720)).toMatchObject({ propertySlot: 90, properties: ['Stair'] });
    expect(decodeMaterial(0x00f007a0)).toMatchObject({ slot: 30, slotName: 'Water' });
  });
  it('names slots outside the base grid as such', () => {
    expect(BASE_MATERIAL_SLOTS).toBe(116);
    const m = decodeMaterial((200 << 6) | 0x20);
    expect(m).toMatchObject({ slot: 200, baseSlot: false, slotName: null });
    expect(describeMaterial(m)).toMatch(/slot 200 outside the base grid/);
    expect(decodeMaterial(0xffffffff)).toMatchObject({ flags: 63, slot: 8191, propertySlot: 8191, literal: true });
  });
});
