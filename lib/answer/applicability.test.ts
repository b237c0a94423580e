import { describe, expect, it } from 'vitest';
import { designationsToLookUp, unknownDevices } from './applicability';

describe('unknown devices', () => {
  it('looks up the model designations of a query that names a maker + model, and of no other', () => {
    expect(designationsToLookUp('How do I update the firmware of a Rigol DP832 power supply?')).toEqual(['dp832']);
    expect(designationsToLookUp('What does error E05 mean?')).toEqual([]);
  });

  it('are the maker + model names of a query whose models the library mentions none of', () => {
    const query = 'Can the SKR Mini E3 V2.0 run from a Rigol DP832?';
    const models = designationsToLookUp(query);
    expect(models).toEqual(['v2.0', 'dp832']);
    expect(unknownDevices([{ query, known: Object.fromEntries(models.map((w) => [w, false])) }])).toEqual(['Rigol DP832']);
    // The library knows one of its models (V2.0): the question is about that device.
    expect(unknownDevices([{ query, known: Object.fromEntries(models.map((w) => [w, w === 'v2.0'])) }])).toEqual([]);
  });

  it('are named once across searches, in the order the searches ran', () => {
    const a = { query: 'How do I update a Rigol DP832?', known: { dp832: false } };
    const b = { query: 'Is the Yaesu FT-65 like the Rigol DP832?', known: { 'ft-65': false, dp832: false } };
    expect(unknownDevices([a, b])).toEqual(['Rigol DP832', 'Yaesu FT-65']);
  });
});
