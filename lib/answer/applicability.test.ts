import { describe, expect, it } from 'vitest';
import { LibraryIndex } from '@/lib/ranking/library-index';
import {
  designationsToLookUp,
  devicesNotReady,
  lookUpModels,
  pendingManualsNaming,
  uncoveredVariants,
  unknownDevices,
  unmentionedDesignations,
} from './applicability';

describe('unknown devices', () => {
  it('looks up every designation of a query and the model of a maker + model', () => {
    expect(designationsToLookUp('How do I update the firmware of a Rigol DP832 power supply?')).toEqual(['dp832']);
    expect(designationsToLookUp('What does error E05 mean?')).toEqual(['e05']);
    expect(designationsToLookUp('How do I calibrate a Wendel 87V meter?')).toEqual(['87v']);
    // a code no manual mentions is looked up, but it is no device
    expect(unknownDevices([{ query: 'What does error E05 mean?', known: { e05: false } }])).toEqual([]);
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

describe('variants and manuals not ready', () => {
  const index = new LibraryIndex({
    manuals: [
      { id: 'qx', title: 'Zentro QX-40 Series Service Manual', fileName: 'zentro-qx40.pdf' },
      { id: 'hx', title: 'Acme HX-200 Controller Manual', fileName: 'acme-hx200.pdf' },
    ],
    pages: [
      { manualId: 'qx', number: 1, text: 'Zentro QX-40 Series\nService Manual' },
      { manualId: 'qx', number: 2, text: 'This manual covers the QX-40A/B. The QX-40B adds a second output.' },
      { manualId: 'hx', number: 1, text: 'Acme HX-200 Controller' },
      { manualId: 'hx', number: 2, text: 'Supply 24 V DC. The meter reads 87 V at the test point.' },
    ],
    chunks: [],
  });

  it('a variant the manual lists, or of a model it lists no variant of, is covered; another variant of a listed model is not', () => {
    expect(lookUpModels('How do I reset a Zentro QX-40B?', index)).toEqual({ known: { 'qx-40b': true } });
    expect(lookUpModels('How do I reset an Acme HX-200D?', index)).toEqual({ known: { 'hx-200d': true } });
    const query = 'How do I reset a Zentro QX-40C?';
    const found = lookUpModels(query, index)!;
    expect(found).toEqual({ known: { 'qx-40c': true }, variants: { 'qx-40c': ['qx40a', 'qx40b'] } });
    expect(uncoveredVariants([{ query, ...found }])).toEqual([{ asked: 'QX-40C', listed: ['QX-40A', 'QX-40B'] }]);
    // said as a variant, not as a device no manual mentions
    expect(unknownDevices([{ query, ...found }])).toEqual([]);
    // without a maker's name too
    const bare = 'What output does the QX-40C add?';
    expect(uncoveredVariants([{ query: bare, ...lookUpModels(bare, index)! }])).toEqual([{ asked: 'QX-40C', listed: ['QX-40A', 'QX-40B'] }]);
  });

  it('a model that reads as a value is mentioned only as written, not by a value on a page', () => {
    const query = 'How do I calibrate a Wendel 87V meter?';
    const found = lookUpModels(query, index)!;
    expect(found).toEqual({ known: { '87v': false } });
    expect(unknownDevices([{ query, ...found }])).toEqual(['Wendel 87V']);
  });

  it('a device no ready manual mentions is not ready when a processing manual names it', () => {
    const query = 'What fuse does the Brio KL-9 take?';
    const unmentioned = unmentionedDesignations(query, index);
    expect(unmentioned).toEqual(['kl-9']);
    const pending = [{ title: 'Brio KL9 Manual', fileName: 'brio-kl9.pdf', percent: 41 }];
    const notReady = pendingManualsNaming(unmentioned, pending);
    expect(notReady).toEqual({ 'kl-9': pending[0] });
    const lookups = [{ query, known: { 'kl-9': false }, notReady }];
    expect(devicesNotReady(lookups)).toEqual([{ device: 'KL-9', percent: 41 }]);
    expect(unknownDevices(lookups)).toEqual([]);
    expect(pendingManualsNaming(unmentioned, [{ title: 'Brio KL-12 Manual', fileName: 'kl12.pdf' }])).toEqual({});
  });
});
