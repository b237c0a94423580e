import { describe, expect, it } from 'vitest';
import { LibraryIndex } from './library-index';
import { namedDevice, namedKind } from './named-device';
import { DEVICE_CORPUS } from './testing/devices';

const index = new LibraryIndex(DEVICE_CORPUS);
const named = (question: string, within?: string[]) => namedDevice(question, index, within).manualIds;

describe('the device a question names', () => {
  it('is the manual whose title, file name or cover designation the question writes', () => {
    expect(named('What fuse does the HX-200 need?')).toEqual(['hx200']);
    expect(named('What fuse does the hx200 need?')).toEqual(['hx200']);
    expect(named('Supply voltage of the Brill DP832?')).toEqual(['dp832']);
    expect(named('Which fuse goes in the Zentro?')).toEqual(['qx40']);
  });

  it('keeps siblings apart: a maker both share counts for both, the model decides', () => {
    expect(named('Acme HX-300: which fuse?')).toEqual(['hx300']);
    expect(named('Kappa VNA-10 supply voltage?')).toEqual(['vna10']);
    expect(named('Kappa VNA-20 supply voltage?')).toEqual(['vna20']);
  });

  it('is ambiguous when two manuals match equally', () => {
    expect(named('Which fuse does the Acme controller take?')).toEqual(['hx200', 'hx300']);
    expect(named('What does the Kappa analyzer run from?')).toEqual(['vna10', 'vna20']);
  });

  it('names every copy of one manual (the same title under another file name) without ambiguity', () => {
    const copy = { id: 'hx200b', title: 'Acme HX-200 Press Controller', fileName: 'acme-hx200-copy.pdf' };
    const withCopy = new LibraryIndex({
      manuals: [...DEVICE_CORPUS.manuals, copy],
      pages: [...DEVICE_CORPUS.pages, ...DEVICE_CORPUS.pages.filter((p) => p.manualId === 'hx200').map((p) => ({ ...p, manualId: copy.id }))],
      chunks: DEVICE_CORPUS.chunks,
    });
    expect(namedDevice('What fuse does the HX-200 need?', withCopy)).toMatchObject({ manualIds: ['hx200', 'hx200b'], ambiguous: false });
    // A library of copies of one manual is one device: its name still names it.
    const copiesOnly = new LibraryIndex({
      manuals: [DEVICE_CORPUS.manuals[0], copy, { ...copy, id: 'hx200c', fileName: 'acme-hx200-third.pdf' }],
      pages: ['hx200', 'hx200b', 'hx200c'].flatMap((id) => DEVICE_CORPUS.pages.filter((p) => p.manualId === 'hx200').map((p) => ({ ...p, manualId: id }))),
      chunks: [],
    });
    expect(namedDevice('What fuse does the HX-200 need?', copiesOnly)).toMatchObject({ manualIds: ['hx200', 'hx200b', 'hx200c'], ambiguous: false });
    expect(namedDevice('Which fuse does the Acme controller take?', index)).toMatchObject({ ambiguous: true });
  });

  it('still names a manual when a sibling page lists its model', () => {
    // The power supply's page says "Acme HX-200" too; the HX-200's own title and pages still hold most of it.
    expect(named('Fuse of the HX-200?')).toEqual(['hx200']);
  });

  it('reads prose as prose: lower-case words and a capitalised first word name nothing', () => {
    expect(named('which board power supply fuse do I need?')).toEqual([]);
    expect(named('Board power: what supply voltage?')).toEqual([]);
    expect(named('What is the supply voltage?')).toEqual([]);
  });

  it('looks only within the manuals given', () => {
    expect(named('What fuse does the HX-200 need?', ['hx300', 'dp832'])).toEqual([]);
    expect(named('Which fuse does the Acme controller take?', ['hx300', 'dp832'])).toEqual(['hx300']);
  });

  it('says which words named it, as the question writes them', () => {
    expect(namedDevice('What fuse does the Acme HX-300 need?', index)).toMatchObject({ manualIds: ['hx300'], written: ['Acme', 'HX-300'] });
  });
});

describe('a device referred to by its kind alone', () => {
  const pick = (ids: string[]) =>
    new LibraryIndex({
      manuals: DEVICE_CORPUS.manuals.filter((m) => ids.includes(m.id)),
      pages: DEVICE_CORPUS.pages.filter((p) => ids.includes(p.manualId)),
      chunks: DEVICE_CORPUS.chunks.filter((c) => ids.includes(c.manualId)),
    });

  it('is the one device of that kind in the library', () => {
    expect(namedKind('What does my analyzer run from?', pick(['hx200', 'vna10']))).toMatchObject({ manualIds: ['vna10'], ambiguous: false });
    expect(namedKind('Which fuse does the controller take?', pick(['hx200', 'vna10']))?.manualIds).toEqual(['hx200']);
  });

  it('tells nothing when several devices are of that kind, or no kind is referred to', () => {
    expect(namedKind('What does my analyzer run from?', index)).toBeUndefined();
    expect(namedKind('What is the fuse rating?', pick(['hx200', 'vna10']))).toBeUndefined();
  });

  it('tells nothing when the kind is a word every manual uses', () => {
    // Every manual here speaks of a power supply: the one power supply's kind names it no more than the others.
    expect(namedKind('What fuse does the power supply take?', index)).toBeUndefined();
  });
});
